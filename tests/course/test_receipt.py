"""python -m helpers receipt: a real fast run on this CPU; every GPU path with fakes."""

import ast
import json
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
import torch

from helpers import compiled, loops
from helpers.config import KNOBS, Sizes
from helpers.course import gpu_check, receipt, receipt_days
from helpers.course.cli import main
from helpers.levers import LEVERS
from helpers.ring import ring_bytes_per_rank

TOOLING = [Path(m.__file__) for m in (receipt, receipt_days, gpu_check)]


@pytest.mark.slow  # 10 s: a whole receipt in fast mode
def test_a_fast_receipt_of_this_cpu_is_written_checked_and_complete(no_gpu, tmp_path, capsys):
    out = tmp_path / "cpu.json"
    assert main(["receipt", "--fast", "--out", str(out)]) == 0
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert receipt.validate(payload) == []
    assert payload["schema"] == "course-receipt/1" and payload["mode"] == "fast"
    assert payload["machine"]["device"] == "cpu" and payload["machine"]["count"] == 1
    assert payload["sync"]["graph_node_s"] is None and payload["allreduce"] is None
    assert payload["copies"]["h2d_pinned"] is None and payload["copies"]["on_device"] > 0
    assert payload["roofs"]["datasheet_flops"] is None and payload["roofs"]["peak_flops"] > 0
    day05 = payload["day05"]
    assert day05["lesson"] == "lesson loop, .item() every 100 epochs"
    assert {"losses kept on the device", "hand-written step"} <= set(day05["variants"])
    assert day05["variants"][day05["lesson"]]["speedup"] == pytest.approx(1.0)
    assert day05["fastest"] in day05["variants"] and 0 < day05["busy_share"] <= 1
    assert all(0 < v["speedup_q1"] <= v["speedup"] * (1 + 1e-9) for v in day05["variants"].values())
    assert {p["device"] for p in payload["day06"]["points"]} == {"cpu"}
    # every point of the take-off curve in several blocks, so that each has a spread (the H200's
    # reference timed most of its GPU points in one block: q1 = q3)
    assert all(p["blocks"] >= KNOBS["day06_min_blocks"][1] for p in payload["day06"]["points"])
    host = payload["host"]  # the machine that holds the device, named beside its figures
    assert host["cpu"] == payload["machine"]["cpu"] and host["usable_cpus"] >= 1
    assert host["virtual_machine"] in (True, False, None) and host["jpeg_per_core_per_s"] > 0
    assert payload["imagenet"]["autocast_dtype"] == "bfloat16"  # autocast's type on a CPU
    assert payload["imagenet"]["autocast_matmul_flops"] > 0
    assert all(f["steps per timed block"] > 1 for f in payload["day07"].values())
    assert any(name.startswith("lesson loop") for name in payload["day07"])
    ladder = payload["day07b"]
    assert ladder["peaks"]["fp32"] > 0 and ladder["peaks"]["bf16"] > 0  # autocast's type here
    assert ladder["peaks"]["tf32"] is None and ladder["datasheet"] is None  # not on a CPU
    rungs = {r["lever"]: r for r in ladder["rungs"]}
    assert list(rungs) == ["fp32", *LEVERS]
    assert rungs["TF32"]["why_not"] == "TF32 changes nothing here"
    assert rungs["torch.compile"]["why_not"] == "not compiled in fast mode"
    assert rungs["CUDA graphs"]["why_not"] == "needs an NVIDIA GPU"
    assert all(r["peak_bytes"] is None for r in ladder["rungs"])  # CUDA's counter only
    assert rungs["fp32"]["tokens_per_s"] > 0 and rungs["fp32"]["saved_bytes"] > 0
    assert rungs["16-bit autocast"]["number_type"] == "bf16" and rungs["16-bit autocast"]["speedup"]
    shown = capsys.readouterr().out
    assert "day 5:" in shown and "take-off at" in shown and f"wrote {out}" in shown
    assert "tf32 not measured / not measured" in shown and "peak memory not measured" in shown
    assert "TF32             not applied: TF32 changes nothing here" in shown
    assert "host: " in shown and "JPEGs per second per core" in shown


