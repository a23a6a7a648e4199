"""Day 5a · The logging-frequency experiment: the lesson's explanation judged, in words (section 7)

Each :class:`helpers.day05a_rules.Judgement` said as a verdict, traced to its rule in one line
(:func:`rule_line`), with its evidence, and the verdict table. The same parts judged on a
receipt's GPU are :mod:`helpers.day05a_receipt`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from helpers import narration
from helpers.day05a_rules import (
    CLAIMED,
    COMPUTE_FACTOR,
    MATTERS_SHARE,
    OVERHEAD_SHARE,
    PARTS,
    SPEEDUP_LOW,
    WAIT_SHARE,
    WAITING_DEVICES,
    Judgement,
)
from helpers.i18n import _, word
from helpers.narration import capital


def _us(seconds: float) -> str:
    value = seconds * 1e6
    return f"{value:,.0f} µs" if abs(value) >= 100 else f"{value:.3g} µs"


def shown_verdict(judgement: Judgement) -> str:
    """The verdict in the course's language."""
    cpu = "not testable on a "
    if judgement.verdict.startswith(cpu):
        return _("not testable on a {device}").format(device=judgement.verdict.removeprefix(cpu))
    return word(judgement.verdict)


def _launches(operators: float, computing: float, device_type: str) -> str:
    """What the operators an epoch dispatches are on ``device_type``."""
    if device_type == "cuda":
        return _("{computing:.0f} of them compute, each a kernel launch").format(
            computing=computing
        )
    if device_type == "mps":
        return _("{computing:.0f} of them compute, each a GPU kernel").format(computing=computing)
    return _(
        "{computing:.0f} of them compute; a CPU launches no kernels, so "
        "dispatch, autograd and the optimiser's Python stand in for the "
        "launches"
    ).format(computing=computing)


def _floor_evidence(j: Judgement) -> str:
    f = j.figures
    floor = f["floor"]
    head = _(
        "The floor is real: {value} per epoch (95% interval {low} to {high}), "
        "paid whatever is recorded; {outside:.0%} of an epoch lies outside the "
        "operators' own time"
    ).format(value=_us(floor.value), low=_us(floor.low), high=_us(floor.high), outside=f["outside"])
    loop = _(
        "The `for` statement with its `%` test takes {ns:.0f} ns of it "
        "({percent:.2g}%): the loop that carries a floor is the Python each "
        "epoch runs, not the loop statement"
    ).format(ns=f["bare_loop"] * 1e9, percent=f["bare_loop"] / floor.value * 100)
    if "overhead" in j.unmet:
        return _(
            "{head}: most of the floor is the operators' work itself, not the loop "
            "or the launches. {loop}."
        ).format(head=head, loop=loop)
    return _(
        "{head}: overhead, the cost of issuing the {operators:.0f} operators "
        "each epoch dispatches ({launches}). {loop}."
    ).format(
        head=head,
        operators=f["operators"],
        launches=_launches(f["operators"], f["computing"], j.device),
        loop=loop,
    )


def _shape(j: Judgement) -> str:
    """What the time against the recordings looks like (:func:`helpers.day05a_rules.shape`)."""
    f = j.figures
    said = {
        "knee": f["knee"],
        "below": narration.interval(f["below"], 1e6, " µs", 2),
        "bend": narration.interval(f["bend"], 1e3, " ms", 1),
        "matters": MATTERS_SHARE,
    }
    shapes = {
        "threshold": _(
            "a threshold: up to about {knee:,.0f} recordings a recording costs {below} (cannot be "
            "told from zero), after that the line turns upwards (bend {bend})"
        ),
        "curved": _(
            "a bend without a flat start: the slope changes at about {knee:,.0f} recordings "
            "(bend {bend}), but before that a recording already costs {below}"
        ),
        "straight": _(
            "one straight line: no bend told from zero (bend {bend}), and a bend as large as "
            "{matters:.0%} of a run would have shown"
        ),
        "cannot tell": _(
            "the runs cannot tell a straight line from a bend (bend {bend}): too noisy to rule out "
            "a bend as large as {matters:.0%} of a run"
        ),
    }
    return shapes[j.shape].format(**said)


