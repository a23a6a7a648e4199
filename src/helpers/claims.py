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
whose verdict and evidence follow from the numbers (the tests give each one data for every
outcome).

>>> student_fit().b.distinguishable  # the student's four runs cannot price one recording
False
>>> single_runs_say(student_fit())
'4 single runs cannot price a recording: no line, straight or not, can be seen in them.'
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from helpers.stats import AffineFit, Interval, LineCheck, fit_affine

STUDENT_EPOCHS = 20_000
"""Epochs per run in the original observation."""
STUDENT_COMPUTE_S = 3.0
"""The original "about 3 s of necessary compute", subtracted from every run's total."""
STUDENT_RUNS = ((100, 200, 10.43), (200, 100, 10.02), (1000, 20, 10.12), (2000, 10, 9.74))
"""The original observation: (record every N epochs, recordings, remaining time in seconds)."""

CLAIMS = {
    "floor": "A floor (底噪) every epoch pays whether or not it records: the Python `for` loop "
    "itself plus launching kernels (启动开销)",
    "sync": "`.item()` is a synchronisation (同步) that makes the CPU wait for the GPU, with a "
    "threshold effect (阈值效应): below some recording frequency the waits stop mattering",
    "issue": "Submission is asynchronous (异步): once recordings are rare, how fast the CPU "
    "issues commands, not the number of syncs, limits the speed",
    "compute": "'About 3 s of necessary compute' (必须的计算时长), subtracted to leave the "
    "remaining time (剩余时长)",
}
"""The explanation's parts in the course's words, and the lesson's loosest number."""


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
        return (
            f"{fit.b.n} single runs cannot price a recording: no line, straight or not, can be "
            "seen in them."
        )
    if fit.b.value < 0:
        return (
            f"these {fit.b.n} runs drifted: a slope that more recordings cannot cause, so no price "
            "either."
        )
    return f"these {fit.b.n} runs do price a recording, though one run each is a thin basis."


@dataclass(frozen=True)
class Judgement:
    """One part of the explanation, and what the measurements say about it."""

    part: str
    """A key of :data:`CLAIMS`."""
    verdict: str
    """``supported``, ``partly supported``, ``not supported``, ``not seen here``, ``loose`` or
    ``could be arithmetic``: decided by the numbers."""
    evidence: str
    """The numbers behind the verdict, as a sentence."""

    def row(self) -> dict:
        return {"claim": CLAIMS[self.part], "your data": self.verdict, "evidence": self.evidence}


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:.3g} µs"


def judge_floor(
    floor: Interval, bare_loop: float, operators: float, device_type: str = "cpu"
) -> Judgement:
    """Part 1. ``floor``: the time per epoch that no recording causes (the fit's ``a`` per epoch,
    seconds); ``bare_loop``: seconds per epoch of the ``for`` loop with its ``%`` test alone;
    ``operators``: operators dispatched per epoch.

    Supported when the floor is there and the bare loop carries at least half of it; partly
    supported when the floor is there but the loop is the smaller part (the operators carry it);
    not supported when no floor can be told from zero.
    """
    if not floor.distinguishable or floor.value <= 0:
        return Judgement(
            "floor",
            "not supported",
            f"no floor: the time per epoch without recordings is {floor.text(1e6, ' µs', 1)}; "
            f"{floor.zero_verdict()}.",
        )
    share = bare_loop / floor.value
    head = (
        f"The floor is real: {_us(floor.value)} per epoch (95% interval {_us(floor.low)} to "
        f"{_us(floor.high)}), paid whatever is recorded. The bare `for` loop with its `%` test "
        f"takes {_us(bare_loop)} per epoch, {share:.2%} of it"
    )
    if share >= 0.5:
        return Judgement("floor", "supported", f"{head}: the Python loop itself carries it.")
    launches = (
        "each one a kernel launch"
        if device_type == "cuda"
        else "on this device not kernel launches but dispatch, autograd and the optimiser's Python"
    )
    return Judgement(
        "floor",
        "partly supported",
        f"{head}. The floor is the {operators:.0f} operators each epoch dispatches "
        f"({launches}), not the loop.",
    )


