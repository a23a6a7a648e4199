"""Day 5a · The logging-frequency experiment: the same parts on a GPU, from a receipt (section 7)

A receipt's prices of the lesson's loop beside this machine's (:mod:`helpers.loop_prices`
computes them), and parts 2 and 3 of the explanation judged with its numbers by the same rules
(:mod:`helpers.day05a_rules`), said by :mod:`helpers.day05a_evidence`.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from helpers import loop_prices, receipts
from helpers.day05a_evidence import evidence, rule_line, shown_verdict
from helpers.day05a_rules import Judgement, judge_receipt, judge_sync
from helpers.i18n import _, word
from helpers.narration import Beside, heading, here, microseconds, receipt_label
from helpers.observation import STUDENT_COMPUTE_S, STUDENT_RUNS
from helpers.receipts import Receipt, Shelf
from helpers.stats import check_line


def _time_of(key: str, seconds: float | None) -> str:
    """Seconds for the whole run (``student``), microseconds for the rest."""
    if key == "student" and seconds is not None:
        return f"{seconds:,.2f} s"
    return microseconds(seconds)


def _recording_note(receipt: Receipt) -> str:
    """Whether the receipt's price of one recording can be told from noise."""
    every = loop_prices.every(receipt)
    if loop_prices.recording_told(receipt):
        return _(
            "Its price of one recording is the lesson loop's epoch less the same loop's epoch "
            "without `.item()`, times the {every} epochs between recordings; it is told from "
            "noise (faster without the recordings in three rounds out of four)."
        ).format(every=every)
    return _(
        "Its price of one recording is the lesson loop's epoch less the same loop's epoch "
        "without `.item()`, times the {every} epochs between recordings; **it cannot be told "
        "from noise** (without the recordings the loop was not faster in three rounds out of "
        "four): the true price may be zero, or larger."
    ).format(every=every)


def _pace_note(prices: Mapping[str, float], here_epoch: float | None) -> str:
    """Why the receipt's GPU may take longer per epoch of the lesson's loop than this CPU."""
    if here_epoch is None or prices["lesson"] <= here_epoch:
        return ""
    return _(
        "An epoch of the lesson loop takes longer on that GPU ({there}) than here ({here}): on "
        "tensors this small each operation costs a launch from the host's Python, not "
        "arithmetic (its own table: launching an epoch's kernels), and Python and autograd take "
        "most of the rest, as day 5b shows for this machine's epoch."
    ).format(there=microseconds(prices["lesson"]), here=microseconds(here_epoch))


def _student_note(prices: Mapping[str, float]) -> str:
    """The student's own run beside the same run priced on the receipt's machine."""
    every, recordings, remaining = STUDENT_RUNS[0]
    return _(
        "The student's own run recording every {every} epochs took about {theirs:.1f} s on "
        "their consumer GPU (a remaining time of {remaining:.2f} s plus the {compute:g} s they "
        "subtracted); priced with this receipt it would take {ours:.1f} s: another GPU, and "
        "another host CPU issuing its work."
    ).format(every=every, theirs=remaining + STUDENT_COMPUTE_S, remaining=remaining,
             compute=STUDENT_COMPUTE_S, ours=prices["student"])  # fmt: skip


def _sweep_notes(receipt: Receipt) -> list[str]:
    """Part 2 judged on each of the receipt's recording sweeps (both regimes on a GPU)."""
    found = loop_prices.sweeps(receipt)
    if not found:
        return [
            _(
                "**The second part (a threshold):** not measured on this receipt, which "
                "predates the recording sweeps; the next `python -m helpers receipt` on a GPU "
                "records both regimes."
            )
        ]
    said = []
    for regime, (xs, ys) in found.items():
        judged = judge_sync(check_line(xs, ys), device_type=receipt.device)
        said.append(
            _("**The second part, {regime} loop:** *{verdict}*. {rule}. {evidence}").format(
                regime=word(regime),
                verdict=shown_verdict(judged),
                rule=rule_line(judged),
                evidence=evidence(judged),
            )
        )
    return said


def beside_receipt(
    measured: Mapping[str, float], verdict: Judgement, device_type: str, found: Shelf | None = None
) -> Beside:
    """Section 7: ``.item()``, the loop's floor and its variants priced on the receipt's device
    (:func:`helpers.loop_prices.prices`) beside this machine's (``measured``: seconds by
    :data:`helpers.loop_prices.ROWS` key, those measured here), and the third part of the
    explanation judged with both (``verdict``: this machine's; :func:`judge_receipt`)."""
    found = receipts.load_all() if found is None else found
    receipt = found.pick()
    if receipt is None:
        return Beside(heading(found, None))
    prices = loop_prices.prices(receipt)
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
    table = pd.DataFrame(
        {
            here(device_type): [_time_of(k, measured.get(k)) for k in loop_prices.ROWS],
            receipt_label(receipt): [_time_of(k, prices[k]) for k in loop_prices.ROWS],
        },
        index=[rows[k].format(**names) for k in loop_prices.ROWS],
    )
    notes = [heading(found, receipt), _recording_note(receipt), _student_note(prices)]
    notes += [note for note in [_pace_note(prices, measured.get("lesson"))] if note]
    notes += _sweep_notes(receipt)
    there = judge_receipt(receipt)
    if there is not None:
        notes.append(
            _(
                "**The third part (asynchronous submission):** here *{here}*; on "
                "{label} *{there}*. {evidence}"
            ).format(
                here=shown_verdict(verdict),
                there=shown_verdict(there),
                label=receipt_label(receipt),
                evidence=evidence(there),
            )
        )
    elif loop_prices.busy_share(receipt) is None:
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
