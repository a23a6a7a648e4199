"""The lesson's loop priced on a receipt's device: one ``.item()``, one recording, an epoch's
launches, an epoch of each variant, and the student's run, from the figures a receipt keeps
(day 5a, section 7: the same parts on a GPU, from a receipt).

A receipt (:mod:`helpers.receipts`) holds what day 5 measured on a GPU: ``sync`` (one small
kernel's launch, one ``.item()``) and ``day05`` (the fixes' seconds per epoch, kernels per epoch,
the busy share of a lesson epoch). This module only computes with them; what they say about the
lesson's explanation is :mod:`helpers.day05a`'s.

>>> ROWS[:3]
('item', 'recording', 'launches')
"""

from __future__ import annotations

import re

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


def every(receipt: Receipt) -> int:
    """How often the receipt's lesson loop recorded: ``day05.every``, or in older receipts the
    number in the lesson loop's name (``"lesson loop, .item() every 100 epochs"``).

    >>> every({"day05": {"lesson": "lesson loop, .item() every 100 epochs"}})
    100
    """
    day05 = receipt["day05"]
    if day05.get("every"):
        return int(day05["every"])
    found = re.search(r"every (\d+) epochs", day05["lesson"])
    return int(found[1]) if found else 1


def recording_told(receipt: Receipt) -> bool:
    """Whether the receipt tells the price of a recording from noise: the loop that keeps its
    losses on the device was faster than the lesson loop in three rounds out of four (the lower
    quartile of its speed-up above 1). Without a kept variant or its quartile: ``False``."""
    kept = receipt["day05"]["variants"].get(KEPT, {})
    return kept.get("speedup_q1", 0.0) > 1.0


def prices(receipt: Receipt) -> dict[str, float]:
    """Seconds, by :data:`ROWS` key, on the receipt's device: one ``.item()`` alone; one
    recording inside the loop (an epoch of the lesson loop, less an epoch of the same loop
    keeping its losses on the device, times the epochs per recording, :func:`every`: that
    difference per epoch is the recordings' cost spread over the epochs between them; check
    :func:`recording_told` before reading it as a price); launching an epoch's kernels; an epoch
    of the lesson loop, of the loop without synchronisations, and of the fastest variant; and the
    student's run priced with them (20,000 epochs, 200 recordings)."""
    day05, sync = receipt["day05"], receipt["sync"]
    variants = day05["variants"]
    lesson = variants[day05["lesson"]]["s_per_epoch"]
    kept = variants[KEPT]["s_per_epoch"] if KEPT in variants else lesson - sync["item_s"]
    recording = max(lesson - kept, 0.0) * every(receipt)
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


def sweeps(receipt: Receipt) -> dict[str, tuple[list[float], list[float]]]:
    """The recording sweeps the receipt holds, by regime (``launch-bound``, ``device-bound``):
    (recordings, seconds) for every run, ready for :func:`helpers.stats.check_line`. Empty for a
    receipt measured before the sweeps were recorded."""
    found = {}
    for regime, sweep in (receipt["day05"].get("sweeps") or {}).items():
        pairs = zip(sweep["recordings"], sweep["seconds"], strict=True)
        xs = [x for x, runs in pairs for _run in runs]
        found[regime] = (xs, [s for runs in sweep["seconds"] for s in runs])
    return found
