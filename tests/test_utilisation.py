"""Day 7's tools: the JPEG data set, the utilisation meter, peak memory, out-of-memory recovery,
and what the lesson says of their figures (helpers.day07)."""

import sys
import time

import pytest
import torch
from torch.utils.data import DataLoader

from helpers import day07, day07_algorithms, utilisation
from helpers.data import JpegDataset
from helpers.memory import Attempt
from helpers.utilisation import UtilisationMeter, largest_batch_that_fits, peak_memory


def test_jpeg_dataset_decodes_real_jpegs_and_is_deterministic():
    data = JpegDataset(n=20, image_size=64, side=4, pictures=5)
    assert all(j[:2] == b"\xff\xd8" for j in data.jpegs)  # the JPEG signature
    x, label = data[3]
    assert x.shape == (16,) and x.dtype == torch.float32 and label.item() == 3
    assert x.min() >= 0 and x.max() <= 1
    assert torch.equal(data[3][0], x) and not torch.equal(data[4][0], x)
    assert torch.equal(data[8][0], x)  # 20 items cycle through 5 pictures
    assert torch.equal(JpegDataset(n=20, image_size=64, side=4, pictures=5)[3][0], x)
    with pytest.raises(IndexError, match="index 20 out of range for 20 items"):
        data[20]
    with pytest.raises(ValueError, match="image_size >= side"):
        JpegDataset(image_size=4, side=8)


def test_bigger_pictures_mean_more_bytes_to_decode_and_a_measured_rate():
    small, large = JpegDataset(n=4, image_size=32), JpegDataset(n=4, image_size=256)
    assert sum(map(len, large.jpegs)) > 10 * sum(map(len, small.jpegs))
    assert small.items_per_second(8) > 0


def test_jpeg_dataset_works_with_worker_processes():
    loader = DataLoader(JpegDataset(n=16, image_size=32, side=2), batch_size=8, num_workers=2)
    batches = list(loader)
    assert [b[0].shape for b in batches] == [(8, 4), (8, 4)]
    assert batches[1][1].tolist() == [8, 9, 0, 1, 2, 3, 4, 5]


def test_meter_splits_waiting_from_computing(monkeypatch):
    seen = []
    monkeypatch.setattr(utilisation, "timed", _fake_timed(seen))

    def slow_loader():
        for i in range(3):
            time.sleep(0.02)  # 20 ms to "load" each batch
            yield i

    meter = UtilisationMeter("cuda")
    for _ in meter.wrap(slow_loader()):
        with meter.computing():
            time.sleep(0.01)  # 10 ms to "compute"
    summary = meter.summary()
    assert summary["steps"] == 3 and seen == ["cuda"] * 3  # every step timed on the device
    assert 0.05 <= summary["waiting (s)"] < 0.3
    assert 0.2 < meter.busy < 0.45  # about a third of the time computing
    assert UtilisationMeter("cpu").busy == 0.0


def _fake_timed(seen):
    from contextlib import contextmanager

    from helpers.timing import Stopwatch

    @contextmanager
    def fake(device):
        seen.append(str(device))
        watch = Stopwatch()
        start = time.perf_counter()
        yield watch
        watch.seconds = time.perf_counter() - start

    return fake


def test_peak_memory_sees_a_temporary_allocation_on_the_cpu():
    def make_and_drop():
        block = torch.ones(50_000_000)  # 200 MB, touched
        time.sleep(0.05)
        del block

    assert peak_memory(make_and_drop, "cpu") > 150e6
    assert peak_memory(lambda: None, "cpu") < 50e6


@pytest.mark.skipif(sys.platform != "linux", reason="hands memory back with glibc's malloc_trim")
def test_peak_memory_of_a_repeated_step_on_the_cpu():
    def step():  # 3 x 20 MB alive at once: what a small training step's activations look like
        blocks = [torch.ones(5_000_000) for _ in range(3)]
        time.sleep(0.05)
        del blocks

    step()  # the allocator now holds freed memory that the next step could reuse unseen
    peaks = [peak_memory(step, "cpu") for _ in range(3)]
    assert all(50e6 < peak < 100e6 for peak in peaks), peaks


