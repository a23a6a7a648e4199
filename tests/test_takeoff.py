import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from helpers import day06, receipts, takeoff


def test_flops_and_bytes():
    # forward 2 x 120 x 70, weight gradients as many, input gradient of fc2 only: 2 x 120 x 30
    assert takeoff.flops_per_step((4, 10, 3), 120) == 120 * (2 * 70 + 2 * 70 + 2 * 30) == 40_800
    assert takeoff.flops_per_step((2, 2), 1) == 16  # one layer: no input gradient at all
    wide = (4, 512, 512, 3)
    assert takeoff.flops_per_step(wide, 1000) == 1000 * (
        6 * (4 * 512 + 512 * 512 + 512 * 3) - 2 * 4 * 512
    )
    assert takeoff.flops_per_step(wide, 0) == 0
    assert isinstance(takeoff.flops_per_step(wide, 7), int)
    assert takeoff.bytes_per_step((4, 10, 3), 1) == 4 * (4 * (50 + 33) + 2 * 17)


def test_takeoff_finds_twice_the_overhead():
    rows = np.array([1e2, 1e3, 1e4, 1e5])
    seconds = 1e-3 + 1e-7 * rows  # overhead ~1 ms, then 0.1 µs per row: 2x at ~1e4 rows
    found = takeoff.takeoff(rows, seconds)
    assert 8e3 < found < 1.1e4
    assert takeoff.takeoff(rows, seconds, factor=1000) is None  # never reached
    # rising from the smallest size: the first point is work already, not an overhead
    assert takeoff.takeoff([100, 1000, 10000], [1e-3, 3e-3, 9e-3]) == 100


@pytest.mark.parametrize(
    "seconds, words",
    [
        ([1e-3, 1.1e-3, 5e-3], "flat at first, then rising: a fixed overhead of 1.00 ms"),
        ([1e-3, 1.2e-3, 1.5e-3], "flat over every size measured"),
        ([1e-3, 3e-3, 9e-3], "rising from the smallest size measured (100 rows)"),
        ([20e-3, 16e-3, 1e-3], "fell from 16.00 ms at 1,000 rows to 1.00 ms at 10,000 rows"),
    ],
)
def test_curve_shape_follows_the_points(seconds, words):
    assert words in day06.curve_shape("m", [100, 1000, 10000], seconds)
    with pytest.raises(ValueError, match="curve_shape.*increasing order"):
        day06.curve_shape("m", [1000, 100], seconds[:2])


def test_a_small_dip_is_noise_and_a_third_less_time_a_fall():
    # 1.5 ms then 1.1 ms: less than day06.FELL apart, read as a short timing's noise
    assert "flat at first" in day06.curve_shape("m", [100, 1000, 10000], [1.5e-3, 1.1e-3, 5e-3])
    assert "fell from" in day06.curve_shape("m", [100, 1000, 10000], [1.5e-3, 0.9e-3, 5e-3])


def test_takeoff_rejects_unsorted_sizes():
    with pytest.raises(ValueError, match="takeoff.*increasing order"):
        takeoff.takeoff([10, 5], [1, 2])


def test_crossover_of_a_cpu_and_a_gpu_curve():
    rows = np.logspace(2, 6, 5)
    cpu = 1e-4 + 1e-7 * rows
    gpu = 5e-4 + 1e-9 * rows  # more overhead, far more throughput
    found = takeoff.crossover(rows, cpu, gpu)
    exact = 4e-4 / (1e-7 - 1e-9)  # where the two lines meet
    assert exact / 2 < found < exact * 2  # interpolated between measured sizes on log axes
    assert takeoff.crossover(rows, gpu * 0.5, gpu) is None  # the first is always faster
    assert takeoff.crossover(rows, cpu * 10, cpu) == 1e2  # the second is faster from the start


def test_step_time_and_sweep_on_this_machine():
    table = takeoff.sweep(takeoff.MODELS, [100, 1000], device="cpu", min_run_time=0.01,
                          max_rows={"wide 4-512-512-3": 100})  # fmt: skip
    assert list(table["model"]) == ["IrisMLP 4-10-3", "IrisMLP 4-10-3", "wide 4-512-512-3"]
    assert (table["seconds"] > 0).all() and (table["q1"] <= table["q3"]).all()
    assert table.loc[0, "flops"] == takeoff.flops_per_step((4, 10, 3), 100)
    batch = takeoff.step_time((4, 10, 3), 1000, device="cpu", batch=32, min_run_time=0.01)
    assert batch["batch"] == 32 and batch["rows"] == 1000


