"""The roofline: the two roofs, the regime of a workload, the elementwise chain (what a point
means, day 5 says: tests/test_day05a.py)."""

import matplotlib

matplotlib.use("Agg")

import pytest
import torch

from helpers import paths, roofline
from helpers.day05b import ROOF_SHARE, regime
from helpers.profiling import profile_ops
from helpers.roofline import Roof, Workload, roof_label

ROOF = Roof(peak_flops=100e9, bandwidth=10e9)


@pytest.fixture
def compile_cache(monkeypatch):
    """torch.compile's cache in build/, shared with the notebooks' runs. (Set here, not read from
    os.environ: creating an optimiser writes torch's own default there.)"""
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(paths.COMPILE_CACHE))


def test_the_roofs_meet_at_the_ridge():
    assert ROOF.ridge == 10.0
    assert ROOF.attainable(1.0) == 10e9  # under the slanted roof
    assert ROOF.attainable(1000.0) == 100e9  # under the flat one
    work = Workload("w", flops=1e9, bytes=1e8, seconds=0.1)
    assert (ROOF.arithmetic_seconds(work), ROOF.memory_seconds(work)) == (0.01, 0.01)
    assert work.intensity == 10.0 and work.achieved == 1e10


@pytest.mark.parametrize(
    ("flops", "nbytes", "seconds", "expected"),
    [
        (4e4, 2e4, 500e-6, "overhead-bound"),  # the lesson's epoch: µs of work in 500 µs
        (2e9, 12e6, 0.025, "compute-bound"),  # 20 ms of arithmetic in 25 ms
        (8e6, 8e6, 0.0012, "bandwidth-bound"),  # 0.8 ms of traffic in 1.2 ms
        (8e6, 8e6, 0.01, "overhead-bound"),  # the same traffic, but in 10 ms
        (8e6, 8e6, 0.002, "bandwidth-bound"),  # 0.8 ms in 2 ms: 40%, a slow but memory-bound op
    ],
)
def test_regime_follows_the_numbers(flops, nbytes, seconds, expected):
    assert regime(Workload("w", flops, nbytes, seconds), ROOF) == expected


def test_the_share_decides_the_border():
    work = Workload("w", flops=2e9, bytes=1e6, seconds=0.05)  # 20 ms of arithmetic in 50 ms
    assert regime(work, ROOF) == "compute-bound"  # the roofs account for 40%: more than 25%
    assert regime(work, ROOF, share=0.5) == "overhead-bound"
    slower = Workload("w", flops=2e9, bytes=1e6, seconds=0.1)  # 20%
    assert regime(slower, ROOF) == "overhead-bound"


@pytest.mark.parametrize(
    "work",
    [Workload("w", 1.0, 1.0, 0.0), Workload("w", 1.0, 0.0, 1.0), Workload("w", -1.0, 1.0, 1.0)],
)
def test_regime_rejects_impossible_workloads(work):
    with pytest.raises(ValueError, match="needs positive seconds and bytes"):
        regime(work, ROOF)
    with pytest.raises(ValueError, match="share must be in"):
        regime(Workload("w", 1, 1, 1), ROOF, share=0)


def test_the_share_of_the_roof_and_the_overhead():
    tiny = Workload("lesson loop", 4e4, 2e4, 500e-6)  # 400 ns of arithmetic, 2 µs of traffic
    assert roofline.reach(tiny, ROOF) == pytest.approx(0.004)
    assert roofline.overhead_share(tiny, ROOF) == pytest.approx(0.996)
    assert ROOF_SHARE == 0.25  # the border regime() draws by default


def test_the_roofs_are_measured_on_this_machine():
    peak = roofline.measure_peak_flops("cpu", size=128)
    bandwidth = roofline.measure_bandwidth("cpu", elements=2**16)
    assert peak > 0 and bandwidth > 0  # how large is the machine's business, not the test's


# Roofs as day 5 measured them on a 2-core EPYC (32 MiB L3), one thread: peak 68 GFLOP/s; a copy
# of 256 KiB (in cache) 40 GB/s, of 16 MiB 20 GB/s.
CACHE = Roof(68e9, 40e9, level="cache", copied=2**18, threads=1)
MEMORY = Roof(68e9, 20e9, level="memory", copied=2**26, threads=1)


