"""Day 5 on a receipt's GPU: ``.item()`` and the loop's floor priced with the receipt's numbers,
beside this machine's, and the original explanation's third part judged with them by
:func:`helpers.claims.judge_issue` (the same verdict function as the lesson's own data).

>>> DAY05_ROWS[:3]
('item', 'recording', 'launches')
"""

from __future__ import annotations

import pandas as pd

from helpers import receipts
from helpers.claims import Judgement, judge_issue
from helpers.i18n import _, word
from helpers.narration import Beside, heading, here, microseconds, receipt_label
from helpers.observation import STUDENT_EPOCHS, STUDENT_RUNS
from helpers.receipts import Receipt, Shelf


def busy_share(receipt: Receipt) -> float | None:
    """The share of a lesson-loop epoch with the device busy: ``day05.busy_share`` when the
    receipt has it, else its day-7 figure of the lesson loop (``None`` when neither)."""
    if receipt["day05"].get("busy_share") is not None:
        return receipt["day05"]["busy_share"]
    lesson = [f for name, f in receipt["day07"].items() if name.startswith("lesson loop")]
    return lesson[0]["device busy share"] if lesson else None


KEPT = "losses kept on the device"
"""The variant of day 5 that records without a synchronisation (helpers.loops)."""
DAY05_ROWS = ("item", "recording", "launches", "lesson", "kept", "fastest", "student")
"""Day 5's prices, by key: the rows of :func:`day05`'s table, and the keys of its ``here``."""


def _time(key: str, seconds: float | None) -> str:
    """Seconds for the whole run (``student``), microseconds for the rest."""
    if key == "student" and seconds is not None:
        return f"{seconds:,.2f} s"
    return microseconds(seconds)


def day05_prices(receipt: Receipt) -> dict[str, float | None]:
    """Seconds, by :data:`DAY05_ROWS` key, on the receipt's device: one ``.item()`` alone; one
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
        "fastest": variants[day05["fastest"]]["s_per_epoch"],
        "student": STUDENT_EPOCHS * kept + recordings * recording,
    }


def day05_judgement(receipt: Receipt) -> Judgement | None:
    """The original explanation's third part (asynchronous submission) judged with the receipt's
    numbers by :func:`helpers.claims.judge_issue`: an epoch that keeps its losses on the device,
    the busy share of the lesson loop, the share of the student's rarest run (10 recordings in
    20,000 epochs) spent in the recordings' waits, and the fastest variant's speed-up (the lower
    quartile over its rounds, ``speedup_q1``: the verdict says "in three rounds out of four").
    ``None`` when the receipt has no busy share of the lesson loop or no lower quartile."""
    busy = busy_share(receipt)
    fastest = receipt["day05"]["variants"][receipt["day05"]["fastest"]]
    if busy is None or not fastest.get("speedup_q1"):
        return None
    prices = day05_prices(receipt)
    waits = prices["recording"] * STUDENT_RUNS[-1][1]
    sync_share = waits / (STUDENT_EPOCHS * prices["kept"] + waits)
    return judge_issue(prices["kept"], busy, sync_share, fastest["speedup_q1"], receipt.device)


def beside(
    measured: dict[str, float], verdict: Judgement, device_type: str, found: Shelf | None = None
) -> Beside:
    """Day 5: ``.item()``, the loop's floor and its variants priced on the receipt's device beside
    this machine's (``measured``: seconds by :data:`DAY05_ROWS` key, those measured here), and the
    third part of the explanation judged with both (``verdict``: this machine's)."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    prices = day05_prices(receipt)
    names = {k: word(receipt["day05"][k]) for k in ("lesson", "fastest")}  # data keys, shown
    rows = {
        "item": _("one .item(), alone"),
        "recording": _("one recording inside the loop (its price b)"),
        "launches": _("launching one epoch's kernels (the launch floor)"),
        "lesson": _("an epoch of the lesson loop ({lesson})"),
        "kept": _("an epoch with the losses kept on the device (no waits)"),
        "fastest": _("an epoch of the fastest variant ({fastest})"),
        "student": _("the student's run priced: 20,000 epochs, 200 recordings"),
    }
    index = [rows[k].format(**names) for k in DAY05_ROWS]
    table = pd.DataFrame(
        {
            here(device_type): [_time(k, measured.get(k)) for k in DAY05_ROWS],
            receipt_label(receipt): [_time(k, prices[k]) for k in DAY05_ROWS],
        },
        index=index,
    )
    notes = [heading(found, receipt)]
    there = day05_judgement(receipt)
    if there is not None:
        said = {"here": verdict.shown_verdict(), "there": there.shown_verdict()}
        notes.append(
            _(
                "**The third part (asynchronous submission):** here *{here}*; on "
                "{label} *{there}*. {evidence}"
            ).format(**said, label=receipt_label(receipt), evidence=there.evidence)
        )
    elif busy_share(receipt) is None:
        notes.append(
            _(
                "This receipt has no busy share of the lesson loop, so the third part "
                "is not judged on it."
            )
        )
    else:
        notes.append(
            _(
                "This receipt keeps each variant's median speed-up but not the lower "
                "quartile of its rounds, so the third part is not judged on it "
                "(`python -m helpers receipt` keeps both)."
            )
        )
    return Beside("\n\n".join(notes), table)
