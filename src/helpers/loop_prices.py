"""The lesson's loop priced on a receipt's device: one ``.item()``, one recording, an epoch's
launches, an epoch of each variant, and the student's run, from the figures a receipt keeps
(day 5, section 10: the same parts on a GPU, from a receipt).

A receipt (:mod:`helpers.receipts`) holds what day 5 measured on a GPU: ``sync`` (one small
kernel's launch, one ``.item()``) and ``day05`` (the fixes' seconds per epoch, kernels per epoch,
the busy share of a lesson epoch). This module only computes with them; what they say about the
lesson's explanation is :mod:`helpers.day05a`'s.

>>> ROWS[:3]
('item', 'recording', 'launches')
"""

from __future__ import annotations

from helpers.observation import STUDENT_EPOCHS, STUDENT_RUNS
from helpers.receipts import Receipt

KEPT = "losses kept on the device"
"""The variant of day 5 that records without a synchronisation (helpers.loops)."""
ROWS = ("item", "recording", "launches", "lesson", "kept", "fastest", "student")
"""The prices :func:`prices` returns, by key, in the order a lesson shows them."""


def busy_share(receipt: Receipt) -> float | None:
    """The share of a lesson-loop epoch with the device busy: ``day05.busy_share`` when the
    receipt has it, else its day-7 figure of the lesson loop (``None`` when neither)."""
    if receipt["day05"].get("busy_share") is not None:
        return receipt["day05"]["busy_share"]
    lesson = [f for name, f in receipt["day07"].items() if name.startswith("lesson loop")]
    return lesson[0]["device busy share"] if lesson else None


def fastest(receipt: Receipt) -> dict:
    """The receipt's figures of its fastest variant: ``s_per_epoch``, ``speedup`` (the median
    over its rounds) and, in newer receipts, ``speedup_q1`` (the lower quartile)."""
    return receipt["day05"]["variants"][receipt["day05"]["fastest"]]


def prices(receipt: Receipt) -> dict[str, float]:
    """Seconds, by :data:`ROWS` key, on the receipt's device: one ``.item()`` alone; one
    recording inside the loop (the lesson loop, which records every epoch, less the same loop
    keeping its losses on the device); launching an epoch's kernels; an epoch of the lesson loop,
    of the loop without synchronisations, and of the fastest variant; and the student's run
    priced with them (20,000 epochs, 200 recordings)."""
    day05, sync = receipt["day05"], receipt["sync"]
    variants = day05["variants"]
    lesson = variants[day05["lesson"]]["s_per_epoch"]
    kept = variants[KEPT]["s_per_epoch"] if KEPT in variants else lesson - sync["item_s"]
    recording = max(lesson - kept, 0.0)
    recordings = STUDENT_RUNS[0][1]
    return {
        "item": sync["item_s"],
        "recording": recording,
        "launches": day05["kernels_per_epoch"] * sync["launch_s"],
        "lesson": lesson,
        "kept": kept,
        "fastest": fastest(receipt)["s_per_epoch"],
        "student": STUDENT_EPOCHS * kept + recordings * recording,
    }


def rare_sync_share(priced: dict[str, float]) -> float:
    """The share of the student's rarest run (10 recordings in 20,000 epochs) that the
    recordings' waits take, at the receipt's :func:`prices`.

    >>> round(rare_sync_share({"recording": 50e-6, "kept": 160e-6}), 6)  # 0.5 ms in 3.2 s
    0.000156
    """
    waits = priced["recording"] * STUDENT_RUNS[-1][1]
    return waits / (STUDENT_EPOCHS * priced["kept"] + waits)