def _sync_evidence(j: Judgement) -> str:
    price = j.figures["price"]
    said = {
        "priced": _("one recording costs {price}").format(
            price=narration.interval(price, 1e6, " µs", 2)
        ),
        "zero": narration.zero(price),
        "shape": _shape(j),
        "sharp": _("these runs would have detected {smallest} or more").format(
            smallest=_us(j.figures["smallest_slope"])
        ),
        "device": j.device,
    }
    if "queued" in j.unmet:
        return _(
            "On a {device} nothing is queued, so `.item()` has nothing to wait "
            "for: it reads a number already in memory. What these runs saw "
            "({priced}; {zero}; {shape}) is the work of recording, or noise, "
            "not a wait; run this notebook on a GPU to test the claim."
        ).format(**{**said, "device": j.device.upper()})
    if "priced" in j.unmet:
        return _(
            "On this {device} device the waits do not show: {priced}: {zero}; "
            "{sharp}, so if they cost, they cost less."
        ).format(**said)
    if "positive" in j.unmet:
        return _(
            "Recording more made runs faster ({priced}): a drift of the machine, "
            "not a cost. Re-run with more rounds."
        ).format(**said)
    if "threshold" in j.unmet:
        return _(
            "The waits are real: {priced}. But the time shows {shape}: no threshold, the "
            "waits matter in proportion to their number."
        ).format(**said)
    return _("The waits are real: {priced}, and the time shows {shape}.").format(**said)


def _issue_evidence(j: Judgement) -> str:
    f = j.figures
    facts = _(
        "with rare recordings an epoch takes {epoch}, {overhead:.0%} of it "
        "outside the operators (overhead) and {sync_share:.1%} of a run in the "
        "recordings' waits; issuing the same work with less overhead made training "
        "at least {speedup_low:.2f}× as fast in three rounds out of four"
    ).format(
        epoch=_us(f["epoch"]),
        overhead=f["overhead"],
        sync_share=f["sync_share"],
        speedup_low=f["speedup_low"],
    )
    reasons = {
        "overhead": _("most of an epoch is spent inside operators: the work, not issuing it"),
        "waits": _("the waits still take most of the time"),
        "speed-up": _("issuing less did not make it reliably faster"),
    }
    failed = [reasons[name] for name in j.unmet if name in reasons]
    if failed:
        said = _("{facts}; but {reasons}.").format(facts=facts, reasons=_("; ").join(failed))
        return capital(said)
    if "queued" in j.unmet:
        return _(
            "On a CPU nothing is queued (the CPU runs each operator itself), so "
            "only the second half can be tested, and it holds: {facts}."
        ).format(facts=facts)
    return capital(_("{facts}.").format(facts=facts))


def _compute_evidence(j: Judgement) -> str:
    f = j.figures
    head = _(
        "{seconds:g} s over {epochs} epochs is {per_epoch} per epoch. As "
        "arithmetic ({flops:,.0f} FLOPs per epoch) that is {gflops:.3g} "
        "GFLOP/s, {below:,.0f}× below this machine's own peak: it is not "
        "arithmetic time. Here the operators' own time over {epochs} epochs is "
        "{inside_total:.2g} s ({inside} per epoch)"
    ).format(
        seconds=f["seconds"],
        epochs=f["epochs"],
        per_epoch=_us(f["seconds"] / f["epochs"]),
        flops=f["flops"],
        gflops=f["implied_flops"] / 1e9,
        below=f["peak_flops"] / f["implied_flops"],
        inside_total=f["inside_total"],
        inside=_us(f["inside_operators"]),
    )
    if "within" in j.unmet:
        return _(
            "{head}: the {seconds:g} s are more than twice that, so they must hold "
            "overhead as well; the lesson never said, so its remaining time is not "
            "well defined either."
        ).format(head=head, seconds=f["seconds"])
    return _(
        "{head}: the {seconds:g} s are within twice that, so they could be "
        "time inside operators (on a GPU, kernels that take microseconds "
        "however little they compute); the lesson never said, so its remaining "
        "time is not well defined either."
    ).format(head=head, seconds=f["seconds"])


_EVIDENCE = {
    "floor": _floor_evidence,
    "sync": _sync_evidence,
    "issue": _issue_evidence,
    "compute": _compute_evidence,
}


