"""Day 4 · The Heart Disease preprocessor

What the measurements of
``notebooks/day04_heart_preprocessor.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("missing"),
    N_("distinct values"),
    N_("medians"),
    N_("train mean"),
    N_("train std"),
    N_("test mean"),
    N_("test std"),
    N_("disease rate per code"),
    N_("the rate, as the code grows"),
    N_("cross-validation"),
    N_("codes"),
    N_("one-hot"),
    N_("this choice"),
    N_("the default"),
    N_("leaky"),
    N_("honest"),
    N_("no"),
    N_("accuracy"),
    N_("logistic regression"),
    N_("the MLP"),
    N_("a column missing"),
    N_("text in a numeric column"),
    N_("an empty frame"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
