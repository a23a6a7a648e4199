"""Day 7b · One device, fast. Sections 3 and 4: the right peak, and the roofline

What each number type's peak, a rung's model FLOP utilisation and its place on the roofline mean,
and a GPU's ladder from a receipt, in the course's language; sections 1 and 2 speak in
:mod:`helpers.day07b`. The numbers come from :mod:`helpers.peaks`, :mod:`helpers.ladder` and
:mod:`helpers.roofline`; the rules are here, with their thresholds as constants: what a model FLOP
utilisation says (:data:`LOW_MFU`, :data:`GOOD_MFU`).

>>> mfu_line("fp32", kind="fp32", achieved=1e9, peak=50e9, fp32_peak=50e9).split("): ")[-1]
'the products are a small part of the step: overhead and memory traffic take the rest.'
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.day05b import ROOF_SHARE
from helpers.i18n import _, word
from helpers.narration import Beside, heading, receipt_label
from helpers.receipts import Shelf

# --- Section 3: the right peak ------------------------------------------------------------------

LOW_MFU = ROOF_SHARE
"""Below this share of the right peak, the products are a small part of the step: overhead and
memory traffic take the rest (the roofline's own rule: arithmetic at the peak would take less than
a quarter of the time, :data:`helpers.day05b.ROOF_SHARE`)."""
GOOD_MFU = 0.4
"""From this share on, a step keeps the arithmetic units as busy as large models' training does
(published runs report 40 to 60 % of the bfloat16 peak)."""


def mfu_line(
    lever: str,
    *,
    kind: str,
    achieved: float,
    peak: float | None,
    fp32_peak: float,
    sheet: float | None = None,
) -> str:
    """A rung's model FLOP utilisation against the measured peak of the type its products ran
    in (``kind``) and, where the course knows the GPU, against its datasheet's (``sheet``); and
    what dividing by the float32 peak instead would have said."""
    said = {"lever": word(lever), "kind": kind, "achieved": achieved / 1e12}
    if peak is None:
        return _(
            "**{lever}** ({kind}): {achieved:.3g} TFLOP/s of model arithmetic; no {kind} "
            "peak measured on this device."
        ).format(**said)
    share = achieved / peak
    said |= {"share": percent(share), "peak": peak / 1e12}
    if share < LOW_MFU:
        verdict = _(
            "the products are a small part of the step: overhead and memory traffic take the rest"
        )
    elif share < GOOD_MFU:
        verdict = _(
            "real arithmetic, with room left: the rest of the step is elementwise work, "
            "memory traffic and launches"
        )
    else:
        verdict = _("as busy as the training of large models gets")
    line = _(
        "**{lever}** ({kind}): {achieved:.3g} TFLOP/s of model arithmetic, **{share}** "
        "of the measured {kind} peak ({peak:.3g} TFLOP/s): {verdict}."
    ).format(verdict=verdict, **said)
    if sheet:
        line += " " + _("Against the datasheet's {kind} peak: {sheet_share}.").format(
            kind=kind, sheet_share=percent(achieved / sheet)
        )
    if kind != "fp32" and fp32_peak:
        line += " " + _(
            "Against the float32 peak it would read {wrong}: the wrong peak "
            "makes it look {times:.1f}× better than it is."
        ).format(wrong=percent(achieved / fp32_peak), times=peak / fp32_peak)
    return line


def percent(share: float) -> str:
    """A share as a percentage with two significant digits: ``'12%'``, ``'0.034%'``."""
    return f"{share * 100:.0f}%" if share >= 0.995 else f"{share * 100:.2g}%"


def regime_line(work, roof) -> str:
    """Where a rung sits on the roofline (:func:`helpers.day05b.regime`): which limit it meets,
    and the share of its time that arithmetic at the peak, and memory traffic at full bandwidth,
    would take."""
    from helpers.day05b import regime

    found = regime(work, roof)
    return _(
        "**{name}**: {regime}: arithmetic at the peak would take {arithmetic:.0%} of its "
        "time, moving its bytes {memory:.0%}."
    ).format(
        name=word(work.name),
        regime=word(found),
        arithmetic=roof.arithmetic_seconds(work) / work.seconds,
        memory=roof.memory_seconds(work) / work.seconds,
    )


def peaks_table(measured: dict, promised: dict | None) -> pd.DataFrame:
    """Each number type's peak: measured here and promised by the datasheet (TFLOP/s)."""
    rows = [
        {
            "number type": kind,
            "measured peak (TFLOP/s)": None if value is None else value / 1e12,
            "datasheet (TFLOP/s)": None
            if not promised or promised[kind] is None
            else promised[kind] / 1e12,
        }
        for kind, value in measured.items()
    ]
    return pd.DataFrame(rows).set_index("number type")


# --- Section 4: a GPU's ladder, from a receipt --------------------------------------------------


def beside_receipt(found: Shelf | None = None) -> Beside:
    """A GPU's ladder and peaks from a receipt (the learner's, else the course's reference):
    its rungs as a table; for a receipt made before this lesson, its float32 peak beside the
    datasheet's peaks for that GPU; without a GPU receipt, how to make one."""
    from helpers.datasheets import datasheet

    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    receipt = None if receipt is None or receipt.device == "cpu" else receipt
    if receipt is None:
        return Beside(heading(found, None))
    text = heading(found, receipt)
    ladder = receipt.payload.get("day07b")
    if ladder is None:
        sheet = datasheet(receipt["machine"]["name"])
        said = {"label": receipt_label(receipt), "fp32": receipt["roofs"]["peak_flops"] / 1e12}
        text += "\n\n" + _(
            "This receipt was made before this lesson: it holds no ladder. Its "
            "float32 matrix product, TF32 off, reached {fp32:,.1f} TFLOP/s."
        ).format(**said)
        if sheet is not None:
            text += " " + _(
                "The datasheet of the {name} promises {fp32:,.1f} TFLOP/s in float32, "
                "{tf32} in TF32 and {bf16} in bfloat16 ({source}): the same "
                "products in TF32 or bfloat16 can run many times faster."
            ).format(
                name=sheet.name,
                fp32=sheet.fp32 / 1e12,
                source=sheet.source,
                tf32=_tflops(sheet.tf32),
                bf16=_tflops(sheet.bf16),
            )
        return Beside(text)
    rows = [
        {
            "lever": r["lever"],
            "applies": "yes" if r["why_not"] is None else r["why_not"],
            "number type": r["number_type"],
            "batch": r["batch"],
            "tokens per second": r["tokens_per_s"],
            "× the rung before": r["speedup"],
            "kept": None if r["why_not"] else ("yes" if r["kept"] else "no"),
            "peak allocated (MB)": None if r["peak_bytes"] is None else r["peak_bytes"] / 1e6,
        }
        for r in ladder["rungs"]
    ]
    return Beside(text, pd.DataFrame(rows).set_index("lever"))


def _tflops(value: float | None) -> str:
    return _("none") if value is None else f"{value / 1e12:,.1f} TFLOP/s"
