"""Day 1 · Know your hardware

What the measurements of
``notebooks/day01_hardware.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("threads"),
    N_("value"),
    N_("physical cores"),
    N_("card"),
    N_("compute capability"),
    N_("why"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
