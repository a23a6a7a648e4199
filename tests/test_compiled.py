"""Compiled variants priced end to end: compile time (cold and warm cache), break-even, the fastest
end to end (day 5 says which to use: tests/test_day05a.py)."""

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from helpers import compiled, paths

# Day 5 as measured on 2-core CPUs (one thread): the lesson's loop about 550 µs per epoch; the
# amortised variant about 40 µs after 21.7 s of compiling with a cold cache, about 3 s warm.
EPOCH = {"lesson loop": 550e-6, "hand-written step": 150e-6, "amortised": 40e-6}
COLD = {"amortised": 21.7}
WARM = {"amortised": 3.0}


def test_break_even_counts_the_epochs_the_compile_costs():
    assert compiled.break_even(21.7, 40e-6, 550e-6) == pytest.approx(42_549, rel=1e-3)
    assert compiled.break_even(3.0, 40e-6, 550e-6) == pytest.approx(5882, rel=1e-3)
    assert compiled.break_even(5.8, 160e-6, 150e-6) == math.inf  # slower per epoch: never


def test_end_to_end_prices_the_whole_training():
    table = compiled.end_to_end(EPOCH, COLD, WARM, 20_000, baseline="lesson loop")
    assert table.loc["lesson loop", "20,000 epochs, cold cache (s)"] == pytest.approx(11.0)
    assert table.loc["amortised", "20,000 epochs, cold cache (s)"] == pytest.approx(22.5)
    assert table.loc["amortised", "20,000 epochs, warm cache (s)"] == pytest.approx(3.8)
    assert table.loc["hand-written step", "compile, cold cache (s)"] == 0.0  # compiles nothing
    assert table.loc["lesson loop", "break-even, cold (epochs)"] == 0.0  # the baseline itself
    assert table.loc["amortised", "break-even, warm (epochs)"] == pytest.approx(5882, rel=1e-3)
    html = compiled.styled(compiled.end_to_end(EPOCH, {}, WARM, 10, "lesson loop")).to_html()
    assert "not measured" in html and "never" not in html
    slower = {**EPOCH, "amortised": 600e-6}
    never = compiled.end_to_end(slower, {}, WARM, 10, "lesson loop")
    assert "never" in compiled.styled(never).to_html()


def test_the_fastest_end_to_end_follows_the_table():
    table = compiled.end_to_end(EPOCH, COLD, WARM, 20_000, baseline="lesson loop")
    # Cold: 21.7 s of compiling is more than the 20,000 epochs save over the hand-written step.
    name, seconds = compiled.fastest_end_to_end(table, 20_000, "cold")
    assert name == "hand-written step" and seconds == pytest.approx(3.0)
    assert compiled.fastest_end_to_end(table, 1_000_000, "cold")[0] == "amortised"
    # Warm: 3 s of loading still outweigh 20,000 epochs x 110 µs saved (2.2 s).
    assert compiled.fastest_end_to_end(table, 20_000, "warm")[0] == "hand-written step"
    name, seconds = compiled.fastest_end_to_end(table, 1_000_000, "warm")
    assert name == "amortised" and seconds == pytest.approx(43.0)
    without_step = {k: v for k, v in EPOCH.items() if k != "hand-written step"}
    table = compiled.end_to_end(without_step, COLD, WARM, 20_000, baseline="lesson loop")
    name, seconds = compiled.fastest_end_to_end(table, 20_000, "warm")
    assert name == "amortised" and seconds == pytest.approx(3.8)


def test_no_fastest_without_a_cold_measurement():
    table = compiled.end_to_end(EPOCH, {}, WARM, 20_000, baseline="lesson loop")
    assert compiled.fastest_end_to_end(table, 20_000, "cold") is None
    assert compiled.fastest_end_to_end(table, 20_000, "warm") is not None


def test_cuda_graphs_are_a_variant_only_on_cuda():
    on_cuda = compiled.variants("cuda", 10)
    assert {"hand-written step, CUDA graphs", "model and step compiled, reduce-overhead"} <= set(
        on_cuda
    )
    names = list(compiled.variants("cpu", 10))
    assert names == [
        "model and step compiled",
        "hand-written step, torch.compile",
        "amortised: 10 epochs per compiled call",
    ]
    assert [k for _make, k in compiled.variants("cpu", 10).values()] == [None, 1, 10]


def test_graph_skips_are_counted(monkeypatch):
    from torch._dynamo.utils import counters

    before = compiled.graphs_skipped()
    counters["inductor"]["cudagraph_skips"] += 1  # what Inductor does when it declines graphs
    assert compiled.graphs_skipped() == before + 1


def test_cold_and_warm_caches(monkeypatch, tmp_path):
    seen = []

    def fake(names, *, device, per_call, cache):
        seen.append((cache, sorted(Path(cache).iterdir()) if Path(cache).exists() else None))
        (Path(cache) / f"entry{len(seen)}").write_text("compiled", encoding="utf-8")
        return {name: 20.0 / len(seen) for name in names}

    monkeypatch.setattr(compiled, "compile_seconds", fake)
    cold, warm = compiled.cold_and_warm(["a"], device="cpu", per_call=10, cold=True,
                                        warm_cache=str(tmp_path))  # fmt: skip
    assert (cold, warm) == ({"a": 20.0}, {"a": 10.0})
    assert seen[0][0] == seen[1][0] != str(tmp_path)  # the same temporary folder twice
    assert seen[0][1] == [] and len(seen[1][1]) == 1  # empty first, then filled
    seen.clear()
    assert compiled.cold_and_warm(["a"], device="cpu", per_call=10, cold=False,
                                  warm_cache=str(tmp_path))[0] == {}  # fmt: skip
    assert seen[0][0] == str(tmp_path)
    seen.clear()
    assert compiled.cold_and_warm(["a"], device="cpu", per_call=10, cold=False,
                                  in_process={"a": 1.5, "b": 2.0}) == ({}, {"a": 1.5})  # fmt: skip
    assert seen == []  # no fresh process


