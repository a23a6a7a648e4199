"""Day 4 · The Heart Disease preprocessor

What the measurements of
``notebooks/day04_heart_preprocessor.ipynb``
mean, in the course's language: the floor every model must beat (the majority's share), and why
each column of codes is one-hot encoded, given how the disease rate moves with its code
(:func:`helpers.preprocessing.rate_trend`).

>>> base_rate_note(0.46)
"**46%** of patients have heart disease, so always guessing 'no disease' is right 54% of the \
time: every model below must beat that."
"""

from __future__ import annotations

from helpers.i18n import N_, _, word
from helpers.preprocessing import CODES

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


def base_rate_note(rate: float) -> str:
    """The share of patients with the disease, and the score of always guessing the majority:
    the floor every model must beat (section 1)."""
    said = {"rate": rate, "right": max(rate, 1 - rate)}
    return (
        _(
            "**{rate:.0%}** of patients have heart disease, so always guessing "
            "'disease' is right {right:.0%} of the time: every model below must "
            "beat that."
        )
        if rate > 0.5  # most patients have the disease
        else _(
            "**{rate:.0%}** of patients have heart disease, so always guessing 'no "
            "disease' is right {right:.0%} of the time: every model below must "
            "beat that."
        )
    ).format(**said)


def code_note(column: str, trend: str) -> str:
    """Why ``column``, a column of codes, is one-hot encoded, given how the disease rate moves
    with its code (:func:`helpers.preprocessing.rate_trend`; section 4)."""
    codes = f"`{column}` ({word(CODES[column])})" if column in CODES else f"`{column}`"
    if trend == "goes up and down":
        return _(
            "{codes}: the disease rate goes up and down with the code, so no "
            "single weight on the code can follow it; one-hot encoding gives each "
            "code its own column and weight."
        ).format(codes=codes)
    if trend == "rises":
        return _(
            "{codes}: the disease rate rises with the code, so one weight could "
            "follow its direction, but only as if the codes were evenly spaced "
            "quantities. They are labels: the gaps between them mean nothing, so "
            "each code gets its own column and weight all the same."
        ).format(codes=codes)
    return _(
        "{codes}: the disease rate falls with the code, so one weight could "
        "follow its direction, but only as if the codes were evenly spaced "
        "quantities. They are labels: the gaps between them mean nothing, so "
        "each code gets its own column and weight all the same."
    ).format(codes=codes)