def h100_payload() -> dict:
    """A plausible receipt of one H100, as collect would return it."""
    variant = {"s_per_epoch": 1e-4, "speedup": 1.0}
    return {
        "schema": "course-receipt/1",
        "date": "2026-12-04T08:00:00+00:00",
        "mode": "full",
        "machine": {"device": "cuda", "name": "NVIDIA H100 80GB HBM3", "count": 1,
                    "memory_bytes": 85_520_809_984, "driver": "570.1", "cuda": "12.8",
                    "torch": "2.13.0", "python": "3.12.3", "cpu": "AMD EPYC", "threads": 16},
        "sync": {"launch_s": 5e-6, "item_s": 2e-5, "graph_node_s": 2e-6},
        "copies": {"bytes": 2**26, "h2d_pageable": 2e10, "h2d_pinned": 5e10,
                   "d2h_pageable": 2e10, "d2h_pinned": 5e10, "on_device": 3e12},
        "roofs": {"matmul_n": 8192, "peak_flops": 4e14, "bandwidth_bytes_per_s": 3e12,
                  "datasheet_flops": 4.947e14, "bus_bytes_per_s": 6.4e10},
        "day05": {"epochs": 2000, "kernels_per_epoch": 21.0, "lesson": "lesson loop",
                  "fastest": "lesson loop", "variants": {"lesson loop": variant}},
        "day06": {"points": [{"model": "IrisMLP 4-10-3", "rows": 100, "device": "cuda",
                              "seconds": 1e-4}]},
        "day07": {"lesson loop 4-10-3, 120 rows": {"device busy share": 0.3, "MFU": 1e-4}},
        "allreduce": None,
    }  # fmt: skip


def test_the_optional_sections_are_checked_when_present():
    payload = h100_payload()
    assert receipt.validate(payload) == []  # an older receipt, without them
    payload["host"] = {"cpu": "Intel(R) Xeon(R) Processor", "usable_cpus": 16,
                       "virtual_machine": None, "jpeg_per_core_per_s": 400.0}  # fmt: skip
    payload["imagenet"] = {"autocast_dtype": "bfloat16", "autocast_matmul_flops": 7e14,
                           "matmul_n": 8192}  # fmt: skip
    assert receipt.validate(payload) == []
    payload["host"]["usable_cpus"] = 0
    payload["imagenet"]["autocast_matmul_flops"] = 3e16
    assert receipt.validate(payload) == [
        "host.usable_cpus: 0 is not a positive whole number",
        "imagenet.autocast_matmul_flops: 3e+16 FLOP/s is not plausible",
    ]


@pytest.mark.parametrize(
    ("section", "key", "value", "problem"),
    [
        ("sync", "launch_s", 5e-4, "sync.launch_s"),  # 500 µs: no CUDA launch takes that
        ("copies", "h2d_pinned", 9e10, "faster than the bus"),  # 90 GB/s over PCIe 5.0
        ("roofs", "peak_flops", 9e14, "above the datasheet"),
    ],
)
def test_the_writer_refuses_what_no_gpu_measures(tmp_path, section, key, value, problem):
    out = tmp_path / "r.json"
    payload = h100_payload()
    assert receipt.validate(payload) == []  # helpers.receipts.validate, the lessons' reader
    payload[section][key] = value
    with pytest.raises(ValueError, match=problem):
        receipt.write(payload, out)
    assert not out.exists()
    assert receipt.write(h100_payload(), out) == out and json.loads(out.read_text("utf-8"))