def test_peak_memory_on_cuda_uses_pytorch_s_counters(monkeypatch):
    calls = []
    counters = iter([1_000, 5_000])
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: calls.append("sync"))
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda device=None: next(counters))
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda d=None: calls.append("reset"))
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda device=None: 9_000)
    assert peak_memory(lambda: calls.append("work"), "cuda") == 8_000
    assert calls == ["sync", "reset", "work", "sync"]


def test_out_of_memory_recognised_on_gpu_and_cpu():
    assert utilisation.is_out_of_memory(torch.OutOfMemoryError("CUDA out of memory"))
    # 4 PiB of float32: far more than any machine has, so the CPU allocator refuses at once
    with pytest.raises(RuntimeError) as info:
        torch.empty(2**50)
    assert utilisation.is_out_of_memory(info.value)
    assert not utilisation.is_out_of_memory(RuntimeError("shape mismatch"))


def test_largest_batch_that_fits_halves_until_it_fits(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)

    def step(batch):  # a pretend device with room for 1000 rows
        if batch > 1000:
            raise torch.OutOfMemoryError(f"tried {batch} rows")

    batch, log = largest_batch_that_fits(step, 4096)
    assert batch == 512
    assert log == [Attempt(4096, "OutOfMemoryError"), Attempt(2048, "OutOfMemoryError"),
                   Attempt(1024, "OutOfMemoryError"), Attempt(512)]  # fmt: skip
    assert [day07.attempt_line(tried) for tried in log] == [
        "batch 4096: out of memory (OutOfMemoryError)",
        "batch 2048: out of memory (OutOfMemoryError)",
        "batch 1024: out of memory (OutOfMemoryError)",
        "batch 512: fits",
    ]


def test_largest_batch_that_fits_gives_up_and_keeps_other_errors():
    def never(batch):
        raise torch.OutOfMemoryError("no room at all")

    with pytest.raises(torch.OutOfMemoryError):
        largest_batch_that_fits(never, 8, smallest=2)

    def broken(batch):
        raise ValueError("a bug, not memory")

    with pytest.raises(ValueError, match="a bug"):
        largest_batch_that_fits(broken, 8)
    with pytest.raises(ValueError, match="need batch >= smallest >= 1"):
        largest_batch_that_fits(broken, 1, smallest=2)


def test_autocast_dtype_follows_the_compute_capability(monkeypatch, fake_cuda):
    for (major, minor), expected in {
        (9, 0): (torch.bfloat16, False),
        (8, 0): (torch.bfloat16, False),
        (7, 5): (torch.float16, True),
        (7, 0): (torch.float16, True),
        (6, 1): (torch.float16, True),
    }.items():
        monkeypatch.setattr(torch.cuda, "get_device_capability", lambda d=None, c=(major, minor): c)
        found = utilisation.autocast_dtype("cuda")
        assert (found.dtype, found.needs_scaler) == expected and found.capability == (major, minor)
        assert f"{major}.{minor}" in day07.autocast_reason(found)
    assert f"{major}.{minor}: no tensor cores" in day07.autocast_reason(found)  # 6.1, Pascal
    for device, expected, why in [
        ("cpu", (torch.bfloat16, False), "CPU: bfloat16"),
        ("mps", (torch.float16, True), "Apple GPU: float16"),
    ]:
        found = utilisation.autocast_dtype(device)
        assert (found.dtype, found.needs_scaler) == expected and found.capability is None
        assert day07.autocast_reason(found).startswith(why)
    said = day07.autocast_choice("mps", found)
    assert said == (
        "On **mps**: autocast in **float16**, GradScaler on (Apple GPU: float16, with a "
        "GradScaler for its narrow range)."
    )


