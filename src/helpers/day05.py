"""Day 5 · The logging-frequency timing experiment

What the measurements of ``notebooks/day05_logging_frequency.ipynb`` mean, in the course's
language: the verdict rules that judge the lesson's explanation part by part (section 10), with
their thresholds as the named constants below, and the sentences each section says its findings
in. The numbers come from modules that only compute (:mod:`helpers.stats`, :mod:`helpers.timing`,
:mod:`helpers.profiling`, :mod:`helpers.roofline`, :mod:`helpers.compiled`,
:mod:`helpers.loop_prices`); the names the lesson's code keys its results by (``"every 100"``,
``"hand-written step"``) stay English there and are shown through :func:`helpers.i18n.word`.

A learner ran the lesson's homework on a consumer GPU: 20000 epochs of the Iris network, recording
the loss every N epochs. Their "remaining time" was the total minus "about 3 s of necessary
compute" (:data:`helpers.observation.STUDENT_RUNS`). The lesson explained the result in three parts:

1. a **floor** (底噪) that every epoch pays whether or not it records: the Python ``for`` loop
   itself plus launching GPU kernels (启动开销): :func:`judge_floor`;
2. ``.item()`` is a **synchronisation** (同步) that makes the CPU wait for the GPU, with a
   **threshold effect** (阈值效应): below some recording frequency the waits stop mattering:
   :func:`judge_sync`;
3. submission is **asynchronous** (异步): once recordings are rare, how fast the CPU issues
   commands, not the number of syncs, limits the speed: :func:`judge_issue`;

and :func:`judge_compute_claim` asks what its "3 s" can be. Each judge returns a
:class:`Judgement`, a value: the verdict, the figures it was decided from and the thresholds they
were compared with; :func:`evidence` says it. A verdict that the device at hand cannot test says so
instead of guessing.

>>> from helpers.observation import student_fit
>>> single_runs_say(student_fit())
'4 single runs cannot price a recording: no line, straight or not, can be seen in them.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

from helpers import compiled, loop_prices, narration, receipts, roofline
from helpers.i18n import N_, _, word
from helpers.narration import Beside, heading, here, microseconds, receipt_label
from helpers.observation import STUDENT_COMPUTE_S, STUDENT_EPOCHS
from helpers.receipts import Receipt, Shelf
from helpers.stats import AffineFit, Interval, LineCheck

NAMES = (
    N_("record every N"),
    N_("remaining (s)"),
    N_("arithmetic time"),
    N_("time inside operators"),
    N_("overhead (remaining)"),
    N_("wall time"),
    N_("share of the epoch"),
    N_("one run per interval"),
    N_("you: total (s)"),
    N_("you: remaining (s)"),
    N_("student: recordings"),
    N_("student: remaining (s)"),
    N_("you: recordings"),
    N_("shuffled rounds"),
    N_("a: everything else (s per run)"),
    N_("b: one recording inside the loop (µs)"),
    N_("bend across the measured range (ms)"),
    N_("estimate"),
    N_("95% interval: low"),
    N_("95% interval: high"),
    N_("lesson epoch"),
    N_("chain, eager"),
    N_("chain, compiled"),
    N_("fixes"),
    N_("median (s)"),
    N_("epochs per second"),
    N_("speed-up over the lesson loop (median of the rounds)"),
    N_("middle half of the rounds"),
    N_("1. without the profiler, no recordings (3 runs)"),
    N_("5. `a` per epoch, from the straight line"),
    N_("8. 'never', median of section 3's rounds"),
    N_("9. the lesson loop, every 100 epochs, median"),
    N_("every 2"),
    N_("every 5"),
    N_("every 20"),
    N_("every 200"),
    N_("every 500"),
    N_("every 1000"),
    N_("lesson loop, .item() every epoch"),
)
"""The names the lesson's tables, curves and variants use: English in the data (the code indexes
by them), shown in the course's language by :func:`helpers.show.localised` and
:func:`helpers.i18n.word`."""

# ---- the explanation's parts, and the rules that judge them (section 10) ----------------------

CLAIMS = ("floor", "sync", "issue", "compute")
"""The explanation's parts and the lesson's loosest number (:data:`CLAIMED` words them)."""
CLAIMED = {
    "floor": N_(
        "A floor (底噪) every epoch pays whether or not it records: the Python "
        "`for` loop itself plus launching kernels (启动开销)"
    ),
    "sync": N_(
        "`.item()` is a synchronisation (同步) that makes the CPU wait for the "
        "GPU, with a threshold effect (阈值效应): below some recording frequency "
        "the waits stop mattering"
    ),
    "issue": N_(
        "Submission is asynchronous (异步): once recordings are rare, how fast "
        "the CPU issues commands, not the number of syncs, limits the speed"
    ),
    "compute": N_(
        "'About 3 s of necessary compute' (必须的计算时长), subtracted to leave the "
        "remaining time (剩余时长)"
    ),
}
"""Each part of the explanation, as the lesson words it."""
VERDICTS = (
    N_("supported"),
    N_("partly supported"),
    N_("not supported"),
    N_("supported (second half only)"),
    N_("loose: could be time inside operators"),
    N_("loose: more than time inside operators"),
)
"""The verdicts a part can get (and ``not testable on a <device>``)."""

OVERHEAD_SHARE = 0.5
"""Parts 1 and 3: the share of an epoch outside the operators' own time above which the epoch is
overhead, not work (more than half of it: most of it). The lesson's loop: about 85 %."""
WAIT_SHARE = 0.5
"""Part 3: the share of a run that the recordings' waits must stay below for the waits no longer
to be what limits the speed (less than half of it)."""
SPEEDUP_LOW = 1.0
"""Part 3: the lower quartile of the speed-ups of issuing fewer operations per epoch must be above
this: faster in three rounds out of four, not by the luck of one round."""
COMPUTE_FACTOR = 2.0
"""The "3 s of necessary compute": up to this many times this device's time inside operators over
the same epochs, it could be such time (a GPU's kernels, a slower device's operators); beyond
it, it must hold overhead as well. (The evidence says "twice": change both together.)"""
WAITING_DEVICES = ("cuda", "mps")
"""Device types whose ``.item()`` waits for queued work (on a CPU nothing is queued): only on them
can the waits of part 2 and the queue of part 3 be tested."""