def test_a_receipt_that_fails_its_check_is_not_written(no_gpu, monkeypatch, tmp_path, capsys):
    broken = h100_payload()
    broken["sync"]["launch_s"] = 5e-4
    monkeypatch.setattr(receipt, "collect", lambda device, fast: broken)
    out = tmp_path / "r.json"
    assert main(["receipt", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "sync.launch_s" in err and "python -m helpers receipt" in err and not out.exists()
    kept = tmp_path / "r.rejected.json"  # the measured run is kept for a look, under its own name
    assert str(kept) in err and json.loads(kept.read_text("utf-8")) == broken


@pytest.fixture
def cuda_versions(fake_cuda, monkeypatch):
    monkeypatch.setattr(torch.version, "cuda", "12.8")
    monkeypatch.setattr("helpers.nvml.driver_version", lambda: "570.1")
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d=None: fake_cuda.name)
    return fake_cuda


def test_the_machine_of_a_cuda_gpu(cuda_versions):
    found = receipt.machine(torch.device("cuda"))
    assert found["device"] == "cuda" and found["name"] == "NVIDIA H100 80GB HBM3"
    assert found["count"] == 2 and found["memory_bytes"] == cuda_versions.total_memory
    assert (found["driver"], found["cuda"], found["torch"]) == ("570.1", "12.8", torch.__version__)


def test_the_roofs_of_a_known_gpu_carry_its_datasheet(cuda_versions, monkeypatch):
    sizes = {}
    monkeypatch.setattr(
        "helpers.roofline.measure_peak_flops", lambda d, size, threads: sizes.setdefault("n", 4e14)
    )
    monkeypatch.setattr("helpers.roofline.measure_bandwidth", lambda d, n, threads: 3e12)
    found = receipt_days.roofs(torch.device("cuda"), Sizes(fast=False))
    assert found["matmul_n"] == KNOBS["receipt_matmul_n"][0]["gpu"]
    assert found["datasheet_flops"] == pytest.approx(494.7e12)
    assert found["bus_bytes_per_s"] == pytest.approx(64e9)


def test_the_roof_is_the_fastest_flops_seen_and_mfu_follows_it(monkeypatch):
    found = {
        "roofs": {"matmul_n": 1024, "peak_flops": 2e10},  # slowed by another program
        "day07": {"wide": {"MFU": 1.2, "device busy share": 0.7}},
    }
    monkeypatch.setattr("helpers.roofline.measure_peak_flops", lambda d, size, threads: 4e10)
    receipt.best_peak(found, torch.device("cpu"))
    assert found["roofs"]["peak_flops"] == 4e10
    assert found["day07"]["wide"]["MFU"] == pytest.approx(0.6)
    monkeypatch.setattr("helpers.roofline.measure_peak_flops", lambda d, size, threads: 1e10)
    receipt.best_peak(found, torch.device("cpu"))  # a slower second one changes nothing
    assert found["roofs"]["peak_flops"] == 4e10
    assert found["day07"]["wide"]["MFU"] == pytest.approx(0.6)
    found["day07"]["wide"]["MFU"] = 1.5  # the step beat both products: it sets the roof
    receipt.best_peak(found, torch.device("cpu"))
    assert found["roofs"]["peak_flops"] == pytest.approx(6e10)
    assert found["day07"]["wide"]["MFU"] == pytest.approx(1.0)


def test_copies_on_a_gpu_map_day_2s_variants(cuda_versions, monkeypatch):
    n = max(KNOBS["day02_copy_sizes"][1])
    table = pd.DataFrame(
        {
            "variant": ["pageable -> GPU, copy_", "pinned -> GPU, copy_"],
            "bytes": [n, n],
            "median_s": [n / 2e10, n / 5e10],
        }
    )
    monkeypatch.setattr("helpers.copies.measure_copies", lambda device, sizes, repeats: table)
    monkeypatch.setattr(receipt_days, "readback", lambda d, n, pinned: 4e10 if pinned else 1e10)
    monkeypatch.setattr("helpers.roofline.measure_bandwidth", lambda d, n: 3e12)
    found = receipt_days.copy_rates(torch.device("cuda"), Sizes(fast=True))
    assert found["bytes"] == n
    assert found["h2d_pageable"] == pytest.approx(2e10)
    assert found["h2d_pinned"] == pytest.approx(5e10)
    assert (found["d2h_pageable"], found["d2h_pinned"], found["on_device"]) == (1e10, 4e10, 3e12)


def test_a_device_to_host_copy_is_timed_for_real_on_the_cpu():
    assert receipt_days.readback(torch.device("cpu"), 2**20, pinned=False) > 1e6  # above 1 MB/s


def test_a_graph_replay_is_priced_per_node(monkeypatch):
    captured = []

    class FakeGraph:
        def replay(self):
            captured.append("replay")

    class Capture:
        def __init__(self, graph):
            captured.append("capture")

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(torch.cuda, "CUDAGraph", FakeGraph)
    monkeypatch.setattr(torch.cuda, "graph", Capture)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)
    x = torch.zeros(1)
    per_node = receipt_days.graph_replay_per_node(x, 50, torch.device("cpu"))
    assert x.item() == 51  # one warm-up, then the 50 nodes ran once while captured
    assert captured[0] == "capture" and captured.count("replay") > 1
    assert 0 < per_node < 1e-3


