"""Timing on any device: the course's one timing module (day 5a, section 2).

GPU work is queued and runs later, so a clock read right after ``model(x)`` measures only the
queueing. Every measurement here synchronises the device before it reads the clock.

* :func:`timed` times one block; :func:`measure` repeats one piece of work.
* :func:`per_step` times a training step the one way the course does: many steps back to back,
  as a loop runs them, the device synchronised before the first and after the last, divided by
  their number. A step timed alone and synchronised pays a whole round trip to the device and
  waits for its own work, where a loop's next step is queued while the device still computes
  (the H200's reference: the lesson's step took 1.37 ms timed alone, 0.98 ms per epoch in day
  5's loop). Days 5, 6 and 7 time steps so (day 6 in :func:`benchmark`'s blocks).
* :func:`compare` times several variants against each other: warm-up, then rounds in which every
  variant runs once, in a shuffled order, so that slow drifts of the machine (other programs,
  temperature, caches) fall on all variants alike.
* :func:`benchmark` uses ``torch.utils.benchmark`` for short statements (microseconds), with the
  number of threads set explicitly; :func:`threads` sets them for a block of code.

Per-operator breakdowns are in :mod:`helpers.profiling`, and what the numbers mean (intervals,
fits) in :mod:`helpers.stats`. Used on days 1, 2, 5, 6 and 7.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import torch
from tqdm.auto import tqdm

from helpers.device import synchronize
from helpers.i18n import N_, word

if TYPE_CHECKING:
    import pandas as pd


@contextmanager
def threads(n: int) -> Iterator[None]:
    """PyTorch's CPU threads set to ``n`` inside the block, and restored after it. Tiny operations
    on several threads mostly measure the threads (day 5 times its loop on one), and on a busy
    machine they wait for each other.

    >>> before = torch.get_num_threads()
    >>> with threads(1):
    ...     torch.get_num_threads()
    1
    >>> torch.get_num_threads() == before
    True
    """
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass
class Stopwatch:
    """Seconds measured by :func:`timed`; ``seconds`` is set when the block ends."""

    seconds: float = float("nan")


@contextmanager
def timed(device: torch.device | str) -> Iterator[Stopwatch]:
    """Time a block of code on ``device``, waiting for the device before each clock read::

    with timed(device) as watch:
        train(...)
    print(watch.seconds)
    """
    watch = Stopwatch()
    synchronize(device)
    start = time.perf_counter()
    try:
        yield watch
    finally:
        synchronize(device)
        watch.seconds = time.perf_counter() - start


@dataclass
class Measurement:
    """Repeated timings of one piece of work, in seconds."""

    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def quartiles(self) -> tuple[float, float]:
        """The first and third quartiles: the middle half of the samples lies between them."""
        if len(self.samples) < 2:
            return self.samples[0], self.samples[0]
        q1, _median, q3 = statistics.quantiles(self.samples, n=4, method="inclusive")
        return q1, q3

    @property
    def spread(self) -> float:
        """The interquartile range, ``q3 - q1``; 0 with fewer than 2 samples."""
        q1, q3 = self.quartiles
        return q3 - q1


def _check_counts(repeats: int, warmup: int) -> None:
    if repeats < 1 or warmup < 0:
        raise ValueError(f"need repeats >= 1 and warmup >= 0, got {repeats} and {warmup}")


def measure(
    fn: Callable[[], object], *, device: torch.device | str, repeats: int = 10, warmup: int = 2
) -> Measurement:
    """Time ``fn()`` ``repeats`` times on ``device`` after ``warmup`` untimed calls.

    Each call is timed on its own with :func:`timed`, so the device is synchronised before and
    after it: the samples include the work the device does, not just the time to queue it.
    """
    _check_counts(repeats, warmup)
    for _round in range(warmup):
        fn()
    samples = []
    for _round in range(repeats):
        with timed(device) as watch:
            fn()
        samples.append(watch.seconds)
    return Measurement(samples)


def per_step(
    step: Callable[[], object],
    *,
    device: torch.device | str,
    steps: int,
    repeats: int = 5,
    warmup: int = 1,
) -> Measurement:
    """Seconds per step of ``step``, the course's one definition of a step's time: each sample
    runs ``steps`` steps back to back between two synchronisations (:func:`timed`) and is that
    block's time over ``steps``; ``repeats`` samples after ``warmup`` untimed blocks.

    What one synchronisation costs is then shared by ``steps`` steps, as in a training loop that
    reads its loss every so often; with ``steps=1`` it is paid by every step.
    """
    _check_counts(repeats, warmup)
    if steps < 1:
        raise ValueError(f"need steps >= 1 in a block, got {steps}")

    def block() -> None:
        for _step in range(steps):
            step()

    found = measure(block, device=device, repeats=repeats, warmup=warmup)
    return Measurement([seconds / steps for seconds in found.samples])


@dataclass
class Comparison:
    """What :func:`compare` measured: one :class:`Measurement` per variant, and the run order."""

    measurements: dict[str, Measurement]
    order: list[list[str]] = field(default_factory=list)
    """The order the variants ran in, one list per round."""

    def table(self) -> pd.DataFrame:
        """Median, quartiles, spread and number of samples per variant, in seconds."""
        import pandas as pd  # here, not above: the processes torchrun starts (day 8) need no tables

        rows = {
            name: {
                "median_s": m.median,
                "q1_s": m.quartiles[0],
                "q3_s": m.quartiles[1],
                "spread_s": m.spread,
                N_("runs"): len(m.samples),
            }
            for name, m in self.measurements.items()
        }
        return pd.DataFrame(rows).T.astype({"runs": int})

    def ratios(self, baseline: str, variant: str) -> Measurement:
        """``baseline time / variant time`` round by round: how many times faster ``variant`` is."""
        pairs = zip(
            self.measurements[baseline].samples, self.measurements[variant].samples, strict=True
        )
        return Measurement([b / v for b, v in pairs])

    def gain(self, baseline: str, variant: str):
        """How many times as fast ``variant`` ran as ``baseline``, round by round, with its 95 %
        interval (:func:`helpers.stats.paired_ratio`, a :class:`helpers.stats.Gain`): whether
        these rounds can tell the two apart."""
        from helpers.stats import paired_ratio  # scipy: only when an interval is asked for

        return paired_ratio(self.measurements[baseline].samples, self.measurements[variant].samples)


def compare(
    variants: dict[str, Callable[[], object]],
    *,
    device: torch.device | str,
    repeats: int = 5,
    warmup: int = 1,
    seed: int = 0,
    progress: bool | str = True,
) -> Comparison:
    """Time several variants against each other, interleaved in a shuffled order.

    Every variant is first run ``warmup`` times untimed. Then come ``repeats`` rounds; in each,
    every variant runs once, timed with :func:`timed`, in an order shuffled anew (reproducibly, from
    ``seed``). A progress bar counts the runs (labelled ``progress`` when that is a string; hidden
    with ``progress=False``); it is updated between runs, never inside a timed one.
    """
    _check_counts(repeats, warmup)
    if not variants:
        raise ValueError("compare() needs at least one variant")
    label = progress if isinstance(progress, str) else "compare"
    runs = (warmup + repeats) * len(variants)
    bar = tqdm(total=runs, desc=word(label), unit="run", disable=progress is False)
    with bar:
        for fn in variants.values():
            for _round in range(warmup):
                fn()
                bar.update()
        rng = random.Random(seed)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        order = []
        for _round in range(repeats):
            names = list(variants)
            rng.shuffle(names)
            order.append(names)
            for name in names:
                with timed(device) as watch:
                    variants[name]()
                samples[name].append(watch.seconds)
                bar.update()
    return Comparison({name: Measurement(s) for name, s in samples.items()}, order)


def benchmark(
    fn: Callable[[], object],
    *,
    device: torch.device | str,
    threads: int = 1,
    min_run_time: float = 0.2,
    min_blocks: int = 1,
) -> Measurement:
    """Time a short statement with ``torch.utils.benchmark`` (``threads`` set explicitly).

    The benchmark runs ``fn`` in blocks until ``min_run_time`` seconds have passed; each sample is
    the time per call in one block. The clock waits for ``device`` before each reading.
    ``torch.utils.benchmark`` sizes its blocks so that reading the clock costs under 0.01 % of a
    block: where that reading waits for a GPU, one block can outlast ``min_run_time``, and a
    single sample has no spread. ``min_blocks`` runs more blocks of the same size until there
    are that many samples.
    """

    import torch.utils.benchmark as torch_benchmark  # here: most users of this module never need it

    def clock() -> float:
        synchronize(device)
        return time.perf_counter()

    timer = torch_benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=threads, timer=clock)
    found = timer.blocked_autorange(min_run_time=min_run_time)
    samples = list(found.times)
    while len(samples) < min_blocks:
        samples += timer.timeit(found.number_per_run).times
    return Measurement(samples)