# Seconds per sample of day 7's habits on a 2-core CPU, 7 interleaved rounds: 200 training
# steps without a sync (the fix), and the same with .item() every step, whose rounds' ratios
# scattered between 0.91 and 1.17 around 1.01 (a CPU has no queue to empty).
STEPS = [0.0402, 0.0397, 0.0421, 0.0410, 0.0399, 0.0440, 0.0406]
ITEM = [a * r for a, r in zip(STEPS, [1.01, 0.93, 1.15, 0.98, 1.05, 0.91, 1.10], strict=True)]
# 20 sums of 512 rows: vectorised (the fix), and in a Python loop (about 60x slower).
VECTOR = [0.21e-3, 0.20e-3, 0.22e-3, 0.21e-3, 0.20e-3, 0.23e-3, 0.21e-3]
LOOP = [12.4e-3, 12.0e-3, 13.1e-3, 12.6e-3, 12.2e-3, 13.5e-3, 12.5e-3]
# An ordering effect: the habit ran 3-5 % faster than its fix in every round.
FASTER = [a * r for a, r in zip(STEPS, [0.96, 0.97, 0.95, 0.96, 0.97, 0.96, 0.95], strict=True)]


@pytest.mark.parametrize(
    ("habit", "fix", "ending"),
    [
        (LOOP, VECTOR, "the interval excludes zero, so a real cost."),
        (ITEM, STEPS, "no cost shows above these rounds' noise."),
        (FASTER, STEPS, "look for an ordering or cache effect in the rounds."),
    ],
)
def test_cost_verdict_follows_the_paired_difference(habit, fix, ending):
    cost = utilisation.habit_cost(habit, fix)
    assert cost.rounds == 7 and cost.difference.n == 7
    text = day07_algorithms.cost_verdict("x", cost)
    assert text.endswith(ending), text
    assert "median of 7 rounds' ratios" in text


def test_a_cost_verdict_needs_the_same_rounds_for_both():
    with pytest.raises(ValueError):
        utilisation.habit_cost(LOOP, VECTOR[:5])


def test_tuning_verdict_follows_epochs_and_speed():
    from helpers.stats import paired_difference

    # 15 runs of 300 epochs (~47 ms each) that agree within a few per cent
    low = [0.0469, 0.0471, 0.0468, 0.0470, 0.0472, 0.0469, 0.0470] * 2 + [0.0471]
    high = [0.0470, 0.0469, 0.0471, 0.0468, 0.0470, 0.0472, 0.0469] * 2 + [0.0470]
    same = paired_difference(high, low)
    slower = paired_difference([2.0, 2.1, 2.05], [1.0, 1.1, 1.0])
    text = day07_algorithms.tuning_verdict(
        {"a": 100, "b": 300}, same, baseline_s=0.047, timed_epochs=300
    )
    assert "3.0x fewer epochs" in text and "the same within ±10%" in text, text
    assert "kept the device as busy" in text and " ms (95% interval" in text
    assert "over 15 runs, next to 47.0 ms" in text
    found = day07_algorithms.tuning_verdict(
        {"a": 300, "b": 100}, slower, baseline_s=1.0, timed_epochs=300
    )
    assert "more epochs" in found and "differed too, measurably" in found
    assert "+1016.67 ms" in found  # milliseconds, as the table beside it
    said = {"per_run": same, "baseline_s": 0.047, "timed_epochs": 300}
    assert "only b reached" in day07_algorithms.tuning_verdict({"a": None, "b": 100}, **said)
    assert "neither reached" in day07_algorithms.tuning_verdict({"a": None, "b": None}, **said)
    assert "the same 50 epochs" in day07_algorithms.tuning_verdict({"a": 50, "b": 50}, **said)


def test_three_runs_with_a_23_percent_gap_cannot_call_the_step_times_equal():
    # day 7, full mode: learning rate 0.1 against 0.01, 3 runs of 300 epochs each; one slow run
    # opened a 23 % gap. The interval includes zero, but that is no proof of "no change".
    from helpers.stats import paired_difference

    high, low = [0.0453, 0.0580, 0.0440], [0.0469, 0.0470, 0.0480]
    text = day07_algorithms.tuning_verdict(
        {"learning rate 0.1": 35, "learning rate 0.01": 333},
        paired_difference(high, low),
        baseline_s=0.0470,
        timed_epochs=300,
    )
    assert "these 3 runs cannot tell whether the time per 300 epochs changed" in text, text
    assert "kept the device as busy" not in text


