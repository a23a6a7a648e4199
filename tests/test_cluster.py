"""Day 8's findings (helpers.cluster): each sentence follows the numbers it is given, and each
conditional one reaches every outcome with numbers like the lesson's."""

from __future__ import annotations

import pytest

from helpers import cluster
from helpers.scaling import RECIPES, memory_per_gpu


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")


@pytest.mark.parametrize(("changes", "words"), [(True, "order changes"), (False, "**not**")])
def test_the_sampler_says_whether_its_order_changed_with_the_epoch(changes, words):
    # 1000 rows over 3 ranks: 334 each, 2 rows of padding dealt twice, every row at least once
    said = cluster.sampler_finding(1000, 3, 334, 2, 1000, changes)
    assert words in said and said.startswith("1000 rows over 3 ranks: each rank gets 334; 2 row")


def fits(billions, gpus, recipe="mixed precision, Adam"):
    return [n for n, size in memory_per_gpu(billions * 1e9, gpus, recipe).items() if size <= 80e9]


def test_memory_names_what_fits_or_that_nothing_does():
    recipe = next(iter(RECIPES))
    some = cluster.memory_fits(7.5, 64, recipe, fits(7.5, 64, recipe))
    none = cluster.memory_fits(1000, 1, recipe, fits(1000, 1, recipe))
    assert fits(1000, 1, recipe) == [] and none.endswith("none of these.")
    assert fits(7.5, 64, recipe) and some.endswith(", ".join(fits(7.5, 64, recipe)) + ".")


def test_fsdp_reports_its_share_or_that_it_needs_nvidia_gpus():
    assert "**Not run here" in cluster.fsdp_finding(None)
    said = cluster.fsdp_finding(2, 131_328, 262_659)
    assert "each holds **131,328** of the wide network's 262,659 weights (50%)" in said


def test_the_other_findings_carry_their_numbers():
    assert "got **3**, the same number" in cluster.collective(3.0)
    assert "sent 1.50× the tensor" in cluster.ring_bytes(1.5)
    assert cluster.buckets_finding(1.05, "A.", "B.") == (
        "- Wide network (1.1 MB of gradients): A.\n- Small network: B."
    )
    assert "step **47**" in cluster.failure_plan(30, 60, 47, 10)
    assert cluster.restarts(2, 40, "Same.").endswith("resumed from step 40. Same.")
    assert "7 steps computed twice" in cluster.failure_price(7, 21.4, 12.2)
    assert "part `train`" in cluster.command_accepted(["train"], "/shared/day08")
    assert "**2 processes** with backend **gloo**" in cluster.measured_on("CPU", "Why.", 2, "gloo")


def test_day_8_speaks_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert cluster.sampler_finding(1000, 3, 334, 2, 1000, False).endswith("**不**随轮次变化。")
    assert cluster.memory_fits(1000, 1, "x", []).endswith("一个也没有。")
