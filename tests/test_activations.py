"""helpers.activations: what a step keeps for backward, predicted to the byte and measured; the
largest batch for a budget; CUDA's allocator peak and memory timeline on a faked GPU."""

from types import SimpleNamespace

import pytest
import torch

from helpers import activations
from helpers.charlm import Shape

LESSON = Shape(vocab=2488, context=64, width=64, heads=8, layers=2)
SHAPES = [
    Shape(vocab=50, context=16, width=32, heads=4, layers=2),
    Shape(vocab=77, context=20, width=48, heads=6, layers=3),
    Shape(vocab=2488, context=32, width=32, heads=2, layers=2),
]


@pytest.mark.parametrize("recompute", [False, True])
@pytest.mark.parametrize("shape", SHAPES, ids=["small", "three-layers", "fast-mode"])
def test_the_shapes_predict_what_autograd_keeps_to_the_byte(shape, recompute):
    for batch in (1, 3):
        found = activations.measure(shape, batch, recompute=recompute)
        assert activations.total(found) == activations.predict(shape, batch, recompute)


def test_the_kinds_of_a_lesson_step_in_the_shapes_letters():
    kinds = activations.kinds(activations.measure(LESSON, 4), LESSON, 4).set_index(
        ["tensor", "type"]
    )
    b, t, h, v = 4, 64, 8, 2488
    assert kinds.loc[("B×T×d", "float32"), "count"] == 2 * 8 + 2  # 8 a block, the last norm's 2
    assert kinds.loc[("B×T×4d", "float32"), "count"] == 2 * 2
    assert kinds.loc[("B×h×T×T", "float32"), "bytes"] == 2 * 4 * b * h * t * t
    assert kinds.loc[("B×T×V", "float32"), "bytes"] == 4 * b * t * v
    assert kinds.loc[("B×T", "int64"), "count"] == 2  # tokens and targets
    assert kinds.loc[("loss", "float32"), "bytes"] == 4
    assert kinds["bytes"].sum() == activations.predict(LESSON, 4)


def test_sixteen_bit_autocast_keeps_fewer_bytes_but_not_half():
    full = activations.total(activations.measure(LESSON, 2))
    half = activations.measure(LESSON, 2, autocast=torch.bfloat16)
    assert {s.dtype for s in half} >= {"bfloat16", "float32", "int64"}
    assert full / 2 < activations.total(half) < full


def test_checkpointing_keeps_each_blocks_input_only():
    saved = activations.predict(LESSON, 4) - activations.predict(LESSON, 4, recompute=True)
    block_inside = 4 * (15 * 4 * 64 * 64 + 4 * 4 * 64 + 4 * 8 * 64 * 64)
    assert saved == LESSON.layers * block_inside


@pytest.mark.parametrize("recompute", [False, True])
@pytest.mark.parametrize("budget", [16 * 2**20, 64 * 2**20, 1 * 2**30])
def test_the_largest_batch_fits_and_one_more_would_not(budget, recompute):
    batch = activations.largest_batch(LESSON, budget, recompute)
    steady = activations.steady_bytes(LESSON)
    assert steady + activations.predict(LESSON, batch, recompute) <= budget
    assert steady + activations.predict(LESSON, batch + 1, recompute) > budget


def test_no_batch_fits_a_budget_smaller_than_the_weights():
    assert activations.largest_batch(LESSON, activations.steady_bytes(LESSON)) == 0
    assert activations.steady_bytes(LESSON) == 16 * sum(
        p.numel() for p in activations.CharTransformer(LESSON).parameters()
    )


def test_off_cuda_the_allocator_figures_are_not_measured(tmp_path):
    ran = []
    cpu = torch.device("cpu")
    assert activations.peak_allocated(lambda: ran.append(1), cpu) is None
    assert activations.snapshot(lambda: ran.append(1), cpu, tmp_path / "s.pickle") is None
    assert ran == [] and not (tmp_path / "s.pickle").exists()


@pytest.fixture
def fake_allocator(fake_cuda, monkeypatch, calls):
    """CUDA's allocator counters and memory recorder, faked: 1 GB held, 3 GB at the peak."""
    memory = SimpleNamespace(
        _record_memory_history=lambda **kw: calls.append(("record", kw)),
        _dump_snapshot=lambda path: calls.append(("dump", path)),
    )
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda device=None: 10**9)
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda device=None: 3 * 10**9)
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda d=None: calls.append("reset"))
    monkeypatch.setattr(torch.cuda, "memory", memory)
    return memory


def test_on_cuda_the_peak_is_above_what_was_held_before(fake_allocator, calls):
    step = []
    assert activations.peak_allocated(lambda: step.append(1), torch.device("cuda")) == 2 * 10**9
    assert step == [1] and "reset" in calls


def test_on_cuda_the_memory_timeline_is_recorded_and_written(fake_allocator, calls, tmp_path):
    path = tmp_path / "内存 timeline" / "step.pickle"
    assert activations.snapshot(lambda: calls.append("step"), torch.device("cuda"), path) == path
    assert path.parent.is_dir()
    assert calls[-4:] == [
        ("record", {"max_entries": 100_000}),
        "step",
        ("dump", str(path)),
        ("record", {"enabled": None}),  # recording stops, even after an error
    ]


def test_a_pytorch_without_the_recorder_writes_no_timeline(fake_allocator, monkeypatch, tmp_path):
    monkeypatch.delattr(fake_allocator, "_record_memory_history")
    assert activations.snapshot(lambda: None, torch.device("cuda"), tmp_path / "s") is None


def test_the_recorder_stops_when_the_step_fails(fake_allocator, calls, tmp_path):
    def broken():
        raise RuntimeError("CUDA out of memory")

    with pytest.raises(RuntimeError):
        activations.snapshot(broken, torch.device("cuda"), tmp_path / "s.pickle")
    assert calls[-1] == ("record", {"enabled": None})