@dataclass(frozen=True)
class Judgement:
    """One part of the explanation, and what the measurements say about it: a value, said in
    words by :func:`shown_verdict` and :func:`evidence`."""

    part: str
    """One of :data:`CLAIMS`."""
    verdict: str
    """One of :data:`VERDICTS`, or ``not testable on a CPU`` (another device): decided by the
    numbers."""
    figures: Mapping[str, float | Interval] = field(default_factory=dict)
    """The numbers the verdict was decided from, by name (an :class:`~helpers.stats.Interval`
    where an interval decided)."""
    thresholds: Mapping[str, float] = field(default_factory=dict)
    """What they were compared with, by name: this module's constants."""
    device: str = "cpu"
    """The device type the figures were measured on."""
    unmet: tuple[str, ...] = ()
    """The conditions of the rule that the figures did not meet (none: the verdict it gives when
    all hold), in the order the rule checks them."""


def _us(seconds: float) -> str:
    value = seconds * 1e6
    return f"{value:,.0f} µs" if abs(value) >= 100 else f"{value:.3g} µs"


def _share_outside(inside_share: float) -> float:
    return min(max(1 - inside_share, 0.0), 1.0)


def judge_floor(
    *,
    floor: Interval,
    bare_loop: float,
    inside_share: float,
    operators: float,
    computing: float,
    device_type: str = "cpu",
) -> Judgement:
    """Part 1. ``floor``: the time per epoch that no recording causes (the fit's ``a`` per epoch,
    seconds, with its interval); ``bare_loop``: seconds per epoch of the ``for`` statement with its
    ``%`` test alone; ``inside_share``: the share of an epoch spent inside the operators that
    compute (on a GPU, the kernels), from one profiled run (:func:`helpers.profiling.covered`), so
    that the machine's drift between sections does not enter it; ``operators``: operators
    dispatched per epoch; ``computing``: how many of them compute (on a GPU, the kernel launches).

    The claim says the floor is overhead (the Python loop plus launching kernels), not the work.
    Supported when more than :data:`OVERHEAD_SHARE` of the floor lies outside the operators (the
    lesson's loop: about 85 %); partly supported when the operators' own time is most of it (the
    same loop on 100,000 rows: the floor is real, but it is the work). The ``for`` statement
    itself is always a sliver of it: the "Python loop" that carries a floor is the Python each
    epoch runs (calls, autograd, the optimiser), not the loop statement, and the evidence says so.

    Raises ``ValueError`` when the floor cannot be told from zero: every epoch takes time, so that
    means runs too few or too noisy to judge anything.
    """
    if not (floor.distinguishable and floor.value > 0):
        raise ValueError(
            f"no floor told from zero ({narration.interval(floor, 1e6, ' µs', 1)}): these runs "
            "are too few or too noisy to judge the floor; measure more rounds"
        )
    outside = _share_outside(inside_share)
    unmet = () if outside > OVERHEAD_SHARE else ("overhead",)
    figures = {
        "floor": floor,
        "bare_loop": bare_loop,
        "outside": outside,
        "operators": operators,
        "computing": computing,
    }
    verdict = "partly supported" if unmet else "supported"
    return Judgement("floor", verdict, figures, {"outside": OVERHEAD_SHARE}, device_type, unmet)