def test_a_point_under_its_roof_is_above_none():
    # The compiled chain on 4 Mi elements: 8 B and 8 FLOPs per element in 1.81 ms.
    chain = Workload("chain, compiled", 8 * 2**22, 8 * 2**22, 1.81e-3)
    assert roofline.above_roof(chain, MEMORY) is None
    assert roofline.reach(chain, MEMORY) == pytest.approx(0.927, abs=1e-3)


def test_a_point_above_the_bandwidth_roof_names_that_roof():
    # The same chain at 170 % of a 20 GB/s roof (as seen on another machine): 1.0 ms.
    fast = Workload("chain, compiled", 8 * 2**22, 8 * 2**22, 0.987e-3)
    assert roofline.above_roof(fast, MEMORY) == "bandwidth"
    assert roofline.above_roof(fast, CACHE) is None  # under the cache roof: 85 %
    assert roofline.reach(fast, CACHE) == pytest.approx(0.850, abs=1e-3)


def test_a_point_above_the_flat_roof_names_the_peak():
    # 2 GFLOP of matrix products in 25 ms is 80 GFLOP/s, above a 68 GFLOP/s peak.
    assert roofline.above_roof(Workload("wide network", 2e9, 12e6, 0.025), MEMORY) == "flat"
    assert roofline.above_roof(Workload("wide", 2e9, 12e6, 0.04), MEMORY) is None


def test_the_last_level_cache_is_read_from_linux(tmp_path):
    for index, size in enumerate(["48K", "1024K", "32768K"]):  # L1, L2, L3
        (tmp_path / f"index{index}").mkdir()
        (tmp_path / f"index{index}" / "size").write_text(size, encoding="utf-8")
    assert roofline.last_level_cache("cpu", root=tmp_path) == 32 * 2**20
    assert roofline.last_level_cache("cpu", root=tmp_path / "absent") is None
    assert roofline.last_level_cache("meta") is None


def test_a_roof_is_labelled_by_where_its_copy_fits(monkeypatch):
    monkeypatch.setattr(roofline, "last_level_cache", lambda device: 32 * 2**20)
    monkeypatch.setattr(roofline, "measure_bandwidth", lambda device, elements, threads: 1e10)
    small = roofline.measure_roof("cpu", 2**16, peak_flops=1e11)
    large = roofline.measure_roof("cpu", 2**22, peak_flops=1e11, threads=2)
    assert roof_label(small) == "cache: copying 256 KiB, 1 thread"
    assert roof_label(large) == "memory: copying 16 MiB, 2 threads"  # 32 MiB: more than half the L3
    assert (large.peak_flops, large.bandwidth) == (1e11, 1e10)


def test_the_chain_is_eight_elementwise_operators():
    x = torch.randn(1000)
    ops = profile_ops(lambda: roofline.elementwise_chain(x), device="cpu")
    assert ops["computing_calls"].sum() == roofline.CHAIN_FLOPS == 8
    assert roofline.CHAIN_BYTES_EAGER == 72 and roofline.CHAIN_BYTES_FUSED == 8


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_compiled_chain_computes_the_same(compile_cache):
    x = torch.randn(4096)
    fused = torch.compile(roofline.elementwise_chain, fullgraph=True)
    torch.testing.assert_close(fused(x), roofline.elementwise_chain(x))


def test_draw_marks_every_workload():
    works = [Workload("loop", 4e4, 2e4, 500e-6), Workload("matmul", 2e9, 12e6, 0.025)]
    ax = roofline.draw(ROOF, works, regimes=[regime(w, ROOF) for w in works])
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["roof (this device)", "loop (overhead-bound)", "matmul (compute-bound)"]
    plain = roofline.draw(ROOF, works).get_legend_handles_labels()[1]  # no regimes given
    assert plain == ["roof (this device)", "loop", "matmul"]
    assert ax.get_xscale() == "log" and "FLOPs per byte" in ax.get_xlabel()


def test_draw_shows_each_workload_s_roof_once():
    works = [Workload("loop", 4e4, 2e4, 500e-6), Workload("copy", 8e6, 8e6, 1.2e-3)]
    ax = roofline.draw([CACHE, MEMORY], works)
    labels = ax.get_legend_handles_labels()[1]
    assert labels[:2] == [f"roof ({roof_label(CACHE)})", f"roof ({roof_label(MEMORY)})"]
    assert len(roofline.draw([CACHE, CACHE], works).get_lines()) == 1
    with pytest.raises(ValueError, match="one roof per workload"):
        roofline.draw([CACHE], works)
