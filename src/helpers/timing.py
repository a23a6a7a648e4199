"""Timing on any device: the course's one timing module.

GPU work is queued and runs later, so a clock read right after ``model(x)`` measures only the
queueing. Every measurement here synchronises the device before it reads the clock.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
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
