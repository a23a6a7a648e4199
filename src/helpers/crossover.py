"""Where one device overtakes another, and what one GPU point can bound (day 6, section 4).

* :func:`crossover` and :func:`curve_crossover`: the row count where a GPU's time per step drops
  below a CPU's, from two curves, interpolated on log-log axes;
* :func:`lesson_bound`: what one GPU point (the lesson's own run) can say without a curve: a
  lower bound on the crossover, not the crossover.

The curves come from :func:`helpers.takeoff.sweep` or a stored reference; everything here is
importable from :mod:`helpers.takeoff` too. This module computes; what the numbers say about the
lesson's "100k-1M rows", the lesson says (:mod:`helpers.day06`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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