def test_the_tuning_table_shows_epochs_as_whole_numbers_and_times_in_ms():
    table = day07_algorithms.tuning_table(
        {"learning rate 0.01": 0.0469, "learning rate 0.1": 0.0453, "weight decay": 0.0477},
        {"learning rate 0.01": 333, "learning rate 0.1": 35, "weight decay": None},
        timed_epochs=300,
        target=0.5,
    ).to_html()
    assert ">333</td>" in table and ">35</td>" in table and "333.0" not in table
    assert ">not reached</td>" in table and ">46.9</td>" in table
    assert "ms per 300 epochs" in table and "epochs to loss &lt; 0.5" in table  # escaped HTML


@pytest.mark.parametrize(
    ("busy", "mfu", "ending"),
    [
        (0.03, 0.0037, "mostly overhead between the operations (Python, dispatch, launches)."),
        (0.95, 0.003, "(each small operation pays its overhead)."),
        (0.95, 0.6, "busy, and much of that time is real arithmetic."),
        # day 7 measured the wide network at 92 % of a peak taken on a busy machine: a peak
        # measured low lets the step's FLOP rate pass it
        (0.64, 1.08, "the peak's measurement was slowed (a busy machine). Re-run both."),
    ],
)
def test_busy_verdict_reads_both_figures(busy, mfu, ending):
    text = day07.busy_verdict("x", busy=busy, mfu=mfu, kind="kernel")
    assert text.endswith(ending) and "kernels were running" in text
    assert "operators were computing" in day07.busy_verdict(
        "x", busy=busy, mfu=mfu, kind="operator"
    )


def test_step_utilisation_reports_three_figures_on_the_cpu():
    figures = utilisation.step_utilisation((4, 8, 3), 64, device="cpu", peak=1e12, steps=3)
    assert set(figures) == {"device busy share", "MFU", "ms per step", "steps per timed block"}
    assert 0 < figures["device busy share"] <= 1
    assert 0 < figures["MFU"] < 1 and figures["ms per step"] > 0


@pytest.mark.parametrize(
    ("whole", "micro", "device", "words"),
    [
        (34e6, 19e6, "cpu", "4 micro-batches needed 1.8× less peak memory"),  # day 7, fast mode
        (118e6, 179e6, "cpu", "resident memory, not its live tensors"),  # day 7, full mode (RSS)
        (410e6, 120e6, "cuda", "3.4× less peak memory"),
        (30e6, 31e6, "cuda", "not the activations, set the peak"),  # a small batch on a GPU
    ],
)
def test_accumulation_verdict_says_what_the_memory_figure_can_show(whole, micro, device, words):
    assert words in day07.accumulation_verdict(whole, micro, parts=4, device_type=device)


ZERO = [6.92, 7.41, 6.60]  # num_workers=0, seconds per epoch in three interleaved rounds


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        # 4 workers on 2 cores: a 1.15x median from rounds that scatter more than that
        ([6.05, 7.33, 5.98], "No worker count was measurably faster"),
        ([3.51, 3.66, 3.40], "Best plain worker count: **num_workers=2**: 1.98×"),
    ],
)
def test_the_workers_finding_ranks_only_what_the_rounds_tell_apart(seconds, words, monkeypatch):
    from helpers.stats import paired_ratio

    monkeypatch.setenv("COURSE_LANG", "en")
    gains = {"num_workers=1": paired_ratio(ZERO, [7.0, 7.2, 6.9]),
             "num_workers=2": paired_ratio(ZERO, seconds)}  # fmt: skip
    kept = paired_ratio([3.5, 3.7, 3.4], [3.3, 3.6, 3.2])
    first, second = day07.workers_finding(
        gains=gains, cpus=2, most=4, at_cpus=2, beyond=paired_ratio(seconds, seconds), kept=kept
    )
    assert first.startswith(words), first
    assert "**2 CPUs**" in second and "4 workers, more than the CPUs, were not measurably" in second
    assert "(95% interval" in second and "3 rounds" in second


