"""Day 7 · Why is my GPU utilisation low?

What the measurements of
``notebooks/day07_gpu_utilization.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("loader"),
    N_("epoch 1 (s)"),
    N_("epoch 2 (s)"),
    N_("busy (epoch 2)"),
    N_("speed-up (epoch 2)"),
    N_("times faster"),
    N_("peak extra memory (MB)"),
    N_("rows per second"),
    N_("precision"),
    N_("times less"),
    N_("steps, no sync"),
    N_("steps, .item() every step"),
    N_("steps, if loss < ... every step"),
    N_("sum of 512 rows in a Python loop"),
    N_("sum of 512 rows, vectorised"),
    N_("model on each row in a loop"),
    N_("model on all rows at once"),
    N_("habits"),
    N_("fix"),
    N_("habit"),
    N_("habit costs (× the fix's time)"),
    N_("times slower"),
    N_("the 8 stacked copies and the 8 trained alone"),
    N_("models per launch"),
    N_("copies K"),
    N_("lesson loop (model-epochs/s)"),
    N_("one batched step (model-epochs/s)"),
    N_("batched ÷ lesson loop (median ratio)"),
    N_("times"),
    N_("full width"),
    N_("widths"),
    N_("half width"),
    N_("weights in float32 (MB)"),
    N_("weights in bfloat16 (MB)"),
    N_("learning rates"),
    N_("setting"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
