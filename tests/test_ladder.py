"""helpers.levers and helpers.ladder: each lever's setup and step, where it applies (this CPU, and
faked GPUs), and the ladder climbed on this CPU with a small model: who keeps what, the loss
checks, the roofline points, and a receipt's ladder read back."""

import json
from pathlib import Path

import pytest
import torch

from helpers import charlm, ladder, levers
from helpers.levers import LEVERS, Setup, Trainer
from helpers.timing import Measurement

SHAPE = charlm.Shape(vocab=30, context=8, width=16, heads=2, layers=1)
CPU = torch.device("cpu")
FIXTURES = Path(__file__).parent / "fixtures" / "receipts"


def test_each_lever_changes_one_thing_of_the_setup():
    base = Setup(batch=8)
    pulled = {lever: levers.pull(lever, base, device=CPU, factor=4) for lever in LEVERS}
    assert pulled["TF32"].number_type == "tf32" and pulled["16-bit autocast"].half == "bf16"
    assert pulled["fused AdamW"].fused and pulled["larger batch"].batch == 32
    assert [pulled[k].compile for k in ("torch.compile", "CUDA graphs", "max-autotune")] == [
        "default",
        "reduce-overhead",
        "max-autotune",
    ]
    assert base == Setup(batch=8)  # a setup is never changed in place


def test_on_a_gpu_before_ampere_16_bits_means_float16_with_loss_scaling(fake_cuda, monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda d=None: (7, 5))  # a T4
    half = levers.pull("16-bit autocast", Setup(batch=8), device=torch.device("cuda"), factor=4)
    assert half.half == "fp16" and half.number_type == "fp16"


def test_on_this_cpu_the_gpu_levers_say_why_they_do_not_apply(monkeypatch):
    def why(lever, **options):
        return levers.why_not(lever, CPU, **({"compile": True, "autotune": True} | options))

    assert why("TF32") == "TF32 changes nothing here"
    assert why("CUDA graphs") == why("max-autotune") == "needs an NVIDIA GPU"
    assert why("torch.compile", compile=False) == "not compiled in fast mode"
    assert why("16-bit autocast") is None and why("fused AdamW") is None
    assert why("larger batch") is None
    monkeypatch.setattr("helpers.compiled.build_problem", lambda: "a space in a path")
    assert why("torch.compile") == "torch.compile cannot build here"


def test_on_a_faked_ampere_gpu_every_lever_applies_but_an_untried_autotune(fake_cuda, monkeypatch):
    monkeypatch.setattr(levers, "tf32_changes_bits", lambda device: True)
    monkeypatch.setattr("helpers.compiled.build_problem", lambda: None)
    gpu = torch.device("cuda")
    found = {lever: levers.why_not(lever, gpu, compile=True, autotune=False) for lever in LEVERS}
    assert found == dict.fromkeys(LEVERS) | {"max-autotune": "not tried in this run"}


def test_a_pytorch_without_fused_adamw_for_a_device_says_so(monkeypatch):
    monkeypatch.setattr(
        "torch.utils._foreach_utils._get_fused_kernels_supported_devices", lambda: ["cuda"]
    )
    assert levers.why_not("fused AdamW", CPU, compile=True, autotune=True) == (
        "no fused AdamW for this device"
    )
    assert levers.fused_adamw(torch.device("cuda"))


def test_trainers_start_from_the_same_weights_and_reset_to_them():
    batches = levers.cut(torch.arange(200) % 30, 3, 4, 8, seed=0, device=CPU)
    one, two = Trainer(SHAPE, Setup(batch=4), CPU), Trainer(SHAPE, Setup(batch=4, fused=True), CPU)
    first = one.train(batches)
    assert first[-1] < first[0]
    assert two.train(batches) == pytest.approx(first, rel=1e-6)  # fused: the same update
    one.reset()
    assert one.train(batches) == first  # the same start, bit for bit
    half = Trainer(SHAPE, Setup(batch=4, half="fp16"), CPU)
    assert half.scaler.is_enabled() and not one.scaler.is_enabled()  # float16 needs loss scaling


def test_a_larger_batch_holds_the_same_windows():
    batches = levers.cut(torch.arange(500), 8, 2, 5, seed=1, device=CPU)
    larger = levers.merged(batches, 4)
    assert len(larger) == 2 and larger[0][0].shape == (8, 5)
    assert torch.equal(larger[1][1], torch.cat([y for _x, y in batches[4:]]))


def test_a_fall_compares_held_out_losses():
    fall = ladder.Fall(start=8.0, before=7.0, after=7.07, steps=0.001)
    assert fall.difference == pytest.approx(0.01) and fall.falls
    assert not ladder.Fall(start=8.0, before=7.0, after=8.5, steps=None).falls
    assert ladder.relative([1.0, 2.0], [1.0, 2.2]) == pytest.approx(0.2 / 2.2)


