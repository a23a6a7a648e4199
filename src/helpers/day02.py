"""Day 2 · Moving models and data to a device

What the measurements of
``notebooks/day02_devices.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers.i18n import N_

NAMES = (
    N_("size"),
    N_("model.to(target) returns the same module object"),
    N_("the model's parameters are now on the target"),
    N_("x.to(target) returns a new tensor"),
    N_("the new tensor is on the target"),
    N_("the old tensor has not moved"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""
