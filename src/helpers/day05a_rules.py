"""Day 5a · The logging-frequency experiment: the rules that judge the lesson's explanation
(day 5a, section 7; the "3 s of necessary compute": day 5b, section 1)

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
:class:`Judgement`, a value: the verdict, the figures it was decided from and the thresholds (the
named constants below) they were compared with; :mod:`helpers.day05a_evidence` says it in words. A
verdict that the device at hand cannot test says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from helpers import loop_prices, narration
from helpers.i18n import N_
from helpers.observation import STUDENT_COMPUTE_S, STUDENT_EPOCHS
from helpers.receipts import Receipt
from helpers.stats import Interval, LineCheck

CLAIMS = ("floor", "sync", "issue", "compute")
"""The explanation's parts and the lesson's loosest number (:data:`CLAIMED` words them)."""
PARTS = {
    "floor": N_("part 1, the floor"),
    "sync": N_("part 2, the threshold"),
    "issue": N_("part 3, asynchronous submission"),
    "compute": N_("the 3 s of compute"),
}
"""Each part's short name, as the verdict lines show it."""
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
"""Part 3: the lower quartile of the speed-ups of issuing the same work with less overhead (the
hand-written step; on a receipt, the fastest variant) must be above
this: faster in three rounds out of four, not by the luck of one round."""
MATTERS_SHARE = 0.02
"""Part 2: a bend (a change of the price per recording at a knee) smaller than this share of a run
that records nothing cannot matter to the lesson's claim: when the runs would have seen any bend
this large and saw none, the line is straight; when they could not have, they cannot tell."""
SHAPES = (N_("threshold"), N_("straight"), N_("curved"), N_("cannot tell"))
"""What :func:`shape` can say of the time against the number of recordings."""
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
    shape: str = ""
    """Part 2 only: the :func:`shape` of the time against the recordings."""


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


def shape(line: LineCheck) -> str:
    """The shape of run time against recordings, from :func:`helpers.stats.check_line` (one of
    :data:`SHAPES`):

    * ``threshold``: the knee line departs from the straight line (the bend's interval excludes
      zero), its slope rises at the knee, and before the knee it cannot be told from zero: rare
      recordings cost nothing the runs can see, frequent ones do;
    * ``curved``: the slope changes, but not from a flat start (or it changes downwards);
    * ``straight``: no bend told from zero, and the runs would have seen one larger than
      :data:`MATTERS_SHARE` of a run (the bend's interval lies within that);
    * ``cannot tell``: no bend told from zero, but the runs are too noisy to rule one out.
    """
    bend, below = line.bend, line.below
    if bend.distinguishable:
        rising = line.above.value > below.value
        return "threshold" if rising and not below.distinguishable else "curved"
    matters = MATTERS_SHARE * abs(line.fit.a.value)
    return "straight" if max(abs(bend.low), abs(bend.high)) < matters else "cannot tell"


def judge_sync(line: LineCheck, *, device_type: str = "cpu") -> Judgement:
    """Part 2, from :func:`helpers.stats.check_line` on (recordings, seconds per run).

    Only a device that queues work (:data:`WAITING_DEVICES`) makes ``.item()`` wait, so on any
    other the claim cannot be tested: the verdict says so, with the price the runs did see. On a
    GPU the price of one recording must be told from zero (its interval excludes zero) and be
    positive for the waits to be seen; the threshold effect needs the :func:`shape` to be a
    ``threshold``. Any other shape means waits, but no threshold: partly supported.
    """
    price = line.fit.b
    found = shape(line)
    figures = {
        "price": price,
        "bend": line.bend,
        "below": line.below,
        "knee": line.knee,
        "smallest_slope": line.smallest_slope,
        "run": line.fit.a.value,
    }
    if device_type not in WAITING_DEVICES:
        verdict, unmet = f"not testable on a {device_type.upper()}", ("queued",)
    elif not price.distinguishable:
        verdict, unmet = "not supported", ("priced",)
    elif price.value < 0:
        verdict, unmet = "not supported", ("positive",)
    elif found == "threshold":
        verdict, unmet = "supported", ()
    else:
        verdict, unmet = "partly supported", ("threshold",)
    thresholds = {"confidence": price.confidence, "matters": MATTERS_SHARE}
    return Judgement("sync", verdict, figures, thresholds, device_type, unmet, found)


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
    (:func:`helpers.profiling.inside_operators`), so that the machine's drift does not enter it;
    ``sync_share``: the share of such a run that the recordings' waits take (``b * recordings /
    time``, a negative ``b`` counted as 0); ``speedup_low``: the lower quartile of how many times
    faster a variant that issues the same arithmetic with far less overhead per epoch ran than
    the lesson's loop (round by round).

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
