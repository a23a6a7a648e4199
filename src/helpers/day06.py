"""Day 6 · When does the GPU take off?

What the measurements of
``notebooks/day06_gpu_takeoff.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

from helpers import receipts
from helpers.i18n import N_, _
from helpers.narration import Beside, heading
from helpers.receipts import Shelf

NAMES = (
    N_("rows"),
    N_("not measured"),
    N_("time at the smallest size (ms)"),
    N_("take-off (rows)"),
    N_("best GFLOP/s"),
    N_("FLOPs per step"),
    N_("bytes per step"),
    N_("FLOPs per byte"),
    N_("GFLOP/s reached"),
    N_("times longer"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


def beside_receipt(found: Shelf | None = None) -> Beside:
    """Day 6: where the GPU's curve comes from (a receipt of a GPU; a CPU's does not count), or
    how to make one."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    receipt = None if receipt is None or receipt.device == "cpu" else receipt
    return Beside(
        heading(
            found,
            receipt,
            _(
                "No GPU curve to draw beside this machine's: no receipt of a GPU here. "
                "On a rented GPU run `python -m helpers receipt --out my-gpu.json`, "
                "copy the file into `{folder}`, and run this notebook again; until "
                "then the crossover below is bounded from the lesson's one run."
            ),
        )
    )
