"""Day 3 · `__call__` and `nn.Module`

What the measurements of
``notebooks/day03_call_and_modules.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("a function"),
    N_("a lambda"),
    N_("an object with __call__"),
    N_("a number"),
    N_("a list"),
    N_("callables"),
    N_("thing"),
    N_("pre-hook calls"),
    N_("parameter"),
    N_("buffer"),
    N_("plain tensor"),
    N_("attribute"),
    N_("kind"),
    N_("device after .to()"),
    N_("in parameters()"),
    N_("in state_dict()"),
    N_("layer"),
    N_("type"),
    N_("output shape"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