def test_sweep_progress_bar_counts_the_capped_points(monkeypatch):
    bars = []

    def fake_tqdm(points, desc, unit, disable):
        bars.append((len(points), desc, disable))
        return points

    monkeypatch.setattr(takeoff, "tqdm", fake_tqdm)
    monkeypatch.setattr(
        takeoff, "step_time", lambda widths, n, device, min_run_time, min_blocks: {"rows": n}
    )
    takeoff.sweep(takeoff.MODELS, [100, 1000], device="cpu", progress="sweep on cpu",
                  max_rows={"wide 4-512-512-3": 100})  # fmt: skip
    takeoff.sweep(takeoff.MODELS, [100], device="cpu", progress=False)
    assert bars == [(3, "sweep on cpu", False), (2, "sweep", True)]


def test_the_reference_is_read_as_a_receipt(tmp_path):
    # the curve of a receipt: tests/test_beside.py; here, the course's file in the old format
    old = {"card": {"gpu": "a GPU"}, "points": []}
    (tmp_path / "gpu_reference.json").write_text(json.dumps(old), encoding="utf-8")
    empty = tmp_path / "receipts"
    shelf = receipts.load_all(empty, tmp_path / "gpu_reference.json")
    assert takeoff.load_reference(shelf) is None  # skipped, and named for the lesson to show
    assert "gpu_reference.json: schema: None is not course-receipt/1" in shelf.broken[0]
    assert takeoff.load_reference(receipts.load_all(empty, tmp_path / "absent.json")) is None


def test_curve_crossover_interpolates_the_gpu_curve_on_log_log_axes():
    import pandas as pd

    cpu = pd.DataFrame({"rows": [100, 1000, 10000, 100000], "seconds": [1e-4, 1e-3, 1e-2, 1e-1]})
    flat_gpu = pd.DataFrame({"rows": [100, 100000], "seconds": [1e-3, 1e-3]})
    assert takeoff.curve_crossover(cpu, flat_gpu) == pytest.approx(1000)
    slow_gpu = pd.DataFrame({"rows": [100, 100000], "seconds": [1.0, 1.0]})
    assert takeoff.curve_crossover(cpu, slow_gpu) is None
    short = pd.DataFrame({"rows": [50, 90], "seconds": [1e-6, 1e-6]})
    assert takeoff.curve_crossover(cpu, short) is None  # no rows in common


@pytest.mark.parametrize(
    ("pays_off", "ending"),
    [
        (2_000, "far below the lesson's 100,000-1,000,000."),
        (30_000, "below the lesson's 100,000-1,000,000, within a factor of ten."),
        (300_000, "within the lesson's 100,000-1,000,000."),
        (3_000_000, "above the lesson's 100,000-1,000,000."),
        (None, "these curves cannot confirm the lesson's 100,000-1,000,000."),
    ],
)
def test_the_lesson_s_range_is_judged_by_the_crossover(pays_off, ending):
    assert day06.judge_lesson_range(pays_off, largest=1e6, against="a GPU").endswith(ending)


def test_training_estimate_takes_the_slower_of_arithmetic_and_loading():
    fast_disk = takeoff.training_estimate(1e12, 1e6, epochs=1)
    slow_disk = takeoff.training_estimate(1e15, 100, epochs=1)
    assert fast_disk["bound"] == "arithmetic" and slow_disk["bound"] == "data loading"
    assert slow_disk["hours"] == slow_disk["loading hours"] == pytest.approx(1_281_167 / 100 / 3600)
    assert takeoff.training_estimate(1e12, 1e6, epochs=90)["hours"] == pytest.approx(
        90 * fast_disk["hours"]
    )
    with pytest.raises(ValueError, match="positive speeds"):
        takeoff.training_estimate(0, 1)


def test_a_gpu_faster_from_the_start_is_said_so():
    text = day06.judge_lesson_range(100, largest=1e6, against="a GPU", smallest=100)
    assert "faster already at the smallest size measured (100 rows)" in text
    assert text.endswith("far below the lesson's 100,000-1,000,000.")