def judge_sync(line: LineCheck, device_type: str = "cpu") -> Judgement:
    """Part 2, from :func:`helpers.stats.check_line` on (recordings, seconds per run).

    The price of one recording must be told from zero and positive for the waits to be seen; the
    threshold effect needs the time to bend upwards (each recording dearer when they are
    frequent). A straight line means each wait costs the same: no threshold.
    """
    price = line.fit.b
    priced = f"one recording costs {price.text(1e6, ' µs', 2)}"
    sharp = f"these runs would have detected {_us(line.smallest_slope)} or more"
    if price.distinguishable and price.value > 0:
        real = (
            "Recording has a price here, though on a CPU it is no wait for a device (the work "
            "of recording itself, or a drift the shuffled rounds did not cancel)"
            if device_type == "cpu"
            else "The waits are real"
        )
        bend = line.bend.text(1e3, " ms", 1)
        if line.straight:
            return Judgement(
                "sync",
                "partly supported",
                f"{real}: {priced}. But there is no threshold: the time is a straight line in the "
                f"recordings (bend {bend}): each recording costs the same, and they matter in "
                "proportion to their number.",
            )
        if line.bend.value > 0:
            return Judgement(
                "sync",
                "supported",
                f"{real}: {priced}, and the time bends upwards (bend {bend}): frequent recordings "
                "cost more each, a threshold-like effect.",
            )
        return Judgement(
            "sync",
            "partly supported",
            f"{real}: {priced}, but the time bends downwards (bend {bend}): frequent recordings "
            "cost less each, the opposite of a threshold.",
        )
    if price.distinguishable:
        return Judgement(
            "sync",
            "not supported",
            f"Recording more made runs faster ({priced}): a drift of the machine, not a cost. "
            "Re-run with more rounds.",
        )
    if device_type == "cpu":
        return Judgement(
            "sync",
            "not seen here",
            f"On a CPU there is no device to wait for: `.item()` reads a number already in "
            f"memory. Indeed {priced}: {price.zero_verdict()}; {sharp}.",
        )
    return Judgement(
        "sync",
        "not supported",
        f"Even on this {device_type} device the waits do not show: {priced}: "
        f"{price.zero_verdict()}; {sharp}, so if they cost, they cost less.",
    )


def judge_issue(
    epoch: float,
    inside_operators: float,
    sync_share: float,
    speedup_low: float,
    device_type: str = "cpu",
) -> Judgement:
    """Part 3. ``epoch``: seconds per epoch with rare recordings; ``inside_operators``: seconds
    per epoch inside the operators that compute (the profiler; on a GPU, kernel time);
    ``sync_share``: the share of such a run that the recordings' waits take (``b * recordings /
    time``); ``speedup_low``: the lower quartile of how many times faster a variant that issues
    far fewer operations per epoch ran (round by round).

    Supported when the overhead (the time outside operators) is more than half an epoch, the
    waits less than half a run, and issuing less made training faster in most rounds; on a CPU,
    where nothing is queued, only that second half is tested, and the verdict says so.
    """
    overhead = 1 - inside_operators / epoch
    facts = (
        f"with rare recordings an epoch takes {_us(epoch)}, {overhead:.0%} of it outside the "
        f"operators (overhead) and {sync_share:.1%} of a run in the recordings' waits; issuing "
        f"fewer operations per epoch made training at least {speedup_low:.1f}× faster in "
        "three rounds out of four"
    )
    failed = []
    if overhead <= 0.5:
        failed.append("most of an epoch is spent inside operators: the work, not issuing it")
    if sync_share >= 0.5:
        failed.append("the waits still take most of the time")
    if speedup_low <= 1:
        failed.append("issuing less did not make it reliably faster")
    if failed:
        return Judgement(
            "issue", "not supported", f"{facts[0].upper()}{facts[1:]}; but {'; '.join(failed)}."
        )
    if device_type == "cpu":
        where = (
            "On a CPU nothing is queued (the CPU runs each operator itself), so only the second "
            "half can be tested, and it holds: "
        )
        return Judgement("issue", "supported (second half only)", f"{where}{facts}.")
    return Judgement("issue", "supported", f"{facts}.")


def judge_compute_claim(
    flops: float,
    peak_flops: float,
    inside_operators: float,
    seconds: float = STUDENT_COMPUTE_S,
    epochs: int = STUDENT_EPOCHS,
) -> Judgement:
    """The lesson's "about 3 s of necessary compute": which of the three quantities can it be?

    ``flops``: floating-point operations per epoch; ``peak_flops``: this device's measured peak;
    ``inside_operators``: this device's time per epoch inside operators. If the 3 s were
    arithmetic, the student's GPU would have computed at ``flops / (seconds / epochs)``; a GPU
    slower than this machine's own peak is not plausible, so below it the 3 s cannot be
    arithmetic time (verdict ``loose``).
    """
    per_epoch = seconds / epochs
    implied = flops / per_epoch
    head = (
        f"{seconds:g} s over {epochs} epochs is {_us(per_epoch)} per epoch. As arithmetic "
        f"({flops:,.0f} FLOPs per epoch) that is {implied / 1e9:.3g} GFLOP/s"
    )
    if implied < peak_flops:
        return Judgement(
            "compute",
            "loose",
            f"{head}, {peak_flops / implied:,.0f}× below this machine's own peak: it cannot be "
            "arithmetic time. It can only be time inside operators (on a GPU, kernels that take "
            "microseconds however little they compute) or part of the overhead; here, time "
            f"inside operators is {_us(inside_operators)} per epoch.",
        )
    return Judgement(
        "compute",
        "could be arithmetic",
        f"{head}, at or above this machine's peak ({peak_flops / 1e9:.3g} GFLOP/s): a fast device "
        "could spend it on arithmetic.",
    )
