"""The lesson's explanation of the logging-frequency experiment, judged part by part (day 5).

A learner ran the lesson's homework on a consumer GPU: 20000 epochs of the Iris network, recording
the loss every N epochs. Their "remaining time" was the total minus "about 3 s of necessary
compute" (:data:`helpers.observation.STUDENT_RUNS`). The lesson explained the result in three parts:

1. a **floor** (底噪) that every epoch pays whether or not it records: the Python ``for`` loop
   itself plus launching GPU kernels (启动开销);
2. ``.item()`` is a **synchronisation** (同步) that makes the CPU wait for the GPU, with a
   **threshold effect** (阈值效应): below some recording frequency the waits stop mattering;
3. submission is **asynchronous** (异步): once recordings are rare, how fast the CPU issues
   commands, not the number of syncs, limits the speed.

Each ``judge_*`` function takes the learner's measurements and returns a :class:`Judgement`
whose verdict and evidence follow from the numbers. The tests give each one realistic data for
every outcome it can print (measured on a CPU, or on a GPU where the lesson's student measured,
or modelled from how a GPU queues work where no GPU was at hand); a verdict that the device at hand
cannot test says so instead of guessing.

>>> from helpers.observation import student_fit
>>> single_runs_say(student_fit())
'4 single runs cannot price a recording: no line, straight or not, can be seen in them.'
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers import narration
from helpers.i18n import N_, _, word
from helpers.observation import STUDENT_COMPUTE_S, STUDENT_EPOCHS
from helpers.stats import AffineFit, Interval, LineCheck

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


@dataclass(frozen=True)
class Judgement:
    """One part of the explanation, and what the measurements say about it."""

    part: str
    """One of :data:`CLAIMS`."""
    verdict: str
    """``supported``, ``partly supported``, ``not supported``, ``supported (second half only)``,
    ``not testable on a CPU`` or one of the two ``loose: ...`` verdicts: decided by the numbers."""
    evidence: str
    """The numbers behind the verdict, as a sentence."""

    def shown_verdict(self) -> str:
        """The verdict in the course's language."""
        cpu = "not testable on a "
        if self.verdict.startswith(cpu):
            return _("not testable on a {device}").format(device=self.verdict.removeprefix(cpu))
        return word(self.verdict)

    def row(self) -> dict:
        """The claim, the verdict and the evidence, headed in the course's language."""
        return {
            _("claim"): word(CLAIMED[self.part]),
            _("your data"): self.shown_verdict(),
            _("evidence"): self.evidence,
        }

    def line(self) -> str:
        """The verdict, the part and the evidence as one Markdown list item."""
        return _("- **{verdict}** ({part}): {evidence}").format(
            verdict=self.shown_verdict(), part=self.part, evidence=self.evidence
        )


def verdict_table(judgements: list[Judgement]) -> pd.DataFrame:
    """The claims as the index, the verdicts as the one column (the evidence is said apart)."""
    table = pd.DataFrame([j.row() for j in judgements]).set_index(_("claim"))
    return table[[_("your data")]]


def _us(seconds: float) -> str:
    value = seconds * 1e6
    return f"{value:,.0f} µs" if abs(value) >= 100 else f"{value:.3g} µs"


WAITING_DEVICES = ("cuda", "mps")
"""Device types whose ``.item()`` waits for queued work (on a CPU nothing is queued)."""


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


