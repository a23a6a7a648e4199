"""Where one device overtakes another, and what one GPU point can bound (day 6, section 4).

* :func:`crossover` and :func:`curve_crossover`: the row count where a GPU's time per step drops
  below a CPU's, from two curves, interpolated on log-log axes; :func:`crossing` gives it with
  the measured sizes either side (what the points themselves support);
* :func:`support`: what a measured curve can support: the points timed in a single block (no
  spread) and the places where it falls with more rows beyond its spread (or with none to judge
  by);
* :func:`lesson_bound`: what one GPU point (the lesson's own run) can say without a curve: a
  lower bound on the crossover, not the crossover.

The curves come from :func:`helpers.takeoff.sweep` or a stored reference; everything here is
importable from :mod:`helpers.takeoff` too. This module computes; what the numbers say about the
lesson's "100k-1M rows", the lesson says (:mod:`helpers.day06`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd


def _crossing(x: np.ndarray, y: np.ndarray, level: np.ndarray) -> float | None:
    """The first x where y rises through ``level``, interpolated on log-log axes."""
    above = y >= level
    if not above.any():
        return None
    i = int(np.argmax(above))
    if i == 0:
        return float(x[0])
    lx, ly, ll = np.log(x[i - 1 : i + 1]), np.log(y[i - 1 : i + 1]), np.log(level[i - 1 : i + 1])
    gap = ly - ll
    t = gap[0] / (gap[0] - gap[1])
    return float(math.exp(lx[0] + t * (lx[1] - lx[0])))


def crossover(
    rows: Sequence[float], slower_at_first: Sequence[float], faster_later: Sequence[float]
) -> float | None:
    """The row count where the second curve becomes faster than the first (e.g. the GPU's time
    per step drops below the CPU's), interpolated on log-log axes; ``None`` if it never does, and
    the first size if it is faster from the start."""
    x = np.asarray(rows, dtype=float)
    a, b = np.asarray(slower_at_first, dtype=float), np.asarray(faster_later, dtype=float)
    if not (len(x) == len(a) == len(b)) or len(x) < 1:
        raise ValueError("crossover() needs three sequences of the same, non-zero length")
    return _crossing(x, a, b)


def curve_crossover(cpu: pd.DataFrame, gpu: pd.DataFrame) -> float | None:
    """Where the ``gpu`` curve's time per step drops below the ``cpu`` curve's (both tables with
    ``rows`` and ``seconds``, one model, e.g. from :func:`sweep` or a stored reference).

    The GPU's time is interpolated on log-log axes at the CPU's row counts, within the rows both
    curves cover. ``None`` when the GPU is never faster there.

    >>> cpu = pd.DataFrame({"rows": [100, 1000, 10000], "seconds": [1e-4, 5e-4, 5e-3]})
    >>> gpu = pd.DataFrame({"rows": [100, 10000], "seconds": [1e-3, 1.2e-3]})
    >>> round(curve_crossover(cpu, gpu))
    2263
    """
    cpu, gpu = cpu.sort_values("rows"), gpu.sort_values("rows")
    inside = cpu[(cpu["rows"] >= gpu["rows"].min()) & (cpu["rows"] <= gpu["rows"].max())]
    if len(inside) < 2:
        return None
    log_gpu = np.interp(np.log(inside["rows"]), np.log(gpu["rows"]), np.log(gpu["seconds"]))
    return crossover(inside["rows"], inside["seconds"], np.exp(log_gpu))


def lesson_bound(cpu: pd.DataFrame, step_seconds: float) -> float | None:
    """Where the ``cpu`` curve (``rows``, ``seconds``) reaches ``step_seconds``, a GPU's time per
    step measured at one size only; ``None`` if it stays below it at every size measured.

    A GPU step does not get faster with more rows, so below this row count the CPU is faster:
    the GPU cannot pay off earlier (a lower bound on the crossover, not the crossover).

    >>> cpu = pd.DataFrame({"rows": [100, 1000, 10000], "seconds": [2e-4, 4e-4, 2e-3]})
    >>> round(lesson_bound(cpu, 6.7e-4))
    2092
    """
    cpu = cpu.sort_values("rows")
    flat = np.full(len(cpu), float(step_seconds))
    return crossover(cpu["rows"], cpu["seconds"], flat)


@dataclass(frozen=True)
class Crossing:
    """Where the GPU's curve drops below the CPU's: interpolated, and the measured sizes either
    side (the CPU faster at ``below`` rows, the GPU at ``above``; both the smallest size when the
    GPU is faster from the start)."""

    rows: float
    """The interpolated crossover, on log-log axes."""
    below: float
    above: float


def crossing(cpu: pd.DataFrame, gpu: pd.DataFrame) -> Crossing | None:
    """:func:`curve_crossover` with the CPU's measured sizes either side of it (within the rows
    both curves cover); ``None`` when the GPU is never faster there.

    >>> cpu = pd.DataFrame({"rows": [100, 1000, 10000], "seconds": [1e-4, 5e-4, 5e-3]})
    >>> gpu = pd.DataFrame({"rows": [100, 10000], "seconds": [1e-3, 1.2e-3]})
    >>> found = crossing(cpu, gpu)
    >>> round(found.rows), found.below, found.above
    (2263, 1000.0, 10000.0)
    """
    rows = curve_crossover(cpu, gpu)
    if rows is None:
        return None
    sizes = sorted(float(n) for n in cpu["rows"] if gpu["rows"].min() <= n <= gpu["rows"].max())
    below = max((n for n in sizes if n < rows), default=rows)
    above = min((n for n in sizes if n >= rows), default=rows)
    return Crossing(rows, below, above)


@dataclass(frozen=True)
class Support:
    """What one measured curve (``rows``, ``seconds``, and ``q1``, ``q3`` when known) supports."""

    single: tuple[float, ...]
    """Row counts timed in a single block: their first and third quartiles coincide, so their
    spread, and whether a neighbour differs from them, is not measured."""
    falls: tuple[tuple[float, float, float, float], ...]
    """``(rows, seconds, more rows, fewer seconds)``: a later point faster than an earlier one
    beyond both their spreads (with no spread, any fall counts): more work cannot take less
    time, so something slowed the earlier point."""

    @property
    def monotonic(self) -> bool:
        return not self.falls


def support(part: pd.DataFrame) -> Support:
    """What a curve's points can support (:class:`Support`), from its ``rows``, ``seconds`` and,
    when present, quartiles ``q1`` and ``q3`` (without them every point counts as one block).

    >>> part = pd.DataFrame({"rows": [100, 316, 1000], "seconds": [9e-4, 6.6e-4, 7.3e-4],
    ...                      "q1": [9e-4, 6.6e-4, 7.2e-4], "q3": [9e-4, 6.6e-4, 7.4e-4]})
    >>> found = support(part)
    >>> found.single, found.falls, found.monotonic
    ((100.0, 316.0), ((100.0, 0.0009, 316.0, 0.00066),), False)
    """
    part = part.sort_values("rows")
    rows = part["rows"].astype(float).tolist()
    seconds = part["seconds"].astype(float).tolist()
    q1 = part["q1"].astype(float).tolist() if "q1" in part else seconds
    q3 = part["q3"].astype(float).tolist() if "q3" in part else seconds
    single = tuple(n for n, low, high in zip(rows, q1, q3, strict=True) if low == high)
    falls = []
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            if q3[j] < q1[i] or (q1[i] == q3[i] and q1[j] == q3[j] and seconds[j] < seconds[i]):
                falls.append((rows[i], seconds[i], rows[j], seconds[j]))
                break  # the first later point below it is enough
    return Support(single, tuple(falls))