def judge_sync(line: LineCheck, *, device_type: str = "cpu") -> Judgement:
    """Part 2, from :func:`helpers.stats.check_line` on (recordings, seconds per run).

    Only a device that queues work (:data:`WAITING_DEVICES`) makes ``.item()`` wait, so on any
    other the claim cannot be tested: the verdict says so, with the price the runs did see. On a
    GPU the price of one recording must be told from zero (its interval excludes zero) and be
    positive for the waits to be seen; the threshold effect needs the time to bend upwards
    (recordings cost more each when frequent, as when the GPU keeps up with rare recordings and
    each frequent one adds its wait). A straight line means each wait costs the same: waits, but
    no threshold.
    """
    price, bend = line.fit.b, line.bend
    figures = {"price": price, "bend": bend, "smallest_slope": line.smallest_slope}
    if device_type not in WAITING_DEVICES:
        verdict, unmet = f"not testable on a {device_type.upper()}", ("queued",)
    elif not price.distinguishable:
        verdict, unmet = "not supported", ("priced",)
    elif price.value < 0:
        verdict, unmet = "not supported", ("positive",)
    elif bend.distinguishable and bend.value > 0:
        verdict, unmet = "supported", ()
    else:
        verdict, unmet = "partly supported", ("bends",)
    return Judgement("sync", verdict, figures, {"confidence": price.confidence}, device_type, unmet)


def judge_issue(
    *,
    epoch: float,
    inside_share: float,
    sync_share: float,
    speedup_low: float,
    device_type: str = "cpu",
) -> Judgement:
    """Part 3. ``epoch``: seconds per epoch with rare recordings; ``inside_share``: the share of
    an epoch inside the operators that compute (on a GPU, the kernels), from one profiled run
    (:func:`helpers.profiling.covered`), so that the machine's drift does not enter it;
    ``sync_share``: the share of such a run that the recordings' waits take (``b * recordings /
    time``, a negative ``b`` counted as 0); ``speedup_low``: the lower quartile of how many times
    faster a variant that issues far fewer operations per epoch ran than the lesson's loop (round
    by round).

    Supported when the overhead (the time outside operators) is more than
    :data:`OVERHEAD_SHARE` of an epoch, the waits less than :data:`WAIT_SHARE` of a run, and
    issuing less made training faster (:data:`SPEEDUP_LOW`) in most rounds; on a CPU, where
    nothing is queued, only that second half is tested, and the verdict says so.
    """
    overhead = _share_outside(inside_share)
    unmet = tuple(
        name
        for name, met in (
            ("overhead", overhead > OVERHEAD_SHARE),
            ("waits", sync_share < WAIT_SHARE),
            ("speed-up", speedup_low > SPEEDUP_LOW),
        )
        if not met
    )
    if unmet:
        verdict = "not supported"
    elif device_type not in WAITING_DEVICES:
        verdict, unmet = "supported (second half only)", ("queued",)
    else:
        verdict = "supported"
    figures = {
        "epoch": epoch,
        "overhead": overhead,
        "sync_share": sync_share,
        "speedup_low": speedup_low,
    }
    thresholds = {"overhead": OVERHEAD_SHARE, "sync_share": WAIT_SHARE, "speedup_low": SPEEDUP_LOW}
    return Judgement("issue", verdict, figures, thresholds, device_type, unmet)


def judge_compute_claim(
    *,
    flops: float,
    peak_flops: float,
    inside_operators: float,
    seconds: float = STUDENT_COMPUTE_S,
    epochs: int = STUDENT_EPOCHS,
) -> Judgement:
    """The lesson's "about 3 s of necessary compute": which of the three quantities can it be?

    ``flops``: floating-point operations per epoch; ``peak_flops``: this device's measured peak;
    ``inside_operators``: this device's time per epoch inside operators. As arithmetic, the 3 s
    would mean a device computing at ``flops / (seconds / epochs)``, 0.27 GFLOP/s for the lesson's
    network: far below any device's peak, so it is never arithmetic time (the verdict is always
    ``loose``). What it can be is judged against this device's time inside operators over the
    same epochs: up to :data:`COMPUTE_FACTOR` times that, it could be time inside operators (a
    GPU's kernels, or a slower device's); more, it must hold overhead as well.

    Raises ``ValueError`` when ``peak_flops`` is not above that rate (no device computes so
    slowly: a wrong peak or FLOP count).
    """
    implied = flops / (seconds / epochs)
    if not peak_flops > implied:
        raise ValueError(
            f"a peak of {peak_flops / 1e9:.3g} GFLOP/s is not above the {implied / 1e9:.3g} "
            "GFLOP/s the claim implies: check the peak and the FLOPs per epoch"
        )
    inside_total = inside_operators * epochs
    within = seconds <= COMPUTE_FACTOR * inside_total
    figures = {
        "seconds": seconds,
        "epochs": epochs,
        "flops": flops,
        "peak_flops": peak_flops,
        "implied_flops": implied,
        "inside_operators": inside_operators,
        "inside_total": inside_total,
    }
    if within:
        verdict, unmet = "loose: could be time inside operators", ()
    else:
        verdict, unmet = "loose: more than time inside operators", ("within",)
    return Judgement("compute", verdict, figures, {"inside_factor": COMPUTE_FACTOR}, unmet=unmet)


