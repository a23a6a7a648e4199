"""Day 8 · When one device is not enough

What the measurements of
``notebooks/day08_distributed.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("local rank"),
    N_("world size"),
    N_("process id"),
    N_("processes"),
    N_("tensor (bytes)"),
    N_("sent by each rank (counted)"),
    N_("2(N-1)/N × tensor"),
    N_("largest difference from dist.all_reduce"),
    N_("the ring and all_reduce in every group"),
    N_("sums"),
    N_("the ring and all_reduce"),
    N_("latency, fitted (µs)"),
    N_("95% interval (µs)"),
    N_("bandwidth, fitted (GB/s)"),
    N_("typical miss (share of the time)"),
    N_("default buckets"),
    N_("1 MB buckets"),
    N_("a step with .item()"),
    N_("a step without"),
    N_("wide network, ms per step"),
    N_("wide, strong"),
    N_("wide, weak"),
    N_("small, strong"),
    N_("ms per step, 1 process"),
    N_("speed-up"),
    N_("efficiency"),
    N_("the run that lost a worker and the undisturbed one"),
    N_("GB per GPU"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