def test_a_busier_loop_is_not_called_a_faster_one():
    from helpers.stats import paired_ratio

    # day 7, full mode: the step share rose from 14 % to 86 % while the epoch did not speed up
    flat = paired_ratio(ZERO, [6.05, 7.33, 5.98])
    text = day07.busy_not_throughput("num_workers=4", before=0.14, after=0.86, gain=flat)
    assert "rose from 14% to 86%" in text and "A busier loop is not a faster one" in text
    faster = paired_ratio(ZERO, [3.51, 3.66, 3.40])
    assert "took the waiting away" in day07.busy_not_throughput(
        "num_workers=2", before=0.14, after=0.86, gain=faster
    )
    assert day07.busy_not_throughput("x", before=0.5, after=0.6, gain=faster) is None


def test_loader_figures_time_each_setting_against_the_first():
    from helpers.timing import Comparison, Measurement

    result = Comparison({"num_workers=0": Measurement(ZERO), "num_workers=2": Measurement(
        [3.51, 3.66, 3.40])})  # fmt: skip
    meters = {}
    for name, busy in [("num_workers=0", 0.14), ("num_workers=2", 0.86)]:
        meters[name] = []
        for _epoch in range(4):  # a warm-up epoch, then three timed ones
            meter = UtilisationMeter("cpu")
            meter.computes, meter.waits = [busy], [1 - busy]
            meters[name].append(meter)
    table = utilisation.loader_figures(result, meters, "num_workers=0")
    assert table.loc["num_workers=0", "speed-up"] == 1.0
    assert table.loc["num_workers=2", "s per epoch"] == 3.51
    assert round(table.loc["num_workers=2", "speed-up"], 2) == 1.98
    assert table.loc["num_workers=2", "95% interval, low"] > 1
    assert table.loc["num_workers=2", "step share"] == pytest.approx(0.86)


class FakeClock:
    """A device whose work is queued and whose synchronisation costs a round trip: the clock
    moves only when a step is queued or the host waits for the device."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def test_step_utilisation_times_steps_as_a_loop_runs_them(monkeypatch):
    # The H200's reference: the lesson's step took 1.37 ms timed alone and synchronised (day
    # 7's old figure), 0.98 ms per epoch in day 5's loop of 2000 epochs. A device whose step
    # costs 0.98 ms and whose synchronisation 0.39 ms reproduces both; a step's time is the
    # loop's, so one synchronisation is shared by a block of steps.
    import helpers.timing
    import helpers.training

    step_s, sync_s, steps = 0.98e-3, 0.386e-3, 20
    clock = FakeClock()

    def sync(device):
        clock.now += sync_s

    def step(*args):
        clock.now += step_s

    monkeypatch.setattr(helpers.timing, "time", clock)
    monkeypatch.setattr(helpers.timing, "synchronize", sync)
    monkeypatch.setattr(helpers.training, "sgd_step", step)
    figures = utilisation.step_utilisation((4, 10, 3), 120, device="cpu", peak=1e12, steps=steps)
    assert figures["ms per step"] == pytest.approx((step_s + sync_s / steps) * 1e3)
    assert figures["ms per step"] < 1.0  # not 1.37: no step pays a round trip of its own
    assert figures["steps per timed block"] == steps
    assert figures["MFU"] == pytest.approx(40_800 / (step_s + sync_s / steps) / 1e12)


def test_step_profile_keeps_the_share_and_the_seconds_inside_operators_consistent():
    from helpers.profiling import step_profile

    x = torch.ones(128, 128)
    found = step_profile(lambda: (x @ x).relu_(), device="cpu", steps=5, repeats=2)
    assert found.kind == "operator" and 0 < found.inside_share <= 1
    assert found.inside_s == pytest.approx(found.inside_share * found.step_s)
    assert found.overhead_s == pytest.approx(found.step_s - found.inside_s)
    assert len(found.seconds.samples) == 2
