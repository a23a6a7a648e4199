"""Day 8: torch.distributed on CPU processes (gloo over loopback).

The tests that start processes take every port from the operating system and have a timeout;
they are grouped so that the whole file starts torchrun four times (two "nodes" at once, then two
training runs at once), and the ring tests fork their processes directly (no torch import each).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
import torch
import torch.distributed as dist

from helpers import distributed as D
from helpers import narration
from helpers import scaling as S
from helpers import torchrun as T

# --- which backend --------------------------------------------------------------------------


def test_plan_uses_gloo_on_the_cpu(no_gpu):
    p = D.plan()
    assert (p.backend, p.device, p.nproc) == ("gloo", "cpu", 2)


def test_plan_uses_nccl_with_one_gpu_per_process(fake_cuda):
    p = D.plan("cuda", want=4)
    assert (p.backend, p.device, p.nproc) == ("nccl", "cuda", 2)  # two GPUs: two processes


def test_plan_falls_back_to_gloo_with_one_gpu(fake_cuda, monkeypatch):
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    p = D.plan("cuda")
    assert (p.backend, p.device, p.found, p.gpus) == ("gloo", "cpu", "cuda", 1)


def test_plan_on_an_apple_gpu_uses_gloo(fake_mps):
    assert (D.plan("mps").backend, D.plan("mps").found) == ("gloo", "mps")


def test_plan_needs_a_process():
    with pytest.raises(ValueError, match="at least one process"):
        D.plan("cpu", want=0)


# --- which rows each rank sees, and the reference run ------------------------------------------


def test_sampler_pads_by_repeating_the_first_rows():
    assert D.sampler_rows(9, 2, 0) == [0, 2, 4, 6, 8]
    assert D.sampler_rows(9, 2, 1) == [1, 3, 5, 7, 0]


@pytest.mark.parametrize("world", [1, 2, 3])
def test_rank_rows_deal_out_an_epoch_without_overlap(world):
    rows, batch = 24, 4
    per_epoch = rows // world // batch
    for step in range(per_epoch):
        seen = [D.rank_rows(rows, world, r, step, batch) for r in range(world)]
        flat = [i for s in seen for i in s]
        assert len(flat) == len(set(flat)) == world * batch
    epoch0 = [D.rank_rows(rows, world, 0, s, batch) for s in range(per_epoch)]
    epoch1 = [D.rank_rows(rows, world, 0, s + per_epoch, batch) for s in range(per_epoch)]
    assert epoch0 != epoch1  # a new shuffle each epoch


def test_rank_rows_refuses_a_batch_larger_than_a_share():
    with pytest.raises(ValueError, match="larger than a rank's"):
        D.rank_rows(10, 2, 0, 0, batch=6)


def test_reference_with_one_rank_is_plain_training():
    X, y = D.make_data(64, 4, 3)
    ref = D.reference_weights((4, 8, 3), X, y, world_size=1, batch=16, steps=5, lr=0.1)
    model = D.make_model((4, 8, 3))
    optimizer = D.make_optimizer(model, 0.1)
    for step in range(5):
        rows = D.rank_rows(64, 1, 0, step, 16)
        D.sgd_step(model, optimizer, X[rows], y[rows])
    assert D.max_difference(ref, model.state_dict()) == 0


def test_max_difference_needs_the_same_parameters():
    with pytest.raises(ValueError, match="different parameters"):
        D.max_difference({"a": torch.zeros(1)}, {"b": torch.zeros(1)})


@pytest.mark.parametrize(
    "difference, word", [(0.0, "identical"), (1e-7, "same"), (1e-2, "different")]
)
def test_same_weights_follows_the_number(difference, word):
    assert f"**{word}**" in narration.same_weights(difference, tolerance=1e-5, what="two runs")


# --- ring all-reduce, bytes, and the homework's runner (forked processes) ---------------------


def ring_sum(tensor):
    return D.ring_all_reduce(tensor.clone().contiguous())


def test_ring_equals_all_reduce_and_sends_2_p_minus_1_over_p_of_the_tensor():
    elements = 12 * 1000  # divisible by 2, 3 and 4: every chunk the same size
    for p in (2, 3, 4):
        inputs = [
            torch.randn(elements, generator=torch.Generator().manual_seed(r)) for r in range(p)
        ]
        run = D.run_ranks(ring_sum, inputs, timeout=60)
        expected = torch.stack(inputs).sum(0)
        assert torch.allclose(run["results"], expected.expand(p, -1), atol=1e-5), p
        assert all(torch.equal(r, run["results"][0]) for r in run["results"]), "ranks disagree"
        assert run["bytes_sent"] == [D.ring_bytes_per_rank(elements * 4, p)] * p
        assert run["input_changed"] == [False] * p


def built_in_sum(tensor):
    dist.all_reduce(tensor)  # forbidden in run_ranks unless allowed
    return tensor


def test_ring_and_all_reduce_agree_on_uneven_and_tiny_tensors():
    def both(tensor):
        mine, theirs = D.ring_all_reduce(tensor.clone()), tensor.clone()
        dist.all_reduce(theirs)
        return torch.stack([mine, theirs])

    for elements in (1, 2, 7):  # fewer elements than ranks: some chunks are empty
        inputs = [torch.arange(elements, dtype=torch.float32) + r for r in range(3)]
        run = D.run_ranks(both, inputs, forbid_collectives=False)
        assert torch.equal(run["results"][:, 0], run["results"][:, 1])


def test_run_ranks_refuses_collectives_and_says_which():
    with pytest.raises(D.RankFailed, match="dist.all_reduce is a collective"):
        D.run_ranks(built_in_sum, [torch.ones(3)] * 2)


def unanswered(tensor):
    raise NotImplementedError("write your answer here")


def deadlock(tensor):
    dist.recv(tensor, src=1 - dist.get_rank())  # both ranks receive, nobody sends
    return tensor


def not_a_tensor(tensor):
    return tensor.tolist()


@pytest.mark.slow  # 3 s: starts ranks, one waits out its deadline
def test_run_ranks_reports_unanswered_deadlocked_and_wrong_answers():
    # whichever rank reports first is named: both raise
    with pytest.raises(NotImplementedError, match=r"rank [01] of 2: .*write your answer here"):
        D.run_ranks(unanswered, [torch.ones(2)] * 2)
    start = time.perf_counter()
    with pytest.raises(TimeoutError, match="matching receive"):
        D.run_ranks(deadlock, [torch.ones(2)] * 2, timeout=3)
    assert time.perf_counter() - start < 20  # killed, not waited for
    with pytest.raises(D.RankFailed, match="not a tensor"):
        D.run_ranks(not_a_tensor, [torch.ones(2)] * 2)


def test_count_sends_restores_torch_distributed():
    before = dist.isend, dist.all_reduce
    with D.count_sends(forbid_collectives=True):
        assert dist.isend is not before[0] and dist.all_reduce is not before[1]
    assert (dist.isend, dist.all_reduce) == before


def test_ring_bytes_formula_needs_a_rank():
    with pytest.raises(ValueError):
        D.ring_bytes_per_rank(10, 0)


# --- checkpoints ------------------------------------------------------------------------------


def test_checkpoint_round_trip_and_nothing_before_the_first(tmp_path):
    path = tmp_path / "ckpt" / "latest.pt"
    assert D.load_checkpoint(path) is None
    D.save_checkpoint(path, {"step": 3, "w": torch.arange(4.0)})
    state = D.load_checkpoint(path)
    assert state["step"] == 3 and torch.equal(state["w"], torch.arange(4.0))
    assert [p.name for p in path.parent.iterdir()] == ["latest.pt"]  # no partial file left


def test_a_write_that_dies_halfway_leaves_the_old_checkpoint(tmp_path, monkeypatch):
    path = tmp_path / "latest.pt"
    D.save_checkpoint(path, {"step": 1})

    def dies_halfway(state, file):
        file.write(b"half a checkpoint")
        raise KeyboardInterrupt  # the process is stopped mid-write

    monkeypatch.setattr(torch, "save", dies_halfway)
    with pytest.raises(KeyboardInterrupt):
        D.save_checkpoint(path, {"step": 2})
    assert D.load_checkpoint(path) == {"step": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["latest.pt"]


# --- numbers (their verdicts: tests/test_day08.py) -----------------------------------------------


def test_communication_split_never_negative():
    s = S.communication_split(compute=0.010, ddp=0.009, allreduce=0.004)  # noise: ddp < compute
    assert s["exposed"] == 0 and s["hidden"] == 0.004 and s["share"] == 0


def test_weak_scaling_counts_every_process_s_rows():
    s = S.scaling("weak", 4, one=0.1, many=0.1, rows=32)
    assert (s.rows_many, s.speedup, s.efficiency) == (128, 4.0, 1.0)


def test_scaling_refuses_unknown_kinds_and_bad_times():
    with pytest.raises(ValueError, match="strong"):
        S.scaling("sideways", 2, 0.1, 0.1, 8)
    with pytest.raises(ValueError):
        S.scaling("weak", 2, 0.0, 0.1, 8)


@pytest.mark.parametrize("recipe", list(S.RECIPES))
def test_sharding_never_costs_more_and_zero3_divides_everything(recipe):
    memory = list(S.memory_per_gpu(1e9, 8, recipe).values())
    assert memory == sorted(memory, reverse=True)
    assert memory[-1] * 8 == pytest.approx(memory[0])


def test_memory_refuses_unknown_recipes():
    with pytest.raises(ValueError, match="unknown recipe"):
        S.memory_per_gpu(1e9, 8, "magic")


def test_batch_helpers_refuse_nonsense():
    with pytest.raises(ValueError):
        S.effective_batch(0, 2)


def test_interleaved_uses_the_same_order_for_the_same_seed():
    order = []
    variants = {n: (lambda n=n: order.append(n) or 1.0) for n in "abc"}
    S.interleaved(variants, repeats=3, seed=7)
    first, order[:] = list(order), []
    S.interleaved(variants, repeats=3, seed=7)
    assert order == first and sorted(first) == sorted("abc" * 3)


# --- launching torchrun -----------------------------------------------------------------------


def test_commands_for_one_and_two_machines():
    one = T.torchrun_command(["--parts", "train"], nproc=2, max_restarts=1, python="python")
    assert "--standalone" in one and "--max-restarts=1" in one
    two = T.two_machine_commands("10.0.0.1", 29500, nproc_per_node=4)
    assert "--rdzv-endpoint=10.0.0.1:29500" in two and "--nnodes=2" in two
    assert "--device" not in two  # on CPUs: gloo, the script's default
    assert T.two_machine_commands(nproc_per_node=8, device="cuda").endswith("--device cuda")
    with pytest.raises(ValueError, match="rdzv_endpoint"):
        T.torchrun_command([], nproc=1, nnodes=2)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_printed_two_machine_command_parses_with_the_script_s_own_parser(device):
    from helpers import ddp_train

    text = T.two_machine_commands(nproc_per_node=8, device=device, out="/shared/run 1")
    args = ddp_train.arguments(T.script_arguments(text))  # exits (SystemExit) if it cannot parse
    assert args.out == Path("/shared/run 1") and args.parts == ["train"] and args.device == device
    with pytest.raises(SystemExit):  # the parser does refuse a command without --out
        ddp_train.arguments(T.script_arguments(text.replace("--out '/shared/run 1'", "")))
    with pytest.raises(ValueError, match="no '-m module'"):
        T.script_arguments("torchrun --standalone")


@pytest.mark.slow  # 3 s: waits out a timeout
def test_a_run_past_its_timeout_is_killed_with_its_children_and_its_temp_folder(tmp_path):
    marker, temp = tmp_path / "child.pid", tmp_path / "temp"
    code = (
        "import subprocess, sys, tempfile, time; "
        "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
        f"open({str(temp)!r}, 'w').write(tempfile.gettempdir()); "
        f"open({str(marker)!r}, 'w').write(str(c.pid)); time.sleep(60)"
    )
    run = T.Running([sys.executable, "-c", code], T.worker_env(), timeout=3, out=None).wait()
    assert run.timed_out and not run.ok
    with pytest.raises(T.LaunchFailed, match="ran past its timeout"):
        run.check()
    child = Path(f"/proc/{int(marker.read_text(encoding='utf-8'))}/status")
    time.sleep(0.2)  # the grandchild died with its process group (or is a zombie, not running)
    assert not child.exists() or "(zombie)" in child.read_text(encoding="utf-8")
    # torchrun's log folders went into a temporary folder of the run's own, now removed
    assert Path(temp.read_text(encoding="utf-8")).name.startswith("torchrun-")
    assert not Path(temp.read_text(encoding="utf-8")).exists()


def test_a_failed_run_shows_its_last_lines():
    run = T.Launch(["python", "x.py"], 1, "one\ntwo\nBoom", 0.1)
    with pytest.raises(T.LaunchFailed, match="(?s)exited with 1.*Boom"):
        run.check()
    assert run.lines("Boom") == ["Boom"]


# --- the real thing: torchrun, gloo, DDP ----------------------------------------------------

TRAIN = {"rows": 256, "widths": (8, 16, 3), "batch": 8, "lr": 0.05}


def _train_args(steps: int, parts: str = "train", **extra) -> list[str]:
    args = ["--parts", parts, "--steps", str(steps), "--every", "4"]
    args += ["--rows", str(TRAIN["rows"]), "--widths", ",".join(map(str, TRAIN["widths"]))]
    args += ["--batch", str(TRAIN["batch"]), "--lr", str(TRAIN["lr"])]
    return args + [f"--{k.replace('_', '-')}={v}" for k, v in extra.items()]


STEPS, FAIL_AT = 12, 10  # checkpoints every 4 steps: the killed run resumes from step 8


@pytest.fixture(scope="module")
def launched(tmp_path_factory):
    """Two runs side by side, from the same start: two torchrun "machines" (one process each)
    meeting through a c10d rendezvous on a port the OS handed out, and one ``--standalone`` run of
    two processes in which rank 1 is killed (SIGKILL) at step 10, under ``--max-restarts=2``: one
    restart for the kill, and one more because PyTorch 2.13's gloo workers of a restarted attempt
    sometimes abort as their interpreter exits, after their last step ("terminate called without
    an active exception", no Python frame; 3 runs in 12 with both cores of a 2-core machine
    busy, none in 12 without the kill). An attempt after that resumes from the last checkpoint
    and must change nothing."""
    tmp = tmp_path_factory.mktemp("launched")
    port = T.free_port()
    args = _train_args(STEPS, parts="hello,sampler,bytes,train")
    nodes = [
        T.start(args, nproc=1, out=tmp / f"node{i}", timeout=180, nnodes=2,
                rdzv_endpoint=f"127.0.0.1:{port}", rdzv_id=f"test-{port}")
        for i in range(2)
    ]  # fmt: skip
    killed = T.start(_train_args(STEPS, fail_at=FAIL_AT), nproc=2, out=tmp / "killed",
                     timeout=180, max_restarts=2)  # fmt: skip
    return {"nodes": [node.wait() for node in nodes], "killed": killed.wait(), "tmp": tmp}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_nodes_on_localhost_train_like_one_process_with_the_combined_batch(launched):
    """DDP with batch B per rank, on two "machines", ends where one process with batch 2B ends."""
    for run in launched["nodes"]:
        assert run.ok, run.output[-3000:]
    folders = [launched["tmp"] / f"node{i}" for i in range(2)]
    results = {}  # rank 0 wrote them, on whichever node it landed
    for folder in folders:
        for part in ("hello", "sampler", "bytes", "train"):
            if (folder / f"{part}.json").is_file():
                results[part] = json.loads((folder / f"{part}.json").read_text(encoding="utf-8"))
    final = next(f for f in folders if (f / "final.pt").is_file())

    hello = results["hello"]
    assert sorted(r["rank"] for r in hello["ranks"]) == [0, 1]
    assert {r["world_size"] for r in hello["ranks"]} == {2} and hello["all_reduce"] == 3
    assert {r["local_rank"] for r in hello["ranks"]} == {0}  # one process per "machine"
    assert results["sampler"]["ranks"][1]["in order"] == D.sampler_rows(5, 2, 1)
    assert (
        results["bytes"]["groups"]["2"]["bytes_per_rank"] == [results["bytes"]["tensor_bytes"]] * 2
    )
    X, y = D.make_data(TRAIN["rows"], TRAIN["widths"][0], TRAIN["widths"][-1])
    common = {"batch": TRAIN["batch"], "steps": STEPS, "lr": TRAIN["lr"]}
    reference = D.reference_weights(TRAIN["widths"], X, y, world_size=2, **common)
    ddp = D.load_checkpoint(final / "final.pt")
    assert D.max_difference(ddp, reference) < 1e-5  # float32 sums in another order
    alone = D.reference_weights(TRAIN["widths"], X, y, world_size=1, **common)
    assert D.max_difference(ddp, alone) > 1e-3  # the check can fail: batch B alone differs


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_killed_worker_restarts_and_ends_with_the_undisturbed_weights(launched):
    """torchrun restarts both workers of the killed run; they resume from rank 0's latest
    checkpoint (step 8, momentum included) and must end with exactly the weights of the
    undisturbed run (the two "machines": the same ranks and rows, started another way). A third
    attempt (see ``launched``) may only resume from a later checkpoint."""
    killed = launched["killed"]
    assert killed.ok, killed.output[-3000:]
    assert killed.lines(f"killed at step {FAIL_AT}"), killed.output[-3000:]
    attempts = [
        json.loads(line)
        for line in (launched["tmp"] / "killed/attempts.jsonl").open(encoding="utf-8")
    ]
    assert attempts[:2] == [{"restart": 0, "resumed_from": 0}, {"restart": 1, "resumed_from": 8}]
    assert all(attempt["resumed_from"] > 8 for attempt in attempts[2:]), attempts
    calm = next(f / "final.pt" for f in launched["tmp"].glob("node*") if (f / "final.pt").is_file())
    a, b = D.load_checkpoint(calm), D.load_checkpoint(launched["tmp"] / "killed" / "final.pt")
    assert D.max_difference(a, b) == 0  # bit for bit


def test_the_script_refuses_unknown_parts(capsys):
    from helpers import ddp_train

    with pytest.raises(SystemExit):
        ddp_train.arguments(["--out", "x", "--parts", "train,magic"])
    assert "unknown parts ['magic']" in capsys.readouterr().err


@pytest.mark.slow  # 4 s: starts ranks with spawn
@pytest.mark.other_machines  # as a Chinese Windows starts them, under GBK
def test_run_ranks_with_spawn_sends_a_function_defined_in_a_notebook(monkeypatch):
    """As on macOS and Windows: a fresh interpreter cannot import a function defined in
    ``__main__`` (a notebook), so run_ranks pickles it by value."""
    namespace = {"__name__": "__main__"}
    exec(  # a function as a notebook cell defines it: in __main__, not importable
        "import torch\ndef twice(tensor):\n    return tensor * 2\n", namespace
    )
    from helpers import ranks

    monkeypatch.setattr(ranks, "START_METHOD", "spawn")
    run = D.run_ranks(namespace["twice"], [torch.ones(2), torch.full((2,), 3.0)], timeout=120)
    assert torch.equal(run["results"], torch.tensor([[2.0, 2.0], [6.0, 6.0]]))
    with pytest.raises(NotImplementedError, match="rank 0 of 1"):
        exec("def unanswered(tensor):\n    raise NotImplementedError('write it')\n", namespace)
        D.run_ranks(namespace["unanswered"], [torch.ones(1)], timeout=120)


def test_the_start_method_knob_says_what_it_accepts():
    from helpers.config import start_method

    assert start_method("Spawn ") == "spawn" and start_method("") is None
    with pytest.raises(ValueError, match="COURSE_START_METHOD='threads' is not a start method"):
        start_method("threads")


def test_workers_write_utf8_whatever_the_locale(monkeypatch):
    """On a Chinese Windows a worker's output would be GBK, which cannot write "µ": rank 0 died
    printing an all-reduce time. The workers write UTF-8 and the launcher reads UTF-8."""
    monkeypatch.setenv("PYTHONIOENCODING", "gbk")
    code = "print('ring 12.5 \\u00b5s, 2.00\\u00d7 as long')"  # argv itself stays ASCII
    launched = T.Running([sys.executable, "-c", code], T.worker_env(), timeout=30, out=None).wait()
    assert launched.returncode == 0, launched.output
    assert "ring 12.5 µs, 2.00× as long" in launched.output


def test_ranks_that_could_not_connect_are_started_once_more(monkeypatch):
    """gloo's 'connectFullMesh failed' on a busy machine is nobody's answer: one more try."""
    from helpers import ranks

    calls = []
    real = ranks._collect

    def flaky(processes, connections, timeout):
        calls.append(1)
        if len(calls) == 1:
            real(processes, connections, timeout)  # let the ranks finish, then report a failure
            raise ranks.RankFailed(f"rank 1 of 2: RuntimeError: Gloo {ranks.GLOO_CONNECT} with ...")
        return real(processes, connections, timeout)

    monkeypatch.setattr(ranks, "_collect", flaky)
    found = ranks.run_ranks(lambda t: t * 2, [torch.ones(2), torch.ones(2)])
    assert len(calls) == 2 and found["results"].tolist() == [[2.0, 2.0], [2.0, 2.0]]
