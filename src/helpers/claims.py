"""The lesson's explanation of the logging-frequency experiment, judged part by part (day 5).

A learner ran the lesson's homework on a consumer GPU: 20000 epochs of the Iris network, recording
the loss every N epochs. Their "remaining time" was the total minus "about 3 s of necessary
compute" (:data:`STUDENT_RUNS`). The lesson explained the result in three parts:

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

>>> student_fit().b.distinguishable  # the student's four runs cannot price one recording
False
>>> single_runs_say(student_fit())
'4 single runs cannot price a recording: no line, straight or not, can be seen in them.'
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers.messages import text
from helpers.stats import AffineFit, Interval, LineCheck, fit_affine

STUDENT_EPOCHS = 20_000
"""Epochs per run in the original observation."""
STUDENT_COMPUTE_S = 3.0
"""The original "about 3 s of necessary compute", subtracted from every run's total."""
STUDENT_RUNS = ((100, 200, 10.43), (200, 100, 10.02), (1000, 20, 10.12), (2000, 10, 9.74))
"""The original observation: (record every N epochs, recordings, remaining time in seconds)."""

CLAIMS = ("floor", "sync", "issue", "compute")
"""The explanation's parts and the lesson's loosest number; each is worded in the message
catalog as ``claims.claim.<part>`` (:mod:`helpers.messages`)."""


def student_table() -> pd.DataFrame:
    """The original observation as a table: ``every``, ``recordings``, ``remaining_s``."""
    return pd.DataFrame(STUDENT_RUNS, columns=["every", "recordings", "remaining_s"])


def student_fit() -> AffineFit:
    """``remaining time = a + b * recordings`` fitted to the student's four runs."""
    table = student_table()
    return fit_affine(table["recordings"], table["remaining_s"])


def single_runs_say(fit: AffineFit) -> str:
    """What a handful of single runs, one per condition, can say about the price of a recording
    (the student's table and the learner's first one)."""
    if not fit.b.distinguishable:
        return text("claims.single.noise", n=fit.b.n)
    if fit.b.value < 0:
        return text("claims.single.drift", n=fit.b.n)
    return text("claims.single.priced", n=fit.b.n)


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
            return text("claims.verdict.not testable", device=self.verdict.removeprefix(cpu))
        return text(f"claims.verdict.{self.verdict}")

    def row(self) -> dict:
        """The claim, the verdict and the evidence, headed in the course's language."""
        return {
            text("claims.column.claim"): text(f"claims.claim.{self.part}"),
            text("claims.column.verdict"): self.shown_verdict(),
            text("claims.column.evidence"): self.evidence,
        }

    def line(self) -> str:
        """The verdict, the part and the evidence as one Markdown list item."""
        return text(
            "claims.line", verdict=self.shown_verdict(), part=self.part, evidence=self.evidence
        )


def verdict_table(judgements: list[Judgement]) -> pd.DataFrame:
    """The claims as the index, the verdicts as the one column (the evidence is said apart)."""
    table = pd.DataFrame([j.row() for j in judgements]).set_index(text("claims.column.claim"))
    return table[[text("claims.column.verdict")]]


def _us(seconds: float) -> str:
    value = seconds * 1e6
    return f"{value:,.0f} µs" if abs(value) >= 100 else f"{value:.3g} µs"


WAITING_DEVICES = ("cuda", "mps")
"""Device types whose ``.item()`` waits for queued work (on a CPU nothing is queued)."""


def _launches(operators: float, computing: float, device_type: str) -> str:
    """What the operators an epoch dispatches are on ``device_type``."""
    if device_type in ("cuda", "mps"):
        return text(f"claims.launches.{device_type}", computing=computing)
    return text("claims.launches.cpu", computing=computing)


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
            f"no floor told from zero ({floor.text(1e6, ' µs', 1)}): these runs are too few or "
            "too noisy to judge the floor; measure more rounds"
        )
    outside = min(max(1 - inside_share, 0.0), 1.0)
    head = text(
        "claims.floor.head",
        value=_us(floor.value),
        low=_us(floor.low),
        high=_us(floor.high),
        outside=outside,
    )
    loop = text("claims.floor.loop", ns=bare_loop * 1e9, percent=bare_loop / floor.value * 100)
    if outside > 0.5:
        launches = _launches(operators, computing, device_type)
        evidence = text(
            "claims.floor.overhead", head=head, operators=operators, launches=launches, loop=loop
        )
        return Judgement("floor", "supported", evidence)
    return Judgement("floor", "partly supported", text("claims.floor.work", head=head, loop=loop))


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
        "priced": text("claims.sync.priced", price=price.text(1e6, " µs", 2)),
        "zero": price.zero_verdict(),
        "bend": line.bend.text(1e3, " ms", 1),
        "sharp": text("claims.sync.sharp", smallest=_us(line.smallest_slope)),
        "device": device_type,
    }
    if device_type not in WAITING_DEVICES:
        evidence = text("claims.sync.no_queue", **{**said, "device": device_type.upper()})
        return Judgement("sync", f"not testable on a {device_type.upper()}", evidence)
    if not price.distinguishable:
        return Judgement("sync", "not supported", text("claims.sync.hidden", **said))
    if price.value < 0:
        return Judgement("sync", "not supported", text("claims.sync.drift", **said))
    if line.bend.distinguishable and line.bend.value > 0:
        return Judgement("sync", "supported", text("claims.sync.threshold", **said))
    return Judgement("sync", "partly supported", text("claims.sync.no_threshold", **said))


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
    facts = text(
        "claims.issue.facts",
        epoch=_us(epoch),
        overhead=overhead,
        sync_share=sync_share,
        speedup_low=speedup_low,
    )
    failed = []
    if overhead <= 0.5:
        failed.append(text("claims.issue.failed.inside"))
    if sync_share >= 0.5:
        failed.append(text("claims.issue.failed.waits"))
    if speedup_low <= 1:
        failed.append(text("claims.issue.failed.speed"))
    if failed:
        reasons = text("joint.clauses").join(failed)
        evidence = text("claims.issue.not_supported", facts=facts, reasons=reasons)
        return Judgement("issue", "not supported", evidence[0].upper() + evidence[1:])
    if device_type not in WAITING_DEVICES:
        evidence = text("claims.issue.second_half", facts=facts)
        return Judgement("issue", "supported (second half only)", evidence)
    evidence = text("claims.issue.supported", facts=facts)
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
    head = text(
        "claims.compute.head",
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
        evidence = text("claims.compute.inside", head=head, seconds=seconds)
        return Judgement("compute", "loose: could be time inside operators", evidence)
    evidence = text("claims.compute.overhead", head=head, seconds=seconds)
    return Judgement("compute", "loose: more than time inside operators", evidence)
