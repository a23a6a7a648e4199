"""Day 3 · `__call__` and `nn.Module`

What the measurements of
``notebooks/day03_call_and_modules.ipynb``
mean, in the course's language: what ``module.to()`` did to a parameter, and what that means for
an optimiser made before the move.

>>> parameter_move_note(False, "meta").startswith("After `.to(meta)` the weight is a new")
True
"""

from __future__ import annotations

from helpers.i18n import N_, _

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


def parameter_move_note(same: bool, target_type: str) -> str:
    """What ``module.to(target)`` did to a Parameter object (``same``: the model's weight is the
    object it held before the move), and what it means for an optimiser made before the move
    (section 3)."""
    if same:
        return _(
            "After `.to({target})` the weight is the same Parameter object, its "
            "numbers moved into it (PyTorch does that when the old and new tensors "
            "are of compatible kinds, as CPU and CUDA tensors are), so an "
            "optimiser made before the move still holds it. Moving to `meta` makes "
            "new Parameters instead, so the safe habit is to move the model first "
            "and make the optimiser after."
        ).format(target=target_type)
    return _(
        "After `.to({target})` the weight is a new Parameter object: PyTorch "
        "could not move the numbers into the old one (a CPU tensor and a "
        "`{target}` tensor are not of compatible kinds), so an optimiser made "
        "before the move would keep updating the old, orphaned tensors. Move "
        "the model first, then make the optimiser."
    ).format(target=target_type)
