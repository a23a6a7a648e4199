"""Day 8's narration (helpers.day08): each verdict follows the numbers it is given, from the data
the concept modules compute, and each conditional sentence reaches every outcome with numbers
like the lesson's."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import day08, day08_scaling
from helpers import links as L
from helpers import scaling as S
from helpers.distributed import Plan


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")


# --- section 1: the plan, the sampler ----------------------------------------------------------


@pytest.mark.parametrize(
    ("plan", "words"),
    [
        (Plan("nccl", "cuda", 2, "cuda", 4), "4 NVIDIA GPUs: NCCL"),
        (Plan("gloo", "cpu", 2, "cuda", 1), "NCCL needs one GPU per process"),
        (Plan("gloo", "cpu", 2, "mps"), "MPS has no distributed backend"),
        (Plan("gloo", "cpu", 2, "cpu"), "No GPU: gloo"),
    ],
)
def test_the_plan_says_why_this_backend(plan, words):
    assert words in day08.plan_reason(plan)


@pytest.mark.parametrize(("changes", "words"), [(True, "order changes"), (False, "**not**")])
def test_the_sampler_says_whether_its_order_changed_with_the_epoch(changes, words):
    # 1000 rows over 3 ranks: 334 each, 2 rows of padding dealt twice, every row at least once
    said = day08.sampler_finding(
        rows=1000, ranks=3, per_rank=334, twice=2, distinct=1000, changes=changes
    )
    assert words in said and said.startswith("1000 rows over 3 ranks: each rank gets 334; 2 row")


# --- section 3: latency and bandwidth ------------------------------------------------------------

SIZES = np.array([32, 256, 2048, 16384, 131072, 2**20, 2**23, 2**26], dtype=float)  # day 8's


def test_the_fit_says_when_no_bandwidth_can_be_read():
    fit = L.fit_alpha_beta(SIZES[:4], [2.0e-3, 1.9e-3, 2.1e-3, 1.8e-3])
    assert fit.bandwidth is None and "no bandwidth can be read" in day08.link_fit_text(fit)


def test_the_fit_says_how_well_the_curve_describes_the_points():
    noise = np.exp(np.random.default_rng(1).normal(0, 0.05, len(SIZES)))
    tight = day08.link_fit_text(L.fit_alpha_beta(SIZES, (100e-6 + SIZES / 1e9) * noise))
    assert "passes within" in tight and "orders of magnitude" not in tight
    assert "the smallest message, 32 bytes each rank sends, took" in tight
    # Times measured for the ring on a 2-core machine while it was busy (load 11): the small
    # messages' hand-offs between processes waited for a free core.
    busy = [1736e-6, 2575e-6, 2564e-6, 2581e-6, 7144e-6, 4924e-6, 29969e-6, 325072e-6]
    fit = L.fit_alpha_beta(SIZES, busy)
    rough = day08.link_fit_text(fit)
    assert fit.relative_error > day08.ROUGH
    assert "orders of magnitude" in rough and "passes within" not in rough


# --- section 4: communication against compute, buckets ------------------------------------------


@pytest.mark.parametrize(
    "ddp, words", [(0.0105, "compute-bound"), (0.015, "large part"), (0.03, "communication-bound")]
)
def test_communication_verdict_follows_the_share(ddp, words):
    assert words in day08.communication_verdict("x", S.communication_split(0.010, ddp, 0.02))


@pytest.mark.parametrize(
    ("threshold", "below", "above"),
    [("LARGE_PART", "compute-bound", "large part"),
     ("COMMUNICATION_BOUND", "large part", "communication-bound")],
)  # fmt: skip
def test_communication_verdict_changes_its_mind_at_its_thresholds(threshold, below, above):
    share = getattr(day08, threshold)
    for nearby, words in ((share - 0.01, below), (share + 0.01, above)):
        split = S.communication_split(compute=1 - nearby, ddp=1.0, allreduce=2.0)
        assert words in day08.communication_verdict("x", split)


@pytest.mark.parametrize(
    "allreduce, words", [(0.004, "hid 50%"), (0.001, "overlapping hid nothing")]
)
def test_communication_verdict_says_what_overlap_hid(allreduce, words):
    said = day08.communication_verdict("x", S.communication_split(0.010, 0.012, allreduce))
    assert words in said


def test_a_difference_names_the_slower_only_when_the_interval_excludes_zero():
    from helpers.stats import paired_difference

    slower = paired_difference([0.012, 0.013, 0.012], [0.010, 0.011, 0.010])
    noise = paired_difference([0.012, 0.010, 0.011], [0.011, 0.011, 0.011])
    assert day08.difference_verdict(slower, "x", "y").endswith("so x is slower.")
    assert day08.difference_verdict(noise, "x", "y").endswith("no difference shows.")


# --- section 5: scaling --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, many, words",
    [
        ("strong", 0.052, "near-perfect"),
        ("strong", 0.07, "useful but lossy"),
        ("strong", 0.095, "poor"),
        ("strong", 0.2, "slower than one process"),
        ("weak", 0.105, "near-perfect"),
        ("weak", 0.25, "slower than one process"),
        ("strong", 0.04, "above the ideal"),  # 1.25x efficiency: a slowed one-process run
    ],
)
def test_scaling_verdict_follows_the_numbers(kind, many, words):
    s = S.scaling(kind, 2, one=0.1, many=many, rows=256)
    assert words in day08_scaling.scaling_verdict(s)


@pytest.mark.parametrize(
    "ratio, words",
    [(None, "or processes slowing"), (1.02, "communication (compute"), (1.5, "and shared cores")],
)
def test_scaling_verdict_blames_shared_cores_only_when_measured_so(ratio, words):
    contention = None if ratio is None else S.Contention(128, beside=ratio * 0.03, alone=0.03)
    lossy = S.scaling("strong", 2, one=0.1, many=0.07, rows=256)
    slower = S.scaling("strong", 2, one=0.1, many=0.2, rows=256)
    assert words in day08_scaling.scaling_verdict(lossy, contention)
    assert words in day08_scaling.scaling_verdict(slower, contention)


@pytest.mark.parametrize(
    "beside, words",
    [
        (0.031, "about the same"),
        (0.05, "share its cores"),
        (0.024, "says nothing about contention"),
    ],
)
def test_contention_verdict_follows_the_ratio(beside, words):
    assert words in day08_scaling.contention_verdict(S.Contention(128, beside=beside, alone=0.030))


# --- section 8: sharding -------------------------------------------------------------------------


def test_memory_names_what_fits_or_that_nothing_does():
    recipe = next(iter(S.RECIPES))
    some, none = S.memory_per_gpu(7.5e9, 64, recipe), S.memory_per_gpu(1000e9, 1, recipe)
    fits = [name for name, size in some.items() if size <= day08_scaling.GPU_MEMORY]
    assert fits and all(size > day08_scaling.GPU_MEMORY for size in none.values())
    said = day08_scaling.memory_fits(none, billions=1000, gpus=1, recipe=recipe)
    assert said.endswith("none of these.")
    said = day08_scaling.memory_fits(some, billions=7.5, gpus=64, recipe=recipe)
    assert said.endswith(", ".join(fits) + ".")


def test_fsdp_reports_its_share_or_that_it_needs_nvidia_gpus():
    assert "**Not run here" in day08_scaling.fsdp_finding(None)
    said = day08_scaling.fsdp_finding(2, 131_328, 262_659)
    assert "each holds **131,328** of the wide network's 262,659 weights (50%)" in said


def test_day_8_speaks_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    said = day08.sampler_finding(
        rows=1000, ranks=3, per_rank=334, twice=2, distinct=1000, changes=False
    )
    assert said.endswith("**不**随轮次变化。")
    memory = {"DDP (nothing sharded)": 2e12}
    assert day08_scaling.memory_fits(memory, billions=1000, gpus=1, recipe="x").endswith(
        "一个也没有。"
    )
    assert "NCCL" in day08.plan_reason(Plan("gloo", "cpu", 2, "cuda", 1))