def climb(keep):
    text = charlm.Vocabulary("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n" * 6)
    tokens = text.encode("白日依山尽，黄河入海流。欲穷千里目，更上一层楼。\n" * 6)
    shape = charlm.Shape(vocab=len(text), context=8, width=16, heads=2, layers=1)
    steps = ladder.Ladder(
        shape, tokens, CPU, batch=4, factor=2, steps_per_call=2, check_steps=4, repeats=2, keep=keep
    )
    steps.start()
    for lever in LEVERS:
        steps.climb(lever, compile=False, autotune=False)
    return steps


@pytest.fixture(scope="module")
def kept_all():
    return climb(lambda speedup, fall: True)


@pytest.fixture(scope="module")
def kept_none():
    """A ladder that keeps nothing, and what its rule was handed."""
    seen = []
    return climb(lambda speedup, fall: seen.append((speedup, fall)) or False), seen


def test_a_ladder_that_keeps_every_lever_builds_each_on_the_last(kept_all):
    steps = kept_all
    rungs = {r.lever: r for r in steps.rungs}
    assert [r.lever for r in steps.rungs] == ["fp32", *LEVERS]
    assert rungs["fp32"].tokens_per_s > 0  # from the first comparison
    batch = rungs["larger batch"]
    assert batch.setup == Setup(batch=8, half="bf16", fused=True)
    assert batch.fall.steps is None  # fewer, larger steps: the curves differ by design
    assert rungs["fused AdamW"].fall.steps is not None
    assert len(batch.speedup.samples) == 2 and batch.before_tokens_per_s > 0
    assert batch.saved_bytes > rungs["fused AdamW"].saved_bytes  # four times the windows
    assert all(r.peak_bytes is None for r in steps.rungs)  # not measured off CUDA
    assert steps.trainer.setup == batch.setup
    for lever in ("TF32", "torch.compile", "CUDA graphs", "max-autotune"):
        assert rungs[lever].why_not is not None and rungs[lever].speedup is None


def test_a_ladder_that_keeps_nothing_stays_on_float32(kept_none):
    steps, _seen = kept_none
    applied = [r for r in steps.rungs[1:] if r.why_not is None]
    assert all(r.setup.number_type in ("fp32", "bf16") and not r.kept for r in applied)
    assert [r.setup for r in applied] == [
        Setup(batch=4, half="bf16"),
        Setup(batch=4, fused=True),
        Setup(batch=8),
    ]  # each lever tried on the first rung, the last one kept
    assert steps.trainer.setup == Setup(batch=4)


def test_the_rule_is_handed_the_round_by_round_speed_up_and_the_fall(kept_none):
    _steps, seen = kept_none
    assert all(isinstance(s, Measurement) and isinstance(f, ladder.Fall) for s, f in seen)
    assert len(seen) == 3


def test_the_rungs_become_roofline_points(kept_all):
    steps = kept_all
    points = ladder.points(steps.rungs, steps.shape, steps.tokens_per_call)
    assert [kind for _work, kind in points] == ["fp32", "bf16", "bf16", "bf16"]
    first = points[0][0]
    assert first.flops == charlm.flops_per_token(steps.shape) * steps.tokens_per_call
    assert first.bytes == 2 * (2 * steps.rungs[0].saved_bytes + 40 * charlm.parameters(steps.shape))


def test_a_receipts_ladder_becomes_roofline_points():
    payload = json.loads((FIXTURES / "one_gpu" / "h100.json").read_text(encoding="utf-8"))
    points = ladder.receipt_points(payload["day07b"])
    measured = [r for r in payload["day07b"]["rungs"] if r["tokens_per_s"]]
    assert [w.name for w, _kind in points] == [r["lever"] for r in measured]
    per_call = payload["day07b"]["tokens_per_call"]
    assert points[0][0].seconds == pytest.approx(per_call / measured[0]["tokens_per_s"])


def test_steps_per_call_must_split_into_larger_batches():
    with pytest.raises(ValueError, match="multiples of 4"):
        ladder.Ladder(SHAPE, torch.arange(100) % 30, CPU, batch=2, factor=4, steps_per_call=2,
                      check_steps=4, repeats=1, keep=lambda s, f: True)  # fmt: skip


def test_a_graphed_step_marks_each_iteration_and_hands_back_a_copy(monkeypatch):
    marks = []
    monkeypatch.setattr(torch.compiler, "cudagraph_mark_step_begin", lambda: marks.append(1))
    trainer = Trainer(SHAPE, Setup(batch=4), CPU)
    batches = levers.cut(torch.arange(200) % 30, 2, 4, 8, seed=0, device=CPU)
    returned = []
    trainer.forward = lambda x, y, run=trainer.forward: returned.append(run(x, y)) or returned[-1]
    loss = trainer.step(*batches[0])
    assert marks == [] and loss.data_ptr() != returned[-1].data_ptr()  # eager: no mark, a copy
    trainer.setup = Setup(batch=4, compile="reduce-overhead")  # as on a GPU, without compiling
    trainer.step(*batches[1])
    assert marks == [1]
