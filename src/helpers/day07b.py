"""Day 7b · One device, fast. Sections 1 and 2: the model, and the lever ladder

What the measurements of ``notebooks/day07b_one_device_fast.ipynb`` mean, in the course's
language; the right peak and the roofline (sections 3 and 4) speak in :mod:`helpers.day07b_peaks`,
the memory lab and the sample (sections 5 and 6) in :mod:`helpers.day07b_memory`.

The numbers come from modules that only compute: the model from :mod:`helpers.charlm`, the
ladder's rungs (speed-ups round by round, loss checks) from :mod:`helpers.ladder`. The rules that
turn them into words are here, with their thresholds as the constants below: when a lever counts
as faster (:data:`CLEAR`), which loss differences are rounding (:data:`SAME`, :data:`CLOSE`).

>>> from helpers.timing import Measurement
>>> speed(Measurement([2.9, 3.1, 3.0])), speed(Measurement([0.03, 0.04, 0.03]))
('faster', 'slower')
"""

from __future__ import annotations

import pandas as pd

from helpers.i18n import N_, _, word
from helpers.ladder import Fall, Rung
from helpers.timing import Measurement

NAMES = (
    N_("lever"),
    N_("applies"),
    N_("number type"),
    N_("batch"),
    N_("tokens per second"),
    N_("the rung before, same rounds"),
    N_("× the rung before"),
    N_("middle half of the rounds"),
    N_("kept"),
    N_("kept for backward (MB)"),
    N_("count"),
    N_("peak allocated (MB)"),
    N_("yes"),
    N_("no"),
    N_("measured peak (TFLOP/s)"),
    N_("datasheet (TFLOP/s)"),
    N_("faster"),
    N_("slower"),
    N_("no clear difference"),
)
"""The names the lesson's tables use: English in the data, shown in the course's language by
:func:`helpers.show.localised` and :func:`helpers.i18n.word`."""


# --- Section 2: the lever ladder ----------------------------------------------------------------

CLEAR = 1.05
"""A lever made the step *faster* when its median speed-up over the rung before is at least this
(5 %: more than a quiet machine's noise) and it was faster in most rounds (first quartile of the
round-by-round ratios above 1); *slower* in the mirror case; otherwise the rounds cannot tell."""


def speed(speedup: Measurement) -> str:
    """``'faster'``, ``'slower'`` or ``'no clear difference'`` (:data:`CLEAR`), from the ratios
    ``time before / time after`` of the rounds of one interleaved comparison."""
    q1, q3 = speedup.quartiles
    if speedup.median >= CLEAR and q1 > 1:
        return "faster"
    if speedup.median <= 1 / CLEAR and q3 < 1:
        return "slower"
    return "no clear difference"


def keep(speedup: Measurement, fall: Fall) -> bool:
    """The ladder's rule: a lever stays only when it made the step faster (:func:`speed`) and the
    loss still fell with it. A lever that did not pay on this device is left off, and the next
    one is tried on the last rung kept."""
    return speed(speedup) == "faster" and fall.falls


def why_not(reason: str) -> str:
    """Why a lever does not apply here, from :func:`helpers.ladder.why_not`'s reason."""
    reasons = {
        "TF32 changes nothing here": _(
            "allowing TF32 left a float32 product's bits unchanged on this device (TF32 needs "
            "an NVIDIA GPU of compute capability 8.0 or newer), so there is nothing to time"
        ),
        "no fused AdamW for this device": _("this PyTorch has no fused AdamW for this device"),
        "needs an NVIDIA GPU": _(
            "CUDA graphs record and replay a GPU's kernel launches, and autotuning picks GPU "
            "kernels: an NVIDIA GPU only"
        ),
        "not compiled in fast mode": _(
            "not compiled in fast mode: a cold compile takes tens of seconds on a CPU (full "
            "mode compiles it)"
        ),
        "not tried in this run": _(
            "not tried here: autotuning takes minutes of compiling (the receipt tries it on a GPU)"
        ),
        "torch.compile cannot build here": _(
            "torch.compile cannot build its code here (day 5 says why and how to fix it)"
        ),
    }
    return reasons[reason]