def test_all_reduce_comes_from_day_8s_run_with_one_process_per_gpu(monkeypatch):
    launched = {}

    def launch(args, *, nproc, out, timeout, env):
        launched.update(args=args, nproc=nproc, env=env)
        ring = {"sizes": [1024, 2**20], "seconds": {"dist.all_reduce": [2e-5, 4e-5], "ring": []}}
        return SimpleNamespace(result=lambda part: ring)

    monkeypatch.setattr("helpers.torchrun.launch", launch)
    assert receipt.allreduce(1, Sizes(fast=True)) is None  # one GPU: nothing to reduce
    found = receipt.allreduce(4, Sizes(fast=True))
    assert launched == {
        "args": ["--parts", "ring", "--device", "cuda"],
        "nproc": 4,
        "env": {"COURSE_FAST": "1"},
    }
    assert found["gpus"] == 4 and [p["bytes"] for p in found["points"]] == [1024, 2**20]
    assert found["points"][1]["bus_bytes_per_s"] == pytest.approx(
        ring_bytes_per_rank(2**20, 4) / 4e-5
    )


@pytest.mark.slow  # 3 s: compiles day 5's variants
def test_day_5_compiles_its_variants_and_runs_them_with_static_weights(monkeypatch):
    kept = []
    real = loops.handwritten_loop

    def handwritten(*args, **options):
        kept.append(options.get("static_weights", False))
        return real(*args, **options)

    def compile_all(device, per_call, fresh, X, y):
        ready = {"hand-written step, CUDA graphs": (loops.handwritten_step, 1, 0.1)}
        return ready, {"hand-written step, CUDA graphs": "first calls 0.1 s"}

    monkeypatch.setattr(compiled, "compile_all", compile_all)
    monkeypatch.setattr(loops, "handwritten_loop", handwritten)
    sizes = Sizes(fast=True, receipt_compile=True, day05_fix_epochs=20, day05_profile_epochs=5)
    found = receipt_days.day05(torch.device("cpu"), sizes)
    assert set(found["variants"]) == {
        "lesson loop, .item() every 100 epochs",
        "losses kept on the device",
        "fused optimiser",
        "hand-written step",
        "hand-written step, CUDA graphs",
    }
    assert True in kept and found["notes"] == {
        "hand-written step, CUDA graphs": "first calls 0.1 s"
    }
    assert found["every"] == 100 and found["fastest_standard"] in {
        "lesson loop, .item() every 100 epochs", "losses kept on the device", "fused optimiser"
    }  # fmt: skip
    # the recording sweep, on a CPU in the launch-bound regime only (nothing is queued)
    assert set(found["sweeps"]) == {"launch-bound"}
    sweep = found["sweeps"]["launch-bound"]
    assert sweep["recordings"] == sorted(sweep["recordings"]) and len(sweep["seconds"]) == len(
        sweep["recordings"]
    )
    runs = sum(len(r) for r in sweep["seconds"])  # every 500 and every 2000 both record once
    assert runs == sizes.day05_repeats * len(sizes.day05_sweep_every)