def judge_floor(
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
    dispatched per epoch;
    ``computing``: how many of them compute (on a GPU, the kernel launches).

    The claim says the floor is overhead (the Python loop plus launching kernels), not the work.
    Supported when more than half of the floor lies outside the operators (the lesson's loop:
    about 85 %); partly supported when the operators' own time is most of it (the same loop on
    100,000 rows: the floor is real, but it is the work). The ``for`` statement itself is always a
    sliver of it: the "Python loop" that carries a floor is the Python each epoch runs (calls,
    autograd, the optimiser), not the loop statement, and the evidence says so.

    Raises ``ValueError`` when the floor cannot be told from zero: every epoch takes time, so that
    means runs too few or too noisy to judge anything.
    """
    if not (floor.distinguishable and floor.value > 0):
        raise ValueError(
            f"no floor told from zero ({narration.interval(floor, 1e6, ' µs', 1)}): these runs "
            "are too few or "
            "too noisy to judge the floor; measure more rounds"
        )
    outside = min(max(1 - inside_share, 0.0), 1.0)
    head = _(
        "The floor is real: {value} per epoch (95% interval {low} to {high}), "
        "paid whatever is recorded; {outside:.0%} of an epoch lies outside the "
        "operators' own time"
    ).format(value=_us(floor.value), low=_us(floor.low), high=_us(floor.high), outside=outside)
    loop = _(
        "The `for` statement with its `%` test takes {ns:.0f} ns of it "
        "({percent:.2g}%): the loop that carries a floor is the Python each "
        "epoch runs, not the loop statement"
    ).format(ns=bare_loop * 1e9, percent=bare_loop / floor.value * 100)
    if outside > 0.5:
        launches = _launches(operators, computing, device_type)
        evidence = _(
            "{head}: overhead, the cost of issuing the {operators:.0f} operators "
            "each epoch dispatches ({launches}). {loop}."
        ).format(head=head, operators=operators, launches=launches, loop=loop)
        return Judgement("floor", "supported", evidence)
    return Judgement(
        "floor",
        "partly supported",
        _(
            "{head}: most of the floor is the operators' work itself, not the loop "
            "or the launches. {loop}."
        ).format(head=head, loop=loop),
    )


def judge_sync(line: LineCheck, device_type: str = "cpu") -> Judgement:
    """Part 2, from :func:`helpers.stats.check_line` on (recordings, seconds per run).

    Only a device that queues work (CUDA, MPS) makes ``.item()`` wait, so on any other the claim
    cannot be tested: the verdict says so, with the price the runs did see. On a GPU the price of
    one recording must be told from zero and be positive for the waits to be seen; the threshold
    effect needs the time to bend upwards (recordings cost more each when frequent, as when the
    GPU keeps up with rare recordings and each frequent one adds its wait). A straight line means
    each wait costs the same: waits, but no threshold.
    """
    price = line.fit.b
    said = {
        "priced": _("one recording costs {price}").format(
            price=narration.interval(price, 1e6, " µs", 2)
        ),
        "zero": narration.zero(price),
        "bend": narration.interval(line.bend, 1e3, " ms", 1),
        "sharp": _("these runs would have detected {smallest} or more").format(
            smallest=_us(line.smallest_slope)
        ),
        "device": device_type,
    }
    if device_type not in WAITING_DEVICES:
        evidence = _(
            "On a {device} nothing is queued, so `.item()` has nothing to wait "
            "for: it reads a number already in memory. What these runs saw "
            "({priced}; {zero}; bend {bend}) is the work of recording, or noise, "
            "not a wait; run this notebook on a GPU to test the claim."
        ).format(**{**said, "device": device_type.upper()})
        return Judgement("sync", f"not testable on a {device_type.upper()}", evidence)
    if not price.distinguishable:
        return Judgement(
            "sync",
            "not supported",
            _(
                "On this {device} device the waits do not show: {priced}: {zero}; "
                "{sharp}, so if they cost, they cost less."
            ).format(**said),
        )
    if price.value < 0:
        return Judgement(
            "sync",
            "not supported",
            _(
                "Recording more made runs faster ({priced}): a drift of the machine, "
                "not a cost. Re-run with more rounds."
            ).format(**said),
        )
    if line.bend.distinguishable and line.bend.value > 0:
        return Judgement(
            "sync",
            "supported",
            _(
                "The waits are real: {priced}, and the time bends upwards (bend "
                "{bend}): frequent recordings cost more each, rare ones next to "
                "nothing: a threshold effect."
            ).format(**said),
        )
    return Judgement(
        "sync",
        "partly supported",
        _(
            "The waits are real: {priced}. But the time does not bend upwards "
            "(bend {bend}): each recording costs the same however often it comes, "
            "so the waits matter in proportion to their number: no threshold."
        ).format(**said),
    )


def judge_issue(
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

    Supported when the overhead (the time outside operators) is more than half an epoch, the
    waits less than half a run, and issuing less made training faster in most rounds; on a CPU,
    where nothing is queued, only that second half is tested, and the verdict says so.
    """
    overhead = min(max(1 - inside_share, 0.0), 1.0)
    facts = _(
        "with rare recordings an epoch takes {epoch}, {overhead:.0%} of it "
        "outside the operators (overhead) and {sync_share:.1%} of a run in the "
        "recordings' waits; issuing fewer operations per epoch made training "
        "at least {speedup_low:.2f}× as fast in three rounds out of four"
    ).format(epoch=_us(epoch), overhead=overhead, sync_share=sync_share, speedup_low=speedup_low)
    failed = []
    if overhead <= 0.5:
        failed.append(_("most of an epoch is spent inside operators: the work, not issuing it"))
    if sync_share >= 0.5:
        failed.append(_("the waits still take most of the time"))
    if speedup_low <= 1:
        failed.append(_("issuing less did not make it reliably faster"))
    if failed:
        reasons = _("; ").join(failed)
        evidence = _("{facts}; but {reasons}.").format(facts=facts, reasons=reasons)
        return Judgement("issue", "not supported", evidence[0].upper() + evidence[1:])
    if device_type not in WAITING_DEVICES:
        evidence = _(
            "On a CPU nothing is queued (the CPU runs each operator itself), so "
            "only the second half can be tested, and it holds: {facts}."
        ).format(facts=facts)
        return Judgement("issue", "supported (second half only)", evidence)
    evidence = _("{facts}.").format(facts=facts)
    return Judgement("issue", "supported", evidence[0].upper() + evidence[1:])


