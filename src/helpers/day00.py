"""Day 0 · Check your setup

What the measurements of
``notebooks/day00_setup.ipynb``
mean, in the course's language: whether the loop written in the lesson recorded the losses
:func:`helpers.training.train` did, how long training took and what it reached.

>>> same_losses([1.10, 0.95], [1.10, 0.95])
'The loop above and `train` recorded the same losses.'
"""

from __future__ import annotations

import torch

from helpers.i18n import N_, _
from helpers.training import TrainResult

NAMES = (
    N_("shape"),
    N_("dtype"),
    N_("parameters"),
    N_("percent"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""

LOSS_RTOL = 1e-5
"""Relative difference two recorded losses may have and still count as the same (float32 keeps
about 7 significant digits, so sums taken in another order differ in the 6th or 7th)."""

LOSS_ATOL = 1e-8
"""Absolute difference allowed on top of :data:`LOSS_RTOL`, for losses close to zero."""


def same_losses(by_hand, losses) -> str:
    """Whether a loop written in a lesson recorded the same losses as :func:`train` (as many,
    each within :data:`LOSS_RTOL` and :data:`LOSS_ATOL`), as a sentence."""
    same = len(by_hand) == len(losses) and torch.allclose(
        torch.tensor(by_hand), torch.tensor(losses), rtol=LOSS_RTOL, atol=LOSS_ATOL
    )
    return (
        _("The loop above and `train` recorded the same losses.")
        if same
        else _("The loop above and `train` recorded DIFFERENT losses.")
    )


def trained_note(result: TrainResult, epochs: int) -> str:
    """How long ``epochs`` epochs of :func:`helpers.training.train` took, in all and per epoch."""
    return _(
        "Trained **{epochs} epochs** on **{device}** in **{seconds:.2f} s** "
        "({per_epoch_us:.0f} µs per epoch)."
    ).format(
        epochs=epochs,
        device=result.device,
        seconds=result.seconds,
        per_epoch_us=result.seconds / epochs * 1e6,
    )


def loss_note(result: TrainResult, accuracy: float, tested: int) -> str:
    """How far the loss fell, and the accuracy on ``tested`` test rows (three classes)."""
    return _(
        "The loss went from **{first:.3f}** to **{final:.3f}**; accuracy on "
        "the {tested} test flowers is **{accuracy:.0%}** (guessing gives 33%)."
    ).format(first=result.losses[0], final=result.final_loss, tested=tested, accuracy=accuracy)