def test_a_failing_child_process_raises_with_its_error(monkeypatch):
    def failing(*args, **kwargs):
        return subprocess.CompletedProcess(args, 1, stdout="", stderr="no C compiler found")

    monkeypatch.setattr(compiled.subprocess, "run", failing)
    with pytest.raises(RuntimeError, match="no C compiler found"):
        compiled.compile_seconds(["a"], device="cpu", per_call=10, cache="/tmp/x")


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_compile_seconds_runs_a_fresh_process():
    name = "hand-written step, torch.compile"
    found = compiled.compile_seconds([name], device="cpu", per_call=10, cache=paths.COMPILE_CACHE)
    assert set(found) == {name} and found[name] > 0


def test_compile_all_leaves_out_what_fails_and_says_why(monkeypatch):
    def broken(_model):
        raise RuntimeError("no C compiler found")

    monkeypatch.setattr(compiled, "variants", lambda device, per_call: {"a": (broken, 1)})
    ready, notes = compiled.compile_all("cpu", 10, fresh=lambda: None, X=None, y=None)
    assert ready == {} and notes["a"].startswith("not available here (RuntimeError: no C")
    assert notes["hand-written step, CUDA graphs"] == "needs an NVIDIA GPU: not measured here"
    assert (
        notes["model and step compiled, reduce-overhead"] == notes["hand-written step, CUDA graphs"]
    )


def test_a_space_in_a_folder_torch_compile_builds_against_is_named(monkeypatch, tmp_path):
    clean = tmp_path / "env" / "lib" / "torch" / "__init__.py"
    monkeypatch.setattr(torch, "__file__", str(clean))
    monkeypatch.setattr(compiled.sysconfig, "get_paths", lambda: {"include": "/usr/include/py"})
    monkeypatch.setattr(compiled.sysconfig, "get_config_var", lambda name: "/usr/lib")
    assert compiled.build_problem() is None
    monkeypatch.setattr(torch, "__file__", str(tmp_path / "my env" / "torch" / "__init__.py"))
    found = compiled.build_problem()
    assert str(tmp_path / "my env" / "torch") in found and "pytorch/pytorch#191010" in found
    # the note blames the space only for a failed C++ build, not for any error
    build = RuntimeError("CppCompileError: C++ compile error ... cannot find -ltorch")
    assert compiled.unavailable(build) == f"not available here (RuntimeError: {found})"
    other = compiled.unavailable(ValueError("no C compiler found"))
    assert other == "not available here (ValueError: no C compiler found)"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_with_pytorch_under_a_path_with_a_space_a_lesson_goes_on_and_says_why(tmp_path):
    """The course's environment seen through a folder named with a space (as `.venv` in a course
    folder called "GPU 课程" would be): torch.compile's C++ build fails there (PyTorch 2.13), and
    first_call says why instead of stopping the lesson."""
    spaced = tmp_path / "GPU 课程"
    spaced.mkdir()
    (spaced / "env").symlink_to(sys.prefix, target_is_directory=True)
    python = spaced / "env" / Path(sys.executable).relative_to(sys.prefix)
    code = (
        "import torch\nfrom helpers import compiled, roofline\n"
        "fn, note = compiled.first_call(roofline.fused_chain(), torch.ones(8))\n"
        "print(fn is None, note)"
    )
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "cache")}
    done = subprocess.run([str(python), "-c", code], env=env, capture_output=True, text=True,
                          encoding="utf-8", timeout=240)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    failed, note = done.stdout.strip().split(" ", 1)
    assert failed == "True" and "GPU 课程" in note and "pytorch/pytorch#191010" in note, note


def test_declined_cuda_graphs_are_left_out(monkeypatch):
    from torch._dynamo.utils import counters

    def declined(make, k, model, X, y):
        counters["inductor"]["cudagraph_skips"] += 1  # "skipping cudagraphs due to mutated inputs"
        return "step", 1.0

    monkeypatch.setattr(compiled, "first_calls", declined)
    ready, notes = compiled.compile_all("cuda", 10, fresh=lambda: None, X=None, y=None)
    assert "hand-written step, CUDA graphs" not in ready
    assert notes["hand-written step, CUDA graphs"].startswith("Inductor declined CUDA graphs")
    assert "model and step compiled, reduce-overhead" not in ready  # graphs too, declined
    assert set(ready) == {
        "model and step compiled",
        "hand-written step, torch.compile",
        "amortised: 10 epochs per compiled call",
    }


def test_the_styled_table_shows_chinese_headers_and_names_and_keeps_its_keys(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    variants = {"lesson loop, .item() every 100 epochs": 500e-6, "hand-written step": 100e-6}
    table = compiled.end_to_end(variants, {}, {}, 20_000, "lesson loop, .item() every 100 epochs")
    html = compiled.styled(table).to_html()
    assert all(w in html for w in ("原课程循环，每 100 个轮次调用一次 .item()", "手写的训练步"))
    assert "20,000 个轮次，热缓存 (s)" in html and "盈亏平衡点，冷缓存（轮次）" in html
    assert "hand-written step" in table.index and "compile, cold cache (s)" in table.columns