# Day 6 without a GPU curve: the lesson's one GPU point, 20,000 epochs in 13.43 s, bounds the
# crossover from below. CPU times per step of IrisMLP 4-10-3 on this machine kind (one thread)
# at 100 rows to 1,000,000, and on a hypothetical many-core server CPU, ten times as fast.
LESSON_STEP = 13.43 / 20_000
ROWS = [100, 1_000, 10_000, 100_000, 1_000_000]
THIS_CPU = [0.23e-3, 0.36e-3, 1.7e-3, 17.6e-3, 252e-3]
SERVER_CPU = [0.05e-3, 0.06e-3, 0.2e-3, 0.4e-3, 3.0e-3]


def _curve(seconds, rows=ROWS):
    import pandas as pd

    return pd.DataFrame({"rows": rows, "seconds": seconds})


def test_one_gpu_point_bounds_the_crossover_from_below():
    bound = takeoff.lesson_bound(_curve(THIS_CPU), LESSON_STEP)
    assert 1_000 < bound < 10_000  # where this CPU's step reaches the lesson's 0.67 ms
    # the CPU is faster than the GPU's floor at every size below the bound
    assert takeoff.lesson_bound(_curve(THIS_CPU[:2], ROWS[:2]), LESSON_STEP) is None


@pytest.mark.parametrize(
    ("seconds", "rows", "step", "ending"),
    [
        (THIS_CPU, ROWS, LESSON_STEP, "turns the bound into a measurement."),
        (SERVER_CPU, ROWS, LESSON_STEP, "turns the bound into a measurement."),
        # fast mode stops at 10,000 rows; a quick CPU stays below 0.67 ms that far
        ([0.05e-3, 0.1e-3, 0.5e-3], ROWS[:3], LESSON_STEP, "neither confirms nor rules it out."),
        # unreachable with the lesson's point (no CPU steps 1,000,000 rows in 0.67 ms): a GPU
        # point of 0.5 s per step, to show the branches work
        (THIS_CPU, ROWS, 0.5, "the lesson's estimate is too low here."),
        ([*THIS_CPU, 2.52], [*ROWS, 10**7], 0.5, "the lesson's estimate is too low here."),
    ],
)
def test_the_lesson_s_range_is_judged_by_the_bound(seconds, rows, step, ending):
    bound = takeoff.lesson_bound(_curve(seconds, rows), step)
    text = day06.judge_lesson_bound(bound, largest=max(rows), step_seconds=step)
    assert text.endswith(ending), text
    assert "measured at one size only: 120 rows" in text


def test_the_bound_s_words_say_below_or_within_the_lesson_s_range():
    this = day06.judge_lesson_bound(
        takeoff.lesson_bound(_curve(THIS_CPU), LESSON_STEP), largest=1e6, step_seconds=LESSON_STEP
    )
    server = day06.judge_lesson_bound(
        takeoff.lesson_bound(_curve(SERVER_CPU), LESSON_STEP), largest=1e6, step_seconds=LESSON_STEP
    )
    assert "That bound is below the lesson's" in this
    assert "That bound is within the lesson's" in server


@pytest.mark.parametrize(
    ("device", "reference", "side"),
    [
        ("cuda", "Tesla T4", "this machine's GPU (cuda)"),
        ("cpu", "Tesla T4, 2026-11-28 (your receipt)", "Tesla T4, 2026-11-28 (your receipt)"),
        ("cpu", None, "the lesson's one GPU run"),
    ],
)
def test_the_gpu_side_is_this_machines_gpu_then_the_reference_then_the_lesson(
    device, reference, side, monkeypatch
):
    monkeypatch.setenv("COURSE_LANG", "en")
    assert day06.gpu_side(device, reference) == side


# --- Day 6 against the course's reference receipt (an H200 and its own host CPU) ---------------

REFERENCE = receipts.load(Path(__file__).parents[1] / "data" / "gpu_reference.json", reference=True)
REFERENCE_SHELF = receipts.Shelf([REFERENCE], [])
# this machine's CPU, IrisMLP 4-10-3 (2 cores): much slower than the H200's 16-thread host
HERE = pd.DataFrame({
    "device": "cpu", "model": "IrisMLP 4-10-3",
    "rows": [100, 316, 1000, 3162, 10000], "seconds": [2.2e-4, 3.3e-4, 9.1e-4, 2.7e-3, 8.6e-3],
})  # fmt: skip


