"""Day 7 · Why is my GPU utilisation low?

What the measurements of
``notebooks/day07_gpu_utilization.ipynb``
mean, in the course's language.
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.i18n import N_, _, word
from helpers.narration import Beside, gigabytes, heading, here, receipt_label
from helpers.receipts import Shelf

NAMES = (
    N_("loader"),
    N_("epoch 1 (s)"),
    N_("epoch 2 (s)"),
    N_("busy (epoch 2)"),
    N_("speed-up (epoch 2)"),
    N_("times faster"),
    N_("peak extra memory (MB)"),
    N_("rows per second"),
    N_("precision"),
    N_("times less"),
    N_("steps, no sync"),
    N_("steps, .item() every step"),
    N_("steps, if loss < ... every step"),
    N_("sum of 512 rows in a Python loop"),
    N_("sum of 512 rows, vectorised"),
    N_("model on each row in a loop"),
    N_("model on all rows at once"),
    N_("habits"),
    N_("fix"),
    N_("habit"),
    N_("habit costs (× the fix's time)"),
    N_("times slower"),
    N_("the 8 stacked copies and the 8 trained alone"),
    N_("models per launch"),
    N_("copies K"),
    N_("lesson loop (model-epochs/s)"),
    N_("one batched step (model-epochs/s)"),
    N_("batched ÷ lesson loop (median ratio)"),
    N_("times"),
    N_("full width"),
    N_("widths"),
    N_("half width"),
    N_("weights in float32 (MB)"),
    N_("weights in bfloat16 (MB)"),
    N_("learning rates"),
    N_("setting"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""


def _figure(key: str, value: float | None) -> str:
    """A day-7 figure: the busy share in whole percent, MFU with two significant digits."""
    if value is None:
        return _("not measured")
    return f"{value:.0%}" if key == "device busy share" else f"{value * 100:.2g}%"


def beside_receipt(
    figures: dict[str, dict],
    peak: float,
    device_type: str,
    bandwidth: float | None = None,
    found: Shelf | None = None,
) -> Beside:
    """Day 7: the busy share and MFU of each workload, the peak FLOP/s and the copy bandwidths,
    here (``figures`` from ``step_utilisation``, ``peak``, ``bandwidth`` when measured) and on the
    receipt's device."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    rows, ours, theirs = [], [], []
    for name in dict.fromkeys([*figures, *receipt["day07"]]):
        for key in (N_("device busy share"), N_("MFU")):
            rows.append(_("{label}: {value}").format(label=word(name), value=word(key)))
            ours.append(_figure(key, figures.get(name, {}).get(key)))
            theirs.append(_figure(key, receipt["day07"].get(name, {}).get(key)))
    roofs, copies = receipt["roofs"], receipt["copies"]
    rows += [
        _("peak FLOP/s (a large matrix product)"),
        _("memory bandwidth (a large copy within the device)"),
        _("host to device copy, pinned memory"),
    ]
    ours += [f"{peak / 1e12:,.3f} TFLOP/s", gigabytes(bandwidth), _("not measured")]
    theirs += [
        f"{roofs['peak_flops'] / 1e12:,.3f} TFLOP/s",
        gigabytes(roofs["bandwidth_bytes_per_s"]),
        gigabytes(copies["h2d_pinned"]),
    ]
    table = pd.DataFrame({here(device_type): ours, receipt_label(receipt): theirs}, index=rows)
    return Beside(heading(found, receipt), table)
