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


def test_compare_shuffles_the_order_each_round_and_syncs_around_every_run(monkeypatch):
    events = []
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: events.append("sync"))
    variants = {name: (lambda name=name: events.append(name)) for name in "abcd"}
    result = helpers.timing.compare(variants, device="cuda", repeats=6, warmup=1, seed=3)
    assert events[:4] == ["a", "b", "c", "d"]  # the warm-up, untimed
    timed_part = events[4:]
    assert len(timed_part) == 6 * 4 * 3  # every run: sync, work, sync
    assert all(timed_part[i] == "sync" and timed_part[i + 2] == "sync"
               for i in range(0, len(timed_part), 3))  # fmt: skip
    ran = timed_part[1::3]
    assert [ran[i : i + 4] for i in range(0, len(ran), 4)] == result.order
    assert all(sorted(round_) == list("abcd") for round_ in result.order)
    assert len({tuple(r) for r in result.order}) > 1, "the order must change between rounds"
    assert {len(m.samples) for m in result.measurements.values()} == {6}
    again = helpers.timing.compare(variants, device="cpu", repeats=6, warmup=0, seed=3)
    assert again.order == result.order  # reproducible from the seed


def test_compare_progress_bar_counts_runs_between_timed_blocks(monkeypatch):
    events, bars = [], []

    class FakeBar:
        def __init__(self, total, desc, unit, disable):
            bars.append({"total": total, "desc": desc, "disable": disable})

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            events.append("closed")

        def update(self):
            events.append("tick")

    monkeypatch.setattr(helpers.timing, "tqdm", FakeBar)
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: events.append("sync"))
    variants = {"a": lambda: events.append("a"), "b": lambda: events.append("b")}
    helpers.timing.compare(variants, device="cuda", repeats=3, warmup=1, progress="rounds")
    assert bars == [{"total": 8, "desc": "rounds", "disable": False}]
    assert events.count("tick") == 8 and events[-1] == "closed"
    timed_part = events[4:-1]  # after the warm-up (a, tick, b, tick): sync, work, sync, tick
    assert [timed_part[i::4] for i in range(4)][3] == ["tick"] * 6
    assert all(e == "sync" for e in timed_part[0::4] + timed_part[2::4])
    helpers.timing.compare(variants, device="cpu", repeats=1, warmup=0, progress=False)
    assert bars[-1] == {"total": 2, "desc": "compare", "disable": True}


def test_compare_table_and_ratios():
    result = helpers.timing.Comparison(
        {"slow": Measurement([4.0, 6.0, 8.0]), "fast": Measurement([1.0, 2.0, 2.0])}
    )
    table = result.table()
    assert table.loc["slow", "median_s"] == 6.0 and table.loc["fast", "runs"] == 3
    assert result.ratios("slow", "fast").samples == [4.0, 3.0, 4.0]


def test_compare_measures_known_workloads():
    result = helpers.timing.compare(
        {"10 ms": lambda: time.sleep(0.01), "30 ms": lambda: time.sleep(0.03)},
        device="cpu", repeats=3, warmup=0,
    )  # fmt: skip
    # sleep never returns early; on a busy machine it may return late, hence the wide upper bound
    assert 0.01 <= result.measurements["10 ms"].median < 0.1
    assert 0.03 <= result.measurements["30 ms"].median < 0.15


def test_compare_rejects_nothing_to_compare():
    with pytest.raises(ValueError, match="at least one variant"):
        helpers.timing.compare({}, device="cpu")


def test_benchmark_times_a_short_statement_and_syncs(monkeypatch):
    seen = []
    real = helpers.timing.synchronize
    monkeypatch.setattr(
        helpers.timing, "synchronize", lambda device: (seen.append(str(device)), real(device))
    )
    result = helpers.timing.benchmark(lambda: time.sleep(0.002), device="cpu", min_run_time=0.05)
    assert seen and set(seen) == {"cpu"}
    assert 0.002 <= result.median < 0.02  # per call, not per block


def test_per_step_times_steps_back_to_back_between_two_synchronisations(monkeypatch):
    events = []
    monkeypatch.setattr(helpers.timing, "synchronize", lambda device: events.append("sync"))
    result = helpers.timing.per_step(
        lambda: events.append("step"), device="cuda", steps=4, repeats=2, warmup=1
    )
    assert events == ["step"] * 4 + (["sync"] + ["step"] * 4 + ["sync"]) * 2
    assert len(result.samples) == 2
    with pytest.raises(ValueError, match="need steps >= 1"):
        helpers.timing.per_step(lambda: None, device="cpu", steps=0)


def test_compare_gives_a_ratio_with_its_interval():
    result = helpers.timing.Comparison(
        {"slow": Measurement([1.31, 1.25, 1.40]), "fast": Measurement([0.105, 0.098, 0.110])}
    )
    gain = result.gain("slow", "fast")
    assert round(gain.ratio, 1) == 12.7 and gain.distinguishable and gain.rounds == 3
    same = helpers.timing.Comparison(
        {"a": Measurement([1.0, 1.2, 0.9]), "b": Measurement([1.1, 0.9, 1.0])}
    ).gain("a", "b")
    assert not same.distinguishable and same.low < 1 < same.high


def test_benchmark_times_at_least_min_blocks_blocks():
    # a statement longer than min_run_time fills one block, and one block has no spread: the
    # H200's reference timed its small steps so (the clock's reading waits for the GPU, so
    # torch.utils.benchmark made each block longer than the whole run time)
    slow = helpers.timing.benchmark(lambda: time.sleep(0.03), device="cpu", min_run_time=0.01)
    assert len(slow.samples) == 1 and slow.spread == 0
    again = helpers.timing.benchmark(
        lambda: time.sleep(0.03), device="cpu", min_run_time=0.01, min_blocks=3
    )
    assert len(again.samples) == 3 and all(t >= 0.03 for t in again.samples)
