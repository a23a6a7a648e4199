"""Each part of the lesson's explanation gets a verdict the numbers decide: every outcome here."""

import random

import pytest

from helpers import claims
from helpers.stats import Interval, check_line

FLOOR = Interval(150e-6, 140e-6, 160e-6, 24)  # 150 µs per epoch, clearly there


def test_the_student_s_table_and_fit():
    table = claims.student_table()
    assert table["recordings"].tolist() == [200, 100, 20, 10]
    assert (table["every"] * table["recordings"] == claims.STUDENT_EPOCHS).all()
    fit = claims.student_fit()
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


def test_floor_carried_by_the_operators_is_partly_supported():
    found = claims.judge_floor(FLOOR, bare_loop=60e-9, operators=82)
    assert found.verdict == "partly supported"
    assert "0.04% of it" in found.evidence and "82 operators" in found.evidence
    assert "dispatch, autograd" in found.evidence


def test_floor_carried_by_the_loop_is_supported():
    found = claims.judge_floor(FLOOR, bare_loop=100e-6, operators=82)
    assert found.verdict == "supported" and "the Python loop itself carries it" in found.evidence


def test_on_a_gpu_the_operators_are_kernel_launches():
    found = claims.judge_floor(FLOOR, bare_loop=60e-9, operators=37, device_type="cuda")
    assert "each one a kernel launch" in found.evidence


def test_no_floor_is_not_supported():
    found = claims.judge_floor(Interval(1e-6, -2e-6, 4e-6, 24), bare_loop=60e-9, operators=82)
    assert found.verdict == "not supported" and "cannot tell it from zero" in found.evidence


# --- part 2: the synchronisation and its threshold -----------------------------------------------

X = [0, 1, 4, 20, 100, 400, 1000, 2000] * 3  # recordings per run, as day 5 sweeps them


def runs(per_recording, bend=0.0, noise=0.005, seed=0):
    rng = random.Random(seed)
    return [1.2 + per_recording * x + bend * x * x + rng.gauss(0, noise) for x in X]


@pytest.mark.parametrize(
    ("ys", "device", "verdict", "words"),
    [
        (runs(50e-6), "cuda", "partly supported", "no threshold"),
        (runs(0.0, bend=5e-8), "cuda", "supported", "threshold-like"),
        (runs(400e-6, bend=-1e-7), "cuda", "partly supported", "opposite of a threshold"),
        (runs(-50e-6), "cuda", "not supported", "a drift"),
        (runs(0.0), "cpu", "not seen here", "no device to wait for"),
        (runs(0.0), "cuda", "not supported", "they cost less"),
    ],
)
def test_sync_verdicts(ys, device, verdict, words):
    found = claims.judge_sync(check_line(X, ys), device_type=device)
    assert found.verdict == verdict and words in found.evidence, found.evidence


def test_a_price_on_a_cpu_is_not_called_a_wait():
    found = claims.judge_sync(check_line(X, runs(50e-6)), device_type="cpu")
    assert found.verdict == "partly supported" and "no wait for a device" in found.evidence
    assert "The waits are real" not in found.evidence


def test_an_invisible_price_says_how_small_it_would_have_had_to_be():
    line = check_line(X, runs(0.0))
    found = claims.judge_sync(line)
    assert f"{line.smallest_slope * 1e6:.3g} µs or more" in found.evidence


# --- part 3: the CPU's issue rate ----------------------------------------------------------------


def test_issue_rate_supported_when_overhead_dominates():
    found = claims.judge_issue(
        epoch=600e-6, inside_operators=90e-6, sync_share=0.001, speedup_low=9.5
    )
    assert found.verdict == "supported (second half only)"
    assert found.evidence.startswith("On a CPU nothing is queued")
    assert "85% of it outside the operators" in found.evidence
    gpu = claims.judge_issue(600e-6, 90e-6, 0.001, 9.5, device_type="cuda")
    assert gpu.verdict == "supported" and gpu.evidence.startswith("with rare recordings")


@pytest.mark.parametrize(
    ("inside", "sync_share", "speedup", "reason"),
    [
        (500e-6, 0.001, 9.5, "the work, not issuing it"),
        (90e-6, 0.7, 9.5, "the waits still take most"),
        (90e-6, 0.001, 0.9, "did not make it reliably faster"),
    ],
)
def test_issue_rate_not_supported(inside, sync_share, speedup, reason):
    found = claims.judge_issue(600e-6, inside, sync_share, speedup)
    assert found.verdict == "not supported" and reason in found.evidence
    assert found.evidence.startswith("With rare recordings")


# --- the "3 s of necessary compute" --------------------------------------------------------------


def test_three_seconds_cannot_be_arithmetic_on_any_real_device():
    found = claims.judge_compute_claim(flops=40_800, peak_flops=100e9, inside_operators=95e-6)
    assert found.verdict == "loose"
    assert "150 µs per epoch" in found.evidence and "0.272 GFLOP/s" in found.evidence
    assert "cannot be arithmetic" in found.evidence and "95 µs per epoch" in found.evidence


def test_a_huge_workload_could_be_arithmetic():
    found = claims.judge_compute_claim(flops=1e9, peak_flops=1e12, inside_operators=1e-3)
    assert found.verdict == "could be arithmetic"


def test_rows_name_the_claim_in_the_course_s_words():
    row = claims.judge_floor(FLOOR, 60e-9, 82).row()
    assert row["claim"].startswith("A floor (底噪)") and row["your data"] == "partly supported"
    assert set(claims.CLAIMS) == {"floor", "sync", "issue", "compute"}