def evidence(judgement: Judgement) -> str:
    """The numbers behind the verdict, as a sentence in the course's language."""
    return _EVIDENCE[judgement.part](judgement)


def _check(name: str, value: str, rule: str, met: bool) -> str:
    if not rule:
        return _("{name}, {value} {mark}").format(name=name, value=value, mark="✓" if met else "✗")
    return _("{name} {value} {rule} {mark}").format(
        name=name, value=value, rule=rule, mark="✓" if met else "✗"
    )


def _checks(j: Judgement) -> list[str]:
    """Each condition of the part's rule: the figure, the threshold, and whether it was met."""
    f, t = j.figures, j.thresholds
    if j.part == "floor":
        outside = _("{share:.0%} (100% − {inside:.0%} inside)").format(
            share=f["outside"], inside=1 - f["outside"]
        )
        return [
            _check(_("floor"), narration.interval(f["floor"], 1e6, " µs", 0), "> 0", True),
            _check(_("outside operators"), outside, f"> {t['outside']:.0%}",
                   f["outside"] > t["outside"]),
        ]  # fmt: skip
    if j.part == "sync":
        queued = j.device in WAITING_DEVICES
        found = [_check(_("needs a GPU (cuda or mps)"), _("here: {device}").format(device=j.device),
                        "", queued)]  # fmt: skip
        if queued:
            price = f["price"]
            found.append(_check(_("price b"), narration.interval(price, 1e6, " µs", 2), "> 0",
                                price.distinguishable and price.value > 0))  # fmt: skip
            threshold = j.shape == "threshold"
            found.append(_check(_("shape"), word(j.shape), _("= threshold"), threshold))
        return found
    if j.part == "issue":
        return [
            _check(_("outside operators"), f"{f['overhead']:.0%}", f"> {OVERHEAD_SHARE:.0%}",
                   f["overhead"] > OVERHEAD_SHARE),
            _check(_("waits (b × recordings ÷ run)"), f"{f['sync_share']:.1%}",
                   f"< {WAIT_SHARE:.0%}", f["sync_share"] < WAIT_SHARE),
            _check(_("less issuing, speed-up (lower quartile)"), f"{f['speedup_low']:.2f}×",
                   f"> {SPEEDUP_LOW:.1f}×", f["speedup_low"] > SPEEDUP_LOW),
        ]  # fmt: skip
    within = f["seconds"] <= COMPUTE_FACTOR * f["inside_total"]
    compared = _("{seconds:g} s against {factor:g} × {inside:.2g} s = {limit:.2g} s").format(
        seconds=f["seconds"], factor=COMPUTE_FACTOR, inside=f["inside_total"],
        limit=COMPUTE_FACTOR * f["inside_total"],
    )  # fmt: skip
    name = _("the student's 3 s within twice this device's time inside operators")
    return [_check(name, compared, "", within)]


def rule_line(judgement: Judgement) -> str:
    """The verdict traced to its rule in one line: each figure, its threshold, met or not, and
    the verdict they give (e.g. ``floor 593 µs (95% interval 573 to 614 µs) > 0 ✓ · outside
    operators 85% > 50% ✓ → supported``)."""
    return _("{checks} → {verdict}").format(
        checks=" · ".join(_checks(judgement)), verdict=shown_verdict(judgement)
    )


def verdict_row(judgement: Judgement) -> dict:
    """The claim, the verdict and the evidence, headed in the course's language."""
    return {
        _("claim"): word(CLAIMED[judgement.part]),
        _("your data"): shown_verdict(judgement),
        _("rule"): rule_line(judgement),
        _("evidence"): evidence(judgement),
    }


def verdict_table(judgements: Sequence[Judgement]) -> pd.DataFrame:
    """The claims as the index, the verdicts as the one column (the evidence is said apart)."""
    table = pd.DataFrame([verdict_row(j) for j in judgements]).set_index(_("claim"))
    return table[[_("your data"), _("rule")]]


def verdict_lines(judgements: Sequence[Judgement]) -> str:
    """Each verdict, its part and its evidence, as a Markdown list item."""
    return "\n".join(
        _("- **{verdict}** ({part}): {evidence}").format(
            verdict=shown_verdict(j), part=word(PARTS[j.part]), evidence=evidence(j)
        )
        for j in judgements
    )