def judge_compute_claim(
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
    same epochs: up to twice that, it could be time inside operators (a GPU's kernels, or a slower
    device's); more than twice, it must hold overhead as well.

    Raises ``ValueError`` when ``peak_flops`` is not above that rate (no device computes so
    slowly: a wrong peak or FLOP count).
    """
    per_epoch = seconds / epochs
    implied = flops / per_epoch
    if not peak_flops > implied:
        raise ValueError(
            f"a peak of {peak_flops / 1e9:.3g} GFLOP/s is not above the {implied / 1e9:.3g} "
            "GFLOP/s the claim implies: check the peak and the FLOPs per epoch"
        )
    inside_total = inside_operators * epochs
    head = _(
        "{seconds:g} s over {epochs} epochs is {per_epoch} per epoch. As "
        "arithmetic ({flops:,.0f} FLOPs per epoch) that is {gflops:.3g} "
        "GFLOP/s, {below:,.0f}× below this machine's own peak: it is not "
        "arithmetic time. Here the operators' own time over {epochs} epochs is "
        "{inside_total:.2g} s ({inside} per epoch)"
    ).format(
        seconds=seconds,
        epochs=epochs,
        per_epoch=_us(per_epoch),
        flops=flops,
        gflops=implied / 1e9,
        below=peak_flops / implied,
        inside_total=inside_total,
        inside=_us(inside_operators),
    )
    if seconds <= 2 * inside_total:
        evidence = _(
            "{head}: the {seconds:g} s are within twice that, so they could be "
            "time inside operators (on a GPU, kernels that take microseconds "
            "however little they compute); the lesson never said, so its remaining "
            "time is not well defined either."
        ).format(head=head, seconds=seconds)
        return Judgement("compute", "loose: could be time inside operators", evidence)
    evidence = _(
        "{head}: the {seconds:g} s are more than twice that, so they must hold "
        "overhead as well; the lesson never said, so its remaining time is not "
        "well defined either."
    ).format(head=head, seconds=seconds)
    return Judgement("compute", "loose: more than time inside operators", evidence)
