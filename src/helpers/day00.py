"""Day 0 · Check your setup

What the measurements of
``notebooks/day00_setup.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("shape"),
    N_("dtype"),
    N_("parameters"),
    N_("percent"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
