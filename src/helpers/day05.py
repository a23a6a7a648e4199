"""Day 5 · The logging-frequency timing experiment

What the measurements of
``notebooks/day05_logging_frequency.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("record every N"),
    N_("remaining (s)"),
    N_("arithmetic time"),
    N_("time inside operators"),
    N_("overhead (remaining)"),
    N_("wall time"),
    N_("share of the epoch"),
    N_("one run per interval"),
    N_("you: total (s)"),
    N_("you: remaining (s)"),
    N_("student: recordings"),
    N_("student: remaining (s)"),
    N_("you: recordings"),
    N_("shuffled rounds"),
    N_("a: everything else (s per run)"),
    N_("b: one recording inside the loop (µs)"),
    N_("bend across the measured range (ms)"),
    N_("estimate"),
    N_("95% interval: low"),
    N_("95% interval: high"),
    N_("lesson epoch"),
    N_("chain, eager"),
    N_("chain, compiled"),
    N_("fixes"),
    N_("median (s)"),
    N_("epochs per second"),
    N_("speed-up over the lesson loop (median of the rounds)"),
    N_("middle half of the rounds"),
    N_("1. without the profiler, no recordings (3 runs)"),
    N_("5. `a` per epoch, from the straight line"),
    N_("8. 'never', median of section 3's rounds"),
    N_("9. the lesson loop, every 100 epochs, median"),
    N_("every 2"),
    N_("every 5"),
    N_("every 20"),
    N_("every 200"),
    N_("every 500"),
    N_("every 1000"),
    N_("lesson loop, .item() every epoch"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