def rung_line(rung: Rung) -> str:
    """One rung in a sentence: not applied and why, or its speed-up, the verdict, kept or not."""
    name = word(rung.lever)
    if rung.why_not is not None:
        return _("**{lever}**: not applied: {why}.").format(lever=name, why=why_not(rung.why_not))
    if rung.speedup is None:
        return _("**{lever}**: the first rung, {kind} products, batch {batch}.").format(
            lever=name, kind=rung.setup.number_type, batch=rung.setup.batch
        )
    q1, q3 = rung.speedup.quartiles
    said = {
        "lever": name,
        "ratio": rung.speedup.median,
        "q1": q1,
        "q3": q3,
        "verdict": word(speed(rung.speedup)),
    }
    if rung.kept:
        line = _(
            "**{lever}**: {ratio:.2f}× the speed of the rung before (middle half of the "
            "rounds {q1:.2f}× to {q3:.2f}×): {verdict}, kept."
        )
    elif not rung.fall.falls:
        line = _(
            "**{lever}**: {ratio:.2f}× the speed of the rung before (middle half of the "
            "rounds {q1:.2f}× to {q3:.2f}×), but the loss did not fall: left off."
        )
    else:
        line = _(
            "**{lever}**: {ratio:.2f}× the speed of the rung before (middle half of the "
            "rounds {q1:.2f}× to {q3:.2f}×): {verdict}, left off."
        )
    return line.format(**said)


SAME = 1e-4
"""Trained losses this close (relative) are the *same*: float32 sums in another order, or 16-bit
rounding too small to show over a few steps."""
CLOSE = 1e-2
"""Within this (1 %) the loss falls the same way but its value moved: the lever changed the
numbers. Beyond it, the lever changed the training."""


def fall_line(rung: Rung, steps: int) -> str:
    """What the short training with the lever (``steps`` steps' tokens) says about the results:
    identical, the same within rounding (:data:`SAME`), close (:data:`CLOSE`), different, or
    different by design (the larger batch takes fewer, larger steps)."""
    fall, name = rung.fall, word(rung.lever)
    said = {
        "lever": name,
        "before": fall.before,
        "after": fall.after,
        "steps": steps,
        "difference": fall.difference,
    }
    if not fall.falls:
        return _(
            "**{lever}**: the loss did not fall ({after:.4f} after training, from "
            "{start:.4f}): this lever broke training here."
        ).format(start=fall.start, **said)
    if rung.lever == "larger batch":
        return _(
            "**{lever}** changes the training by design: over the same tokens it takes "
            "fewer, larger steps at the same learning rate. Held-out loss after {steps} "
            "steps' tokens: {after:.4f}, against {before:.4f}."
        ).format(**said)
    if fall.difference == 0:
        return _(
            "**{lever}**: the same held-out loss to the last bit ({after:.6f}) after {steps} steps."
        ).format(**said)
    if fall.difference <= SAME:
        return _(
            "**{lever}**: the same loss within rounding after {steps} steps ({after:.6f} "
            "against {before:.6f}, {difference:.1e} apart)."
        ).format(**said)
    if fall.difference <= CLOSE:
        return _(
            "**{lever}** changed the numbers, not the training: after {steps} steps the "
            "held-out loss is {after:.4f} against {before:.4f} ({difference:.2%} apart); "
            "it falls the same way."
        ).format(**said)
    return _(
        "**{lever}** changed the training: after {steps} steps the held-out loss is "
        "{after:.4f} against {before:.4f} ({difference:.1%} apart)."
    ).format(**said)


def ladder_table(rungs: list[Rung]) -> pd.DataFrame:
    """The ladder as a table: one row per lever, its numbers or why it did not apply."""
    rows = []
    for rung in rungs:
        applied = rung.why_not is None
        q1, q3 = rung.speedup.quartiles if rung.speedup else (None, None)
        rows.append(
            {
                "lever": rung.lever,
                "applies": "yes" if applied else rung.why_not,
                "number type": rung.setup.number_type if applied else None,
                "batch": rung.setup.batch if applied else None,
                "tokens per second": rung.tokens_per_s,
                "the rung before, same rounds": rung.before_tokens_per_s,
                "× the rung before": rung.speedup.median if rung.speedup else None,
                "middle half of the rounds": f"{q1:.2f}-{q3:.2f}" if rung.speedup else None,
                "kept": ("yes" if rung.kept else "no") if applied else None,
                "kept for backward (MB)": rung.saved_bytes / 1e6 if rung.saved_bytes else None,
                "peak allocated (MB)": rung.peak_bytes / 1e6 if rung.peak_bytes else None,
            }
        )
    return pd.DataFrame(rows).set_index("lever")