def test_the_reference_crossover_comes_from_its_own_host_first():
    # the H200's curve crossed this 2-core CPU at about 312 rows; on its own host (16 threads)
    # the curves cross between 3,162 and 10,000 rows
    pairs = takeoff.curve_pairs(HERE, (REFERENCE, takeoff.load_reference(REFERENCE_SHELF)[1]))
    same, mixed = pairs
    assert same.same_host and not mixed.same_host
    assert set(same.cpu["device"]) == {"cpu"} and len(same.cpu) == 16  # the receipt's host
    tiny = "IrisMLP 4-10-3"
    gpu = same.gpu[same.gpu["model"] == tiny]
    found = takeoff.crossing(same.cpu[same.cpu["model"] == tiny], gpu)
    assert (found.below, found.above) == (3162, 10000) and 3162 < found.rows < 10000
    mixed_found = takeoff.crossing(mixed.cpu, gpu)  # two machines: another figure
    assert (mixed_found.below, mixed_found.above) == (316, 1000)
    assert day06.crossing_text(found, smallest=100) == "between 3,162 and 10,000 rows"
    label = day06.pair_label(same, "cpu")
    assert "beside its own host CPU (Intel(R) Xeon(R) Processor, 16 threads)" in label
    assert day06.pair_label(mixed, "cpu").endswith(
        "beside this machine's CPU: two machines, a mixed figure"
    )
    text = day06.judge_lesson_range(found, largest=1e6, against=label, smallest=100)
    assert "the GPU pays off between 3,162 and 10,000 rows" in text


def test_the_reference_gpu_curve_is_flagged_for_what_it_cannot_support():
    _receipt, table = takeoff.load_reference(REFERENCE_SHELF)
    tiny = table[table["model"] == "IrisMLP 4-10-3"]
    found = takeoff.support(tiny)
    assert len(found.single) == 8 and 1_000_000 not in found.single  # one point has a spread
    assert found.falls[0] == (
        100,
        pytest.approx(8.96e-4, rel=1e-3),
        316,
        pytest.approx(6.60e-4, rel=1e-3),
    )
    assert (found.falls[-1][0], found.falls[-1][2]) == (100_000, 316_228)
    note = day06.support_note("tiny on the H200", found, points=len(tiny))
    assert "8 of its 9 points were timed in a single block" in note
    assert "0.90 ms at 100 rows, 0.66 ms at 316" in note and "python -m helpers receipt" in note
    host = takeoff.host_curve(REFERENCE)
    assert takeoff.support(host[host["model"] == "IrisMLP 4-10-3"]).single == ()


def test_the_imagenet_estimate_gives_the_reference_only_what_it_measured():
    # no 16-bit rate and no host decoding rate in the reference: not this machine's JPEG rate,
    # not its fp32 MLP sweep
    rates = takeoff.receipt_rates(REFERENCE)
    assert rates == {"flops": None, "dtype": None, "images": None}
    estimates = takeoff.imagenet_estimates(
        {"here": (75.9e9, 829.0), "H200": (rates["flops"], rates["images"])}
    )
    assert estimates.loc["H200"].drop("bound").isna().all()
    assert estimates.loc["H200", "bound"] == "not measured"
    newer = receipts.Receipt(REFERENCE.path, REFERENCE.payload | {
        "host": {"cpu": "Intel(R) Xeon(R) Processor", "usable_cpus": 16, "virtual_machine": True,
                 "jpeg_per_core_per_s": 400.0},
        "imagenet": {"autocast_dtype": "bfloat16", "autocast_matmul_flops": 7.0e14,
                     "matmul_n": 8192}}, reference=True)  # fmt: skip
    assert takeoff.receipt_rates(newer) == {"flops": 7.0e14, "dtype": "bfloat16", "images": 6400.0}
    label = day06.estimate_label("receipt", dtype="bfloat16", gpu="NVIDIA H200")
    assert label.startswith("NVIDIA H200: bfloat16 matrix product's peak") and "its host" in label


@pytest.mark.parametrize(
    ("hours", "ending"),
    [
        (9_626, 'more than a year, 7.2 times the 8 weeks that "weeks" can stretch to.'),
        (2_000, 'not weeks but months, 1.5 times the 8 weeks that "weeks" can stretch to.'),
        (500, '"weeks" holds here.'),
        (60, "days, not weeks: the claim overstates it here."),
    ],
)  # fmt: skip
def test_the_weeks_on_a_cpu_claim_is_judged_by_the_lesson_s_own_estimate(hours, ending):
    text = day06.weeks_verdict(hours)
    assert text.endswith(ending) and f"{hours:,.0f} hours" in text
