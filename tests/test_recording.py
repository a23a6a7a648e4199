"""Day 5's findings (helpers.recording): each sentence follows the numbers it is given, and each
conditional one reaches every outcome with numbers like the lesson's."""

from __future__ import annotations

import pandas as pd
import pytest

from helpers import claims, narration, recording
from helpers.stats import check_line, fit_affine, paired_difference
from helpers.timing import Measurement

# A sweep like section 3's on this machine: (recordings, seconds per 2000-epoch run).
XS = [0, 0, 1, 1, 20, 20, 100, 100, 2000, 2000]
YS = [0.31, 0.312, 0.311, 0.309, 0.313, 0.312, 0.316, 0.318, 0.372, 0.375]
FIT, LINE = fit_affine(XS, YS), check_line(XS, YS)
ITEM = Measurement([1.2e-6, 1.3e-6, 1.25e-6, 1.28e-6, 1.22e-6])
# Section 2's single runs of 20000 epochs (seconds), around 10 x the sweep's intercept.
TOTALS = pd.Series([3.25, 3.3, 3.6, 3.9])


@pytest.fixture(autouse=True)
def english(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")


def test_the_runs_are_the_students_or_say_how_many_the_student_ran():
    assert recording.runs_note(20000, 20000) == "20000 epochs per run (the student's)."
    assert recording.runs_note(2000, 20000) == "2000 epochs per run (not the student's 20000)."


@pytest.mark.parametrize(("a_run", "word"), [(3.1, "below"), (3.7, "above")])
def test_the_intercept_is_said_below_or_above_the_runs_median(a_run, word):
    said = recording.price_finding(FIT, LINE, ITEM, a_run, 20000, 2000, TOTALS)
    off = abs(a_run / TOTALS.median() - 1)
    assert f"`a` is {off:.0%} {word} their median" in said
    assert said.startswith(f"**The price:** {narration.price(FIT, 'one recording')}")
    assert "**3.25 to 3.90 s** (162 to 195 µs per epoch)" in said


def test_the_timeline_names_the_kernels_only_where_there_are_some():
    cpu = recording.timeline_finding(5, 900.0, 160.0, 3.2, 0.45, None, "build/t.json")
    gpu = recording.timeline_finding(5, 900.0, 160.0, 3.2, 0.45, 0.08, "build/t.json")
    assert "kernels" not in cpu and "The GPU's kernels fill **8%** of it." in gpu
    assert "**900 µs** each" in cpu and "5.6× an epoch" in cpu and "`build/t.json`" in cpu


def test_the_compile_advice_warns_about_fast_mode_only_without_a_cold_compile():
    assert recording.compile_note("Fastest: x.", True) == "Fastest: x."
    assert "Fast mode measures no cold compile" in recording.compile_note("Fastest: x.", False)


@pytest.mark.parametrize(("device", "where"), [("cpu", "(one thread)"), ("cuda", "(cuda)")])
def test_the_arithmetic_names_one_thread_on_a_cpu_and_the_device_elsewhere(device, where):
    said = recording.arithmetic_finding(283, 5e10, device, 5.7e-9, 160e-6, 90e-6)
    assert where in said and "**283 FLOPs**" in said
    assert "(56% of the epoch)" in said


def _judgements():
    return [claims.judge_sync(LINE, "cpu")]


@pytest.mark.parametrize(
    ("student", "yours", "straight", "words"),
    [
        (False, True, True, ("table cannot price", "sweep can", "line stands")),
        (True, False, False, ("table can price", "sweep cannot", "line bends")),
    ],
)
def test_the_summary_says_can_or_cannot_and_stands_or_bends(student, yours, straight, words):
    found = {
        "device": "cpu", "student_priced": student, "priced": yours, "price": "+30.0 µs",
        "straight": straight, "regime": "overhead-bound", "arithmetic": 0.0001, "inside": 0.55,
        "loop": 0.21, "best": "amortised", "speedup": 6.5,
    }  # fmt: skip
    said = recording.summary(found, _judgements(), "Fastest: amortised.")
    assert all(w in said for w in words), said
    assert "**overhead-bound**" in said and "sync *not testable on a CPU*" in said


def test_the_other_findings_carry_their_numbers():
    d = paired_difference([0.40, 0.41, 0.42], [0.31, 0.31, 0.32])
    assert "**4.0%**" in recording.noise_finding(d, d, 0.04)
    assert "(round 1: a, b; round 2: b, a)" in recording.rounds_note(10, [["a", "b"], ["b", "a"]])
    assert "**150 ns**" in recording.floor_finding(150e-9, 160e-6, 37, 18)
    assert "from 150 to 300 µs, 2.00× apart" in recording.epoch_times_finding(150, 300)
    assert recording.live_run("every 100", 2000, "cpu", 0.32).endswith("(160 µs/epoch)")
    assert "x: first calls" in recording.same_losses_note({"x": "first calls 1.0 s"})


def test_day_5_speaks_chinese(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    assert recording.runs_note(2000, 20000) == "每次运行 2000 个轮次（不是那位学员的 20000 个）。"
    assert "比它们的中位数低" in recording.price_finding(FIT, LINE, ITEM, 3.1, 20000, 2000, TOTALS)


def test_day_5_shows_its_conditions_and_variants_in_chinese_keeping_the_keys(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    rounds = recording.rounds_note(500, [["every 5", "never"], ["never", "every 5"]])
    assert "第 1 轮：每 5 个轮次记录一次、从不记录；第 2 轮：" in rounds
    notes = {"amortised: 10 epochs per compiled call": "x", "hand-written step, CUDA graphs": "y"}
    said = recording.same_losses_note(notes)
    assert "摊销（每次编译调用跑 10 个轮次）：x；手写的训练步，CUDA 图：y" in said
    fastest = recording.fastest_finding("hand-written step", 4.0, 2, 300, 1e-4, 5e-7)
    assert "**手写的训练步**" in fastest
    assert recording.live_run("every 200", 2000, "cpu", 0.32).startswith("每 200 个轮次记录一次，")
