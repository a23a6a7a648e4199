"""Timing on any device: the course's one timing module.

GPU work is queued and runs later, so a clock read right after ``model(x)`` measures only the
queueing. Every measurement here synchronises the device before it reads the clock.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from helpers.device import synchronize


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
        q1, _, q3 = statistics.quantiles(self.samples, n=4, method="inclusive")
        return q1, q3

    @property
    def spread(self) -> float:
        """The interquartile range, ``q3 - q1``; 0 with fewer than 2 samples."""
        q1, q3 = self.quartiles
        return q3 - q1


def measure(
    fn: Callable[[], object], *, device: torch.device | str, repeats: int = 10, warmup: int = 2
) -> Measurement:
    """Time ``fn()`` ``repeats`` times on ``device`` after ``warmup`` untimed calls.

    Each call is timed on its own with :func:`timed`, so the device is synchronised before and
    after it: the samples include the work the device does, not just the time to queue it.
    """
    if repeats < 1 or warmup < 0:
        raise ValueError(f"need repeats >= 1 and warmup >= 0, got {repeats} and {warmup}")
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        with timed(device) as watch:
            fn()
        samples.append(watch.seconds)
    return Measurement(samples)
