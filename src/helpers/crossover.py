"""Where one device overtakes another, and the lesson's "100k-1M rows" read against it (day 6).

* :func:`crossover` and :func:`curve_crossover`: the row count where a GPU's time per step drops
  below a CPU's, from two curves, interpolated on log-log axes;
* :func:`judge_lesson_range`: the lesson's estimate read against such a crossover;
* :func:`lesson_bound` and :func:`judge_lesson_bound`: what one GPU point (the lesson's own run)
  can say without a curve: a lower bound, worded as one.

The curves come from :func:`helpers.takeoff.sweep` or a stored reference; everything here is
importable from :mod:`helpers.takeoff` too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from helpers.i18n import _


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


LESSON_RANGE = (1e5, 1e6)
"""The lesson's estimate: a GPU starts to pay off for a small MLP at 100,000 to 1,000,000 rows."""


def judge_lesson_range(
    pays_off: float | None, largest: float, against: str, smallest: float | None = None
) -> str:
    """The lesson's "100k-1M rows", read against a crossover found from two curves.

    >>> judge_lesson_range(2300, 1e6, "the reference GPU").split(": ")[1]
    "far below the lesson's 100,000-1,000,000."
    """
    low, high = LESSON_RANGE
    span = _("the lesson's {low:,.0f}-{high:,.0f}").format(low=low, high=high)
    if pays_off is None:
        return _(
            "Against {against}, the GPU is not faster anywhere up to "
            "{largest:,.0f} rows measured: these curves cannot confirm {span}."
        ).format(against=against, largest=largest, span=span)
    where = _("Against {against}, the GPU pays off from about {rows:,.0f} rows").format(
        against=against, rows=pays_off
    )
    if smallest is not None and pays_off <= smallest:
        where = _(
            "Against {against}, the GPU is faster already at the smallest size "
            "measured ({rows:,.0f} rows)"
        ).format(against=against, rows=smallest)
    if pays_off < low / 10:
        return _("{where}: far below {span}.").format(where=where, span=span)
    if pays_off < low:
        return _("{where}: below {span}, within a factor of ten.").format(where=where, span=span)
    if pays_off <= high:
        return _("{where}: within {span}.").format(where=where, span=span)
    return _("{where}: above {span}.").format(where=where, span=span)


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


def judge_lesson_bound(
    bound: float | None, largest: float, step_seconds: float, rows: int = 120
) -> str:
    """The lesson's "100k-1M rows", read against the bound that one GPU point gives
    (:func:`lesson_bound`): conditional words, since a single point is not a curve.

    >>> print(judge_lesson_bound(2300, 1e6, 6.7e-4).split(". ")[1])
    A GPU step does not get faster with more rows, so the GPU cannot pay off below about 2,300 \
rows, where your CPU's step reaches that time
    """
    low, high = LESSON_RANGE
    span = _("the lesson's {low:,.0f}-{high:,.0f} rows").format(low=low, high=high)
    said = {"rows": rows, "step_ms": step_seconds * 1e3}
    if bound is None:
        head = _(
            "The lesson's GPU was measured at one size only: {rows} rows, "
            "{step_ms:.2f} ms per epoch (a whole loop, divided by its epochs). A "
            "GPU step does not get faster with more rows, so the GPU cannot pay "
            "off below {largest:,.0f} rows: your CPU's step stays faster than that "
            "at every size measured."
        ).format(largest=largest, **said)
        if largest >= high:
            return _(
                "{head} That alone rules out {span}: the lesson's estimate is too low here."
            ).format(head=head, span=span)
        return _("{head} That bound is below {span}: it neither confirms nor rules it out.").format(
            head=head, span=span
        )
    head = _(
        "The lesson's GPU was measured at one size only: {rows} rows, "
        "{step_ms:.2f} ms per epoch (a whole loop, divided by its epochs). A "
        "GPU step does not get faster with more rows, so the GPU cannot pay "
        "off below about {bound:,.0f} rows, where your CPU's step reaches that "
        "time."
    ).format(bound=bound, **said)
    if bound > high:
        return _(
            "{head} That alone rules out {span}: the lesson's estimate is too low here."
        ).format(head=head, span=span)
    if bound >= low:
        found = _(
            "{head} That bound is within {span}, so it does not rule the range "
            "out. Only if the GPU's step stayed at its {rows}-row time up to "
            "{bound:,.0f} rows (likely for so small a network, but not measured) "
            "would it pay off right there; a GPU curve (this machine's, or a "
            "reference measured on a GPU) turns the bound into a measurement."
        )
    else:
        found = _(
            "{head} That bound is below {span}, so it does not rule the range out. "
            "Only if the GPU's step stayed at its {rows}-row time up to "
            "{bound:,.0f} rows (likely for so small a network, but not measured) "
            "would it pay off right there; a GPU curve (this machine's, or a "
            "reference measured on a GPU) turns the bound into a measurement."
        )
    return found.format(head=head, span=span, rows=rows, bound=bound)
