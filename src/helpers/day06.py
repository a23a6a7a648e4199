"""Day 6 · When does the GPU take off?

What the measurements of
``notebooks/day06_gpu_takeoff.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("rows"),
    N_("not measured"),
    N_("time at the smallest size (ms)"),
    N_("take-off (rows)"),
    N_("best GFLOP/s"),
    N_("FLOPs per step"),
    N_("bytes per step"),
    N_("FLOPs per byte"),
    N_("GFLOP/s reached"),
    N_("times longer"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
