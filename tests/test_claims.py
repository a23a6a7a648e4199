"""Each part of the lesson's explanation gets a verdict the numbers decide: every outcome here,
each from realistic inputs (measured on this course's 2-core CPU, the student's GPU table, or a
model of how a GPU queues work, where no GPU was at hand)."""

import random

import pytest

from helpers import claims, observation
from helpers.stats import Interval, check_line

# Day 5 in fast mode on a 2-core CPU (one thread): the floor, a per epoch, with its interval;
# the bare `for` with its `%` test; time inside the computing operators per epoch (profiled), and
# their share of a profiled epoch (the timeline: 10-12 % in quiet runs); operators per epoch.
LESSON_FLOOR = Interval(772e-6, 647e-6, 896e-6, 16)
BARE_LOOP, LESSON_INSIDE, OPERATORS, COMPUTING = 40e-9, 92e-6, 83, 19
LESSON_SHARE = 0.12
# The same loop on 100,000 rows (measured: 20.8 ms per epoch, 28.8 ms inside operators under the
# profiler, which slows what it watches; the hand-written step 1.15x as fast in its lower quartile).
BIG_FLOOR = Interval(20.8e-3, 20.1e-3, 21.5e-3, 40)
BIG_INSIDE = 28.8e-3
BIG_SHARE = 28.8 / 20.8


def test_the_student_s_table_and_fit():
    table = observation.student_table()
    assert table["recordings"].tolist() == [200, 100, 20, 10]
    assert (table["every"] * table["recordings"] == observation.STUDENT_EPOCHS).all()
    fit = observation.student_fit()
    assert fit.b.value == pytest.approx(2.673e-3, rel=1e-3) and not fit.b.distinguishable


@pytest.mark.parametrize(
    ("ys", "words"),
    [
        ([10.43, 10.02, 10.12, 9.74], "4 single runs cannot price a recording"),
        ([9.0, 9.5, 10.0, 10.5], "these 4 runs do price a recording"),
        ([10.5, 10.0, 9.5, 9.0], "these 4 runs drifted"),
    ],
)
def test_what_single_runs_say(ys, words):
    from helpers.stats import fit_affine

    assert claims.single_runs_say(fit_affine([10, 20, 100, 200], ys)).startswith(words)


# --- part 1: the floor ---------------------------------------------------------------------------


def test_the_lesson_s_floor_is_overhead_supported():
    found = claims.judge_floor(LESSON_FLOOR, BARE_LOOP, LESSON_SHARE, OPERATORS, COMPUTING)
    assert found.verdict == "supported", found.evidence
    assert "88% of an epoch lies outside" in found.evidence and "83 operators" in found.evidence
    assert "40 ns of it (0.0052%)" in found.evidence and "not the loop statement" in found.evidence
    assert "a CPU launches no kernels" in found.evidence


def test_a_floor_that_is_the_work_is_partly_supported():
    found = claims.judge_floor(BIG_FLOOR, BARE_LOOP, BIG_SHARE, OPERATORS, COMPUTING)
    assert found.verdict == "partly supported", found.evidence
    assert "0% of an epoch lies outside" in found.evidence
    assert "the operators' work" in found.evidence


def test_on_a_gpu_only_the_computing_operators_are_kernel_launches():
    found = claims.judge_floor(LESSON_FLOOR, BARE_LOOP, 0.1, OPERATORS, COMPUTING, "cuda")
    assert "83 operators" in found.evidence and "19 of them compute, each a kernel launch" in (
        found.evidence
    )
    assert "83 operators each epoch dispatches (each" not in found.evidence


def test_no_floor_means_runs_too_noisy_to_judge():
    with pytest.raises(ValueError, match="too few or too noisy"):
        claims.judge_floor(Interval(1e-6, -2e-6, 4e-6, 4), BARE_LOOP, 0.1, OPERATORS, COMPUTING)


# --- part 2: the synchronisation and its threshold -----------------------------------------------

X = [0, 1, 4, 20, 100, 400, 1000, 2000] * 5  # recordings per run, as day 5 sweeps them, 5 rounds


def gpu_runs(issue=500e-6, gpu=400e-6, wait=15e-6, epochs=2000, noise=0.005, seed=0):
    """Runs of 2000 epochs on a GPU, modelled: the CPU issues an epoch in ``issue`` seconds, the GPU
    computes it in ``gpu``; each recording makes the CPU wait ``wait`` for the queue to drain and
    the number to come back (10-50 µs on current GPUs). The slower side sets the pace."""
    rng = random.Random(seed)
    return [max(epochs * gpu, epochs * issue + x * wait) + rng.gauss(0, noise) for x in X]


def cpu_runs(seed=0):
    """Day 5's sweep as measured on the 2-core CPU: 0.39 s runs, no price, 3 % noise."""
    rng = random.Random(seed)
    return [0.386 + rng.gauss(0, 0.012) for _ in X]