# ---- the judgements in words -------------------------------------------------------------------


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


def _sync_evidence(j: Judgement) -> str:
    price = j.figures["price"]
    said = {
        "priced": _("one recording costs {price}").format(
            price=narration.interval(price, 1e6, " µs", 2)
        ),
        "zero": narration.zero(price),
        "bend": narration.interval(j.figures["bend"], 1e3, " ms", 1),
        "sharp": _("these runs would have detected {smallest} or more").format(
            smallest=_us(j.figures["smallest_slope"])
        ),
        "device": j.device,
    }
    if "queued" in j.unmet:
        return _(
            "On a {device} nothing is queued, so `.item()` has nothing to wait "
            "for: it reads a number already in memory. What these runs saw "
            "({priced}; {zero}; bend {bend}) is the work of recording, or noise, "
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
    if "bends" in j.unmet:
        return _(
            "The waits are real: {priced}. But the time does not bend upwards "
            "(bend {bend}): each recording costs the same however often it comes, "
            "so the waits matter in proportion to their number: no threshold."
        ).format(**said)
    return _(
        "The waits are real: {priced}, and the time bends upwards (bend "
        "{bend}): frequent recordings cost more each, rare ones next to "
        "nothing: a threshold effect."
    ).format(**said)


def _capital(sentence: str) -> str:
    return sentence[0].upper() + sentence[1:]


def _issue_evidence(j: Judgement) -> str:
    f = j.figures
    facts = _(
        "with rare recordings an epoch takes {epoch}, {overhead:.0%} of it "
        "outside the operators (overhead) and {sync_share:.1%} of a run in the "
        "recordings' waits; issuing fewer operations per epoch made training "
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
        return _capital(said)
    if "queued" in j.unmet:
        return _(
            "On a CPU nothing is queued (the CPU runs each operator itself), so "
            "only the second half can be tested, and it holds: {facts}."
        ).format(facts=facts)
    return _capital(_("{facts}.").format(facts=facts))


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


def verdict_row(judgement: Judgement) -> dict:
    """The claim, the verdict and the evidence, headed in the course's language."""
    return {
        _("claim"): word(CLAIMED[judgement.part]),
        _("your data"): shown_verdict(judgement),
        _("evidence"): evidence(judgement),
    }


def verdict_table(judgements: Sequence[Judgement]) -> pd.DataFrame:
    """The claims as the index, the verdicts as the one column (the evidence is said apart)."""
    table = pd.DataFrame([verdict_row(j) for j in judgements]).set_index(_("claim"))
    return table[[_("your data")]]


def verdict_lines(judgements: Sequence[Judgement]) -> str:
    """Each verdict, its part and its evidence, as a Markdown list item."""
    return "\n".join(
        _("- **{verdict}** ({part}): {evidence}").format(
            verdict=shown_verdict(j), part=j.part, evidence=evidence(j)
        )
        for j in judgements
    )


def single_runs_say(fit: AffineFit) -> str:
    """What a handful of single runs, one per condition, can say about the price of a recording
    (the student's table and the learner's first one)."""
    if not fit.b.distinguishable:
        return _(
            "{n} single runs cannot price a recording: no line, straight or not, "
            "can be seen in them."
        ).format(n=fit.b.n)
    if fit.b.value < 0:
        return _(
            "these {n} runs drifted: a slope that more recordings cannot cause, so no price either."
        ).format(n=fit.b.n)
    return _("these {n} runs do price a recording, though one run each is a thin basis.").format(
        n=fit.b.n
    )


# ---- what each section found ------------------------------------------------------------------


def arithmetic_finding(
    *, flops: float, peak: float, device_type: str, arithmetic: float, epoch: float, inside: float
) -> str:
    """Section 1: an epoch's arithmetic (``flops`` at the ``peak`` FLOP/s) against its time and
    its time inside operators (seconds)."""
    where = _("one thread") if device_type == "cpu" else device_type
    return _(
        "One epoch is **{flops:,} FLOPs**; this device's peak is **{peak:,.1f} "
        "GFLOP/s** ({where}), so the arithmetic needs **{arithmetic_us:.2f} "
        "µs** of an epoch that takes **{epoch_us:,.0f} µs**. Time inside "
        "operators is **{inside_us:,.0f} µs** ({inside_share:.0%} of the "
        "epoch), {ratio:,.0f}× the arithmetic: an operator on tiny tensors "
        "costs far more than the sums it does."
    ).format(
        flops=flops,
        peak=peak / 1e9,
        where=where,
        arithmetic_us=arithmetic * 1e6,
        epoch_us=epoch * 1e6,
        inside_us=inside * 1e6,
        inside_share=inside / epoch,
        ratio=inside / arithmetic,
    )


def runs_note(epochs: int, student_epochs: int) -> str:
    """Section 2: how many epochs each run trained, against the student's."""
    if epochs == student_epochs:
        return _("{epochs} epochs per run (the student's).").format(epochs=epochs)
    return _("{epochs} epochs per run (not the student's {student}).").format(
        epochs=epochs, student=student_epochs
    )


def fits_finding(student: AffineFit, yours: AffineFit) -> str:
    """Section 2: the student's four runs and the learner's, each fitted, with what single runs
    can say (:func:`single_runs_say`)."""
    return _(
        "- **The student's four runs:** {student} Their run-to-run scatter is "
        "{student_sd:.2f} s: {student_says}\n- **Your four runs:** {yours} "
        "Your scatter is {your_sd:.2f} s: {your_says}"
    ).format(
        student=narration.price(student, N_("one recording")),
        student_sd=student.residual_sd,
        student_says=single_runs_say(student),
        yours=narration.price(yours, "one recording"),
        your_sd=yours.residual_sd,
        your_says=single_runs_say(yours),
    )


def rounds_note(epochs: int, order: Sequence[Sequence[str]]) -> str:
    """Section 3: the first two rounds' shuffled order of a comparison."""
    joint = _(", ")
    rounds = _("; ").join(
        _("round {i}: {names}").format(i=i, names=joint.join(map(word, names)))
        for i, names in enumerate(order[:2], 1)
    )
    return _("{epochs} epochs per run, each round in its own shuffled order ({rounds}).").format(
        epochs=epochs, rounds=rounds
    )


def noise_finding(extremes, lesson, noise: float) -> str:
    """Section 4: every epoch against never, every 100 against every 2000 (paired differences,
    :func:`helpers.stats.paired_difference`), and the typical spread of a run."""
    return _(
        "- Recording every epoch against never (seconds per run): {extremes}\n"
        "- The lesson's comparison, every 100 against every 2000: {lesson}\n- "
        "Run-to-run noise: the interquartile range is typically "
        "**{noise:.1%}** of a run's time."
    ).format(
        extremes=narration.difference(extremes, N_("every 1"), N_("never")),
        lesson=narration.difference(lesson, N_("every 100"), N_("every 2000")),
        noise=noise,
    )


def price_finding(
    *,
    fit: AffineFit,
    line: LineCheck,
    item,
    a_run: float,
    epochs: int,
    measure_epochs: int,
    totals,
) -> str:
    """Section 5: the price of a recording, the line's shape, one ``.item()`` alone (``item``, a
    :class:`helpers.timing.Measurement`), and the intercept ``a`` extrapolated to section 2's runs
    (``a_run``) against what those runs measured (``totals``, seconds)."""
    off = a_run / totals.median() - 1
    said = {
        "price": narration.price(fit, "one recording"),
        "shape": narration.line(line, "one recording"),
        "item_us": item.median * 1e6,
        "low_us": item.quartiles[0] * 1e6,
        "high_us": item.quartiles[1] * 1e6,
        "epochs": epochs,
        "a_run": a_run,
        "a_us": fit.a.value / measure_epochs * 1e6,
        "fastest": totals.min(),
        "slowest": totals.max(),
        "fastest_us": totals.min() / epochs * 1e6,
        "slowest_us": totals.max() / epochs * 1e6,
        "off": abs(off),
    }
    return (
        _(
            "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` "
            "alone, timed by `torch.utils.benchmark`, takes {item_us:.2f} µs "
            "(middle half of the blocks {low_us:.2f} to {high_us:.2f} µs).\n\nAt "
            "{epochs} epochs, `a` would be about **{a_run:.1f} s**, {a_us:.0f} µs "
            "per epoch that no logging frequency can remove. Section 2 timed such "
            "runs at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to "
            "{slowest_us:.0f} µs per epoch), so `a` is {off:.0%} below their "
            "median: a machine's speed drifts between measurements minutes apart, "
            "so compare only what one interleaved run measured (section 9 lists "
            "every epoch time this lesson measured)."
        )
        if off < 0
        else _(
            "**The price:** {price}\n\n**The shape:** {shape}\n\nOne `.item()` "
            "alone, timed by `torch.utils.benchmark`, takes {item_us:.2f} µs "
            "(middle half of the blocks {low_us:.2f} to {high_us:.2f} µs).\n\nAt "
            "{epochs} epochs, `a` would be about **{a_run:.1f} s**, {a_us:.0f} µs "
            "per epoch that no logging frequency can remove. Section 2 timed such "
            "runs at **{fastest:.2f} to {slowest:.2f} s** ({fastest_us:.0f} to "
            "{slowest_us:.0f} µs per epoch), so `a` is {off:.0%} above their "
            "median: a machine's speed drifts between measurements minutes apart, "
            "so compare only what one interleaved run measured (section 9 lists "
            "every epoch time this lesson measured)."
        )
    ).format(**said)


def timeline_finding(
    *,
    shown: int,
    traced_us: float,
    epoch_us: float,
    slowdown: float,
    operators: float,
    kernels: float | None,
    trace: str,
) -> str:
    """Section 7: what the traced timeline shows: its epochs' length, the share operators (and,
    on a GPU, kernels: ``None`` elsewhere) fill, and where the trace file is."""
    said = {
        "shown": shown,
        "traced_us": traced_us,
        "ratio": traced_us / epoch_us,
        "slowdown": slowdown,
        "operators": operators,
        "trace": trace,
    }
    if kernels is None:
        return _(
            "These {shown} traced epochs took **{traced_us:,.0f} µs** each from "
            "first event to last, {ratio:.1f}× an epoch without the profiler (the "
            "phase table above: {slowdown:.1f}×, counting only the phases' own "
            "time). Operators that compute fill **{operators:.0%}** of this "
            "timeline; the white between them is overhead. The whole trace is in "
            "`{trace}`: open it in [Perfetto](https://ui.perfetto.dev) (*Open "
            "trace file*) to zoom into every operator, with its call stack and its "
            "thread."
        ).format(**said)
    return _(
        "These {shown} traced epochs took **{traced_us:,.0f} µs** each from "
        "first event to last, {ratio:.1f}× an epoch without the profiler (the "
        "phase table above: {slowdown:.1f}×, counting only the phases' own "
        "time). Operators that compute fill **{operators:.0%}** of this "
        "timeline; the white between them is overhead. The GPU's kernels fill "
        "**{kernels:.0%}** of it. The whole trace is in `{trace}`: open it in "
        "[Perfetto](https://ui.perfetto.dev) (*Open trace file*) to zoom into "
        "every operator, with its call stack and its thread."
    ).format(kernels=kernels, **said)


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"


def roofline_point(
    work: roofline.Workload, roof: roofline.Roof, share: float = roofline.ROOF_SHARE
) -> str:
    """Section 8: one sentence on where ``work`` sits under ``roof`` and what limits it
    (:func:`helpers.roofline.regime`); a point above its roof is said to be so, with the roof that
    was too low (:func:`helpers.roofline.above_roof`), instead of a share above 100 %."""
    found = roofline.regime(work, roof, share)
    above = roofline.above_roof(work, roof)
    if above == "bandwidth":
        where = _(
            "above the bandwidth roof ({roof}), so that roof was too low for it: "
            "this workload moved its bytes faster than the copy that measured the "
            "roof (data reused from a cache nearer the core, or a "
            "better-vectorised loop than the copy's). Read the point as at the "
            "roof, not beyond it"
        ).format(roof=roof.label)
    elif above == "flat":
        where = _(
            "above the flat roof ({roof}), so the measured peak was too low for "
            "it: its arithmetic ran faster than the matrix product that measured "
            "the peak (another shape, or more threads). Read the point as at the "
            "roof, not beyond it"
        ).format(roof=roof.label)
    else:
        where = _("{reach:.1%} of what the roof ({roof}) allows at that intensity").format(
            reach=roofline.reach(work, roof), roof=roof.label
        )
    head = _(
        "**{name}**: {intensity:.3g} FLOPs per byte, {gflops:.3g} GFLOP/s, "
        "{where}. Of its {seconds}, arithmetic at the peak would take "
        "{arithmetic} and the memory traffic {memory}"
    ).format(
        name=word(work.name),
        intensity=work.intensity,
        gflops=work.achieved / 1e9,
        where=where,
        seconds=_time(work.seconds),
        arithmetic=_time(roof.arithmetic_seconds(work)),
        memory=_time(roof.memory_seconds(work)),
    )
    if found == "overhead-bound":
        return _(
            "{head}: **{found}**, {rest:.1%} of the time is neither: overhead "
            "(Python, dispatch, launches, allocation, waits)."
        ).format(head=head, found=word(found), rest=roofline.overhead_share(work, roof))
    if found == "compute-bound":
        return _("{head}: **{found}**, the arithmetic takes most of the time.").format(
            head=head, found=word(found)
        )
    return _("{head}: **{found}**, moving the bytes takes most of the time.").format(
        head=head, found=word(found)
    )


def roofline_finding(
    *,
    peak: float,
    threads: str,
    roofs: Sequence[roofline.Roof],
    placed: Sequence[tuple[roofline.Workload, roofline.Roof]],
    speedup: float | None,
    fewer: int,
    why: str = "",
) -> str:
    """Section 8: the peak and bandwidths measured, each workload placed under its roof
    (:func:`roofline_point`), and what fusing gained (or, with ``speedup`` None, ``why`` the
    compiled chain was not measured)."""
    bandwidths = _("; ").join(
        _("**{gbs:,.1f} GB/s** ({label})").format(gbs=r.bandwidth / 1e9, label=r.label)
        for r in roofs
    )
    if speedup is None:
        fused = _("The compiled chain is not measured here: {why}.").format(why=why)
    else:
        fused = _(
            "Fusing the chain made it **{speedup:.1f}×** as fast as eager: the "
            "same arithmetic, {fewer}× fewer bytes moved."
        ).format(speedup=speedup, fewer=fewer)
    return _(
        "Peak **{peak:,.1f} GFLOP/s** (a large matrix product, {threads}); "
        "bandwidth {bandwidths}.\n\n{workloads}\n\n{fused}"
    ).format(
        peak=peak / 1e9,
        threads=threads,
        bandwidths=bandwidths,
        workloads="\n".join(f"- {roofline_point(w, r)}" for w, r in placed),
        fused=fused,
    )


def same_losses_note(notes: Mapping[str, str]) -> str:
    """Section 9: every variant computed the lesson's losses; what compiling each one took or
    why not (``notes``, from :func:`helpers.compiled.compile_all`)."""
    each = _("; ").join(
        _("{label}: {value}").format(label=word(name), value=note) for name, note in notes.items()
    )
    return _("All variants compute the same losses (within 1e-4 relative). {notes}.").format(
        notes=each
    )


def fastest_finding(
    *,
    best: str,
    speedup: float,
    repeats: int,
    epochs: int,
    best_epoch: float,
    arithmetic: float,
) -> str:
    """Section 9: the fastest variant against the lesson loop, and how far it still is from the
    arithmetic (seconds per epoch)."""
    return _(
        "\n\n- The fastest variant per epoch is **{best}**, **{speedup:.1f}×** "
        "as fast as the lesson loop recording every 100 epochs (median over "
        "{repeats} rounds of {epochs} epochs).\n- It still takes "
        "**{best_us:.1f} µs** per epoch, **{ratio:,.0f}×** the arithmetic time "
        "({arithmetic_us:.2f} µs): what is left is the generated code's own "
        "work on tiny tensors, and what remains of the overhead."
    ).format(
        best=word(best),
        speedup=speedup,
        repeats=repeats,
        epochs=epochs,
        best_us=best_epoch * 1e6,
        ratio=best_epoch / arithmetic,
        arithmetic_us=arithmetic * 1e6,
    )


def compile_advice(table: pd.DataFrame, epochs: int, long_epochs: int) -> str:
    """Section 9: which variant to use for a training of ``epochs`` epochs (with a cold and a warm
    cache) and for one of ``long_epochs``, from :func:`helpers.compiled.end_to_end`'s table: the
    fastest end to end (:func:`helpers.compiled.fastest_end_to_end`)."""
    missing = {
        "cold": _("with a cold cache: not measured in this run"),
        "warm": _("with a warm cache: not measured in this run"),
    }
    advice = {
        "cold": _(
            "with a cold cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s "
            "in all) and **{long}** for {long_epochs:,} ({long_s:,.0f} s)"
        ),
        "warm": _(
            "with a warm cache, **{short}** for {epochs:,} epochs ({short_s:.1f} s "
            "in all) and **{long}** for {long_epochs:,} ({long_s:,.0f} s)"
        ),
    }
    lines = []
    for cache in ("cold", "warm"):
        short = compiled.fastest_end_to_end(table, epochs, cache)
        long = compiled.fastest_end_to_end(table, long_epochs, cache)
        if short is None or long is None:
            lines.append(missing[cache])
            continue
        said = {"short": word(short[0]), "epochs": epochs, "short_s": short[1],
                "long": word(long[0]), "long_epochs": long_epochs, "long_s": long[1]}  # fmt: skip
        lines.append(advice[cache].format(**said))
    return _("Fastest end to end, compile included: {lines}.").format(lines=_("; ").join(lines))


def compile_note(advice: str, cold_measured: bool) -> str:
    """Section 9: the end-to-end advice, with a word on fast mode when no cold compile was
    measured."""
    if cold_measured:
        return advice
    return _(
        "{advice} (Fast mode measures no cold compile, and takes the warm one "
        "from this process's first calls: fresh processes take tens of "
        "seconds.)"
    ).format(advice=advice)


def live_run(label: str, epochs: int, on: str, seconds: float) -> str:
    """Section 11: one live run of the knob panel."""
    return _("{label}, {epochs} epochs on {on}: {seconds:.3f} s ({epoch_us:.0f} µs/epoch)").format(
        label=word(label), epochs=epochs, on=on, seconds=seconds, epoch_us=seconds / epochs * 1e6
    )


def summary(
    *,
    device: str,
    student_fit: AffineFit,
    line: LineCheck,
    regime: str,
    arithmetic: float,
    inside: float,
    loop: float,
    best: str,
    speedup: float,
    judgements: Sequence[Judgement],
    advice: str,
) -> str:
    """The lesson's closing summary: whether the student's table and the learner's sweep
    (``line``, :func:`helpers.stats.check_line`) price a recording, whether the line stands, the
    lesson epoch's ``regime`` with the shares of it that are ``arithmetic``, ``inside``
    operators and the bare ``loop`` (percent of the floor), the ``best`` fix and its
    ``speedup``, the compile ``advice`` and every verdict."""
    can, cannot = _("can"), _("cannot")
    verdicts = _("; ").join(
        _("{part} *{verdict}*").format(part=j.part, verdict=shown_verdict(j)) for j in judgements
    )
    return _(
        "**What this run found on {device}.** The student's table {student} "
        "price a recording; your sweep {yours} ({price}), and the straight "
        "line {line}. The lesson's epoch is **{regime}**: arithmetic "
        "{arithmetic:.2%} of it, time inside operators {inside:.0%}, the bare "
        "`for` loop {loop:.2g}% of the floor. The fastest fix per epoch, "
        "{best}, ran **{speedup:.1f}×** as fast as the lesson loop recording "
        "every 100 epochs. {advice} Verdicts, part by part: {verdicts}."
    ).format(
        device=device,
        student=can if student_fit.b.distinguishable else cannot,
        yours=can if line.fit.b.distinguishable else cannot,
        price=narration.interval(line.fit.b, 1e6, " µs", 1),
        line=(_("stands") if line.straight else _("bends")),
        regime=word(regime),
        arithmetic=arithmetic,
        inside=inside,
        loop=loop,
        best=word(best),
        speedup=speedup,
        advice=advice,
        verdicts=verdicts,
    )


# ---- the third part on a receipt's GPU (section 10) -------------------------------------------


def judge_receipt(receipt: Receipt) -> Judgement | None:
    """The original explanation's third part (asynchronous submission) judged with the receipt's
    numbers by :func:`judge_issue`: an epoch that keeps its losses on the device, the busy share
    of the lesson loop, the share of the student's rarest run (10 recordings in 20,000 epochs)
    spent in the recordings' waits, and the fastest variant's speed-up (the lower quartile over
    its rounds, ``speedup_q1``: the verdict says "in three rounds out of four"), all from
    :mod:`helpers.loop_prices`. ``None`` when the receipt has no busy share of the lesson loop
    or no lower quartile."""
    busy = loop_prices.busy_share(receipt)
    speedup_low = loop_prices.fastest(receipt).get("speedup_q1")
    if busy is None or not speedup_low:
        return None
    prices = loop_prices.prices(receipt)
    return judge_issue(
        epoch=prices["kept"],
        inside_share=busy,
        sync_share=loop_prices.rare_sync_share(prices),
        speedup_low=speedup_low,
        device_type=receipt.device,
    )


def _time_of(key: str, seconds: float | None) -> str:
    """Seconds for the whole run (``student``), microseconds for the rest."""
    if key == "student" and seconds is not None:
        return f"{seconds:,.2f} s"
    return microseconds(seconds)


def beside_receipt(
    measured: Mapping[str, float], verdict: Judgement, device_type: str, found: Shelf | None = None
) -> Beside:
    """Section 10: ``.item()``, the loop's floor and its variants priced on the receipt's device
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
    notes = [heading(found, receipt)]
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