def numbers_outside(path: Path, allowed=(0, 1), exempt=("summary", "ladder_summary")) -> list[str]:
    """Numeric literals other than 0 and 1, outside the functions and names in ``exempt``
    (the summary's unit conversions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = set()
    for node in ast.walk(tree):
        named = isinstance(node, ast.FunctionDef) and node.name in exempt
        assigned = isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id in exempt for t in node.targets
        )
        if named or assigned:
            skipped |= {id(n) for n in ast.walk(node)}
    return [
        f"{path.name}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and type(node.value) in (int, float)
        and node.value not in allowed
        and id(node) not in skipped
    ]


def test_the_scan_finds_a_typed_size(tmp_path):
    typed = tmp_path / "typed.py"
    typed.write_text("def f(s):\n    return train(epochs=2000, every=s.day05_fix_epochs)\n",
                     encoding="utf-8")  # fmt: skip
    assert numbers_outside(typed) == ["typed.py:2: 2000"]


def test_every_size_the_tooling_uses_is_a_knob():
    assert [found for path in TOOLING for found in numbers_outside(path)] == []
    sources = [Path(m.__file__).read_text(encoding="utf-8") for m in (receipt, receipt_days)]
    used = {
        node.attr
        for source in sources
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        and node.value.id == "s"
    }  # fmt: skip
    assert used - {"fast"} <= set(KNOBS) and "day05_fix_epochs" in used


@pytest.mark.slow
def test_all_reduce_over_two_gloo_ranks_for_real():
    found = receipt.allreduce(2, Sizes(fast=True), device_type="cpu")  # ~20 s: torchrun, 2 ranks
    assert found["gpus"] == 2
    assert [p["bytes"] for p in found["points"]] == list(KNOBS["day08_sizes"][1])
    assert all(p["seconds"] > 0 and 0 < p["bus_bytes_per_s"] < 1e12 for p in found["points"])


def test_the_maintainers_gpu_script_runs_the_check_then_ships_the_receipt(tmp_path):
    """benchmarks/gpu_run.sh with a stand-in for Python that logs its arguments."""
    import subprocess

    script = Path(receipt.__file__).parents[3] / "benchmarks" / "gpu_run.sh"
    log, shim = tmp_path / "log.txt", tmp_path / "python"
    shim.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {log}\n'
        'if [ "$3" = gpu-check ]; then out="${@: -1}"; [ "$out" = --notebooks ] && out="$5"\n'
        '  mkdir -p "$out"; echo "{}" > "$out/gpu_reference.json"; fi\n',
        encoding="utf-8",
    )
    shim.chmod(0o755)
    (tmp_path / "data").mkdir()
    env = {"PATH": "/usr/bin:/bin", "PYTHON": str(shim), "OUT": "out"}
    done = subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, encoding="utf-8")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert log.read_text(encoding="utf-8").splitlines() == [
        "-",  # the CUDA check, a script on standard input
        "-m helpers gpu-check --fast --out out/fast",
        "-m helpers gpu-check --out out",
        "-m helpers receipt --device cpu --out out/cpu_receipt.json",
    ]
    assert (tmp_path / "data" / "gpu_reference.json").read_text(encoding="utf-8") == "{}\n"


FIXTURES = Path(__file__).parents[1] / "fixtures" / "receipts"


def test_the_summary_shows_a_gpus_ladder_rung_by_rung():
    payload = json.loads((FIXTURES / "one_gpu" / "h100.json").read_text(encoding="utf-8"))
    lines = receipt.ladder_summary(payload["day07b"])
    assert lines[0].startswith("day 7b peaks (TFLOP/s, measured / datasheet): fp32 51 / 67")
    assert "bf16 702 / 989" in lines[0] and "fp16 not measured / 989" in lines[0]
    by_lever = {line.split()[0]: line for line in lines[1:]}
    assert "1.18x kept" in by_lever["16-bit"] and "peak memory 58 MB" in by_lever["16-bit"]
    assert "1.01x left off" in by_lever["max-autotune"]
    assert receipt.ladder_summary(None) == []  # a receipt from before day 7b


def test_a_rung_becomes_plain_data():
    from helpers.ladder import Fall, Rung
    from helpers.levers import Setup
    from helpers.timing import Measurement

    rung = Rung(
        "16-bit autocast",
        setup=Setup(batch=16, half="bf16"),
        speedup=Measurement([1.1, 1.2, 1.3]),
        seconds=0.1,
        tokens_per_s=40960.0,
        fall=Fall(8.0, 7.1, 7.2, 0.01),
        kept=True,
        saved_bytes=123,
        first_step_s=0.5,
    )
    row = receipt_days.rung_row(rung)
    assert row["number_type"] == "bf16" and row["batch"] == 16 and row["compile"] is None
    assert row["speedup"] == pytest.approx(1.2) and row["speedup_q1"] == pytest.approx(1.15)
    assert row["loss_difference"] == pytest.approx(0.1 / 7.1) and row["loss_falls"] is True
    assert row["peak_bytes"] is None and json.dumps(row)
    missing = receipt_days.rung_row(Rung("CUDA graphs", "needs an NVIDIA GPU"))
    assert missing["why_not"] == "needs an NVIDIA GPU" and missing["tokens_per_s"] is None
    assert missing["number_type"] is None and missing["kept"] is False