@pytest.mark.parametrize(
    ("xs", "ys", "device", "verdict", "words"),
    [
        # A launch-bound loop on a GPU: each wait costs the same, the line is straight.
        (X, gpu_runs(), "cuda", "partly supported", "no threshold"),
        # The GPU a little slower than the CPU issues: rare recordings hide behind its work,
        # frequent ones each add their wait: the time bends upwards past about 800 recordings.
        (X, gpu_runs(gpu=520e-6, wait=50e-6), "cuda", "supported", "a threshold effect"),
        # The student's four runs on a consumer GPU: no price can be told from zero.
        ([200, 100, 20, 10], [10.43, 10.02, 10.12, 9.74], "cuda", "not supported", "do not show"),
        # A machine that sped up while the runs with many recordings ran (-30 µs per recording:
        # noisy CPU runs gave -74 µs from noise alone).
        (X, [y - 30e-6 * x for x, y in zip(X, gpu_runs(wait=0.0), strict=True)], "mps",
         "not supported", "a drift of the machine"),
    ],
)  # fmt: skip
def test_sync_verdicts_on_a_gpu(xs, ys, device, verdict, words):
    found = claims.judge_sync(check_line(xs, ys), device_type=device)
    assert found.verdict == verdict and words in found.evidence, found.evidence


def test_an_invisible_price_on_a_gpu_says_how_small_it_would_have_had_to_be():
    line = check_line(X, gpu_runs(wait=0.0))
    found = claims.judge_sync(line, device_type="cuda")
    assert found.verdict == "not supported"
    assert f"{line.smallest_slope * 1e6:.3g} µs or more" in found.evidence


@pytest.mark.parametrize("ys", [cpu_runs(), gpu_runs(gpu=520e-6, wait=50e-6)])
def test_a_cpu_cannot_test_waiting_for_a_gpu(ys):
    # Even a bend that would count as a threshold on a GPU is no wait on a CPU.
    found = claims.judge_sync(check_line(X, ys), device_type="cpu")
    assert found.verdict == "not testable on a CPU"
    assert "nothing to wait for" in found.evidence
    assert "run this notebook on a GPU" in found.evidence


# --- part 3: the CPU's issue rate ----------------------------------------------------------------


def test_the_lesson_loop_on_a_cpu_supports_the_second_half():
    found = claims.judge_issue(677e-6, LESSON_INSIDE / 677e-6, sync_share=0.0, speedup_low=11.5)
    assert found.verdict == "supported (second half only)"
    assert found.evidence.startswith("On a CPU nothing is queued")
    assert "86% of it outside the operators" in found.evidence and "11.50×" in found.evidence


def test_on_a_gpu_both_halves_are_tested():
    # The student's GPU: 10 s per 20,000 epochs; 19 kernels of about 3 µs each.
    found = claims.judge_issue(
        500e-6, 57 / 500, sync_share=0.002, speedup_low=5.0, device_type="cuda"
    )
    assert found.verdict == "supported" and found.evidence.startswith("With rare recordings")


def test_many_rows_make_the_work_not_the_issuing_the_limit():
    found = claims.judge_issue(20.8e-3, BIG_SHARE, sync_share=0.0, speedup_low=1.15)
    assert found.verdict == "not supported"
    assert "0% of it outside" in found.evidence and "the work, not issuing it" in found.evidence


@pytest.mark.parametrize(
    ("sync_share", "speedup", "reason"),
    [(0.7, 9.5, "the waits still take most"), (0.001, 0.9, "did not make it reliably faster")],
)
def test_each_failed_condition_is_named(sync_share, speedup, reason):
    found = claims.judge_issue(600e-6, 0.15, sync_share, speedup)
    assert found.verdict == "not supported" and reason in found.evidence


# --- the "3 s of necessary compute" --------------------------------------------------------------


def test_three_seconds_could_be_time_inside_operators_on_this_cpu():
    found = claims.judge_compute_claim(flops=40_800, peak_flops=68.3e9, inside_operators=92e-6)
    assert found.verdict == "loose: could be time inside operators"
    assert "150 µs per epoch" in found.evidence and "0.272 GFLOP/s" in found.evidence
    assert "not arithmetic time" in found.evidence and "1.8 s" in found.evidence


def test_three_seconds_are_more_than_a_gpu_s_kernels():
    # A GPU running the lesson's 19 kernels per epoch at about 3 µs each: 1.1 s over 20,000.
    found = claims.judge_compute_claim(flops=40_800, peak_flops=20e12, inside_operators=57e-6)
    assert found.verdict == "loose: more than time inside operators"
    assert "must hold overhead as well" in found.evidence


def test_a_peak_below_the_claim_s_rate_is_a_wrong_input():
    with pytest.raises(ValueError, match="check the peak"):
        claims.judge_compute_claim(flops=40_800, peak_flops=0.2e9, inside_operators=92e-6)


def test_rows_name_the_claim_in_the_course_s_words():
    row = claims.judge_floor(LESSON_FLOOR, BARE_LOOP, LESSON_SHARE, OPERATORS, COMPUTING).row()
    assert row["claim"].startswith("A floor (底噪)") and row["your data"] == "supported"
    assert set(claims.CLAIMS) == {"floor", "sync", "issue", "compute"}
