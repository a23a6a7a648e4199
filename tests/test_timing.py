import time

import pytest

import helpers.timing
from helpers.timing import Measurement, measure, timed


def test_timed_synchronises_before_each_clock_read(monkeypatch):
    events = []
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: events.append("sync"))
    with timed("cuda:0") as watch:
        events.append("work")
    assert events == ["sync", "work", "sync"]
    assert watch.seconds >= 0


def test_measure_warms_up_then_times_each_call(monkeypatch):
    events = []
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: events.append("sync"))
    result = measure(lambda: events.append("call"), device="cuda", repeats=3, warmup=2)
    assert events == ["call", "call"] + ["sync", "call", "sync"] * 3
    assert len(result.samples) == 3


def test_measure_measures_a_known_workload():
    result = measure(lambda: time.sleep(0.02), device="cpu", repeats=5, warmup=0)
    assert 0.019 <= result.median < 0.2  # sleep never returns early; a loaded machine is slower


def test_median_and_spread():
    m = Measurement([1.0, 2.0, 3.0, 4.0, 100.0])
    assert m.median == 3.0
    assert m.spread == 2.0  # 4 - 2: the outlier does not move it
    assert m.quartiles == (2.0, 4.0)
    assert Measurement([5.0]).spread == 0.0


def test_measure_rejects_bad_counts():
    with pytest.raises(ValueError, match="need repeats >= 1 and warmup >= 0, got 0 and 1"):
        measure(lambda: None, device="cpu", repeats=0, warmup=1)
