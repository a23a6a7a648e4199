"""Day 7: why is my GPU utilisation low? Tools to measure the three causes.

* :class:`UtilisationMeter`: the share of a training loop spent computing, against waiting for data.
* verdicts that read day 7's measurements: :func:`busy_verdict`, :func:`cost_verdict`,
  :func:`tuning_verdict`, and :func:`step_utilisation`, the figures a step's profile gives.

Memory (a step's peak, out-of-memory errors, 16-bit training) is in :mod:`helpers.memory`.
"""

from __future__ import annotations

import contextlib
import statistics
import time

import torch

from helpers import narration
from helpers.i18n import N_, _, word
from helpers.memory import (
    accumulation_verdict,
    autocast_dtype,
    is_out_of_memory,
    largest_batch_that_fits,
    peak_memory,
    release_free_memory,
)
from helpers.timing import timed

__all__ = [  # the memory tools live in helpers.memory; importable from here as before
    "UtilisationMeter", "accumulation_verdict", "autocast_dtype", "busy_verdict", "cost_verdict",
    "is_out_of_memory", "largest_batch_that_fits", "peak_memory", "release_free_memory",
    "step_utilisation", "tuning_verdict",
]  # fmt: skip


class UtilisationMeter:
    """The share of a training loop spent computing, against waiting for data.

    Wrap the data loader and the step::

        meter = UtilisationMeter(device)
        for xb, yb in meter.wrap(loader):
            with meter.computing():
                step(xb, yb)
        meter.busy  # fraction of the loop's time spent in the steps

    Waiting is the time ``next(loader)`` takes; computing is the step, with the device
    synchronised, so queued GPU work is counted where it runs.
    """

    def __init__(self, device: torch.device | str) -> None:
        self.device = torch.device(device)
        self.waits: list[float] = []
        self.computes: list[float] = []

    def wrap(self, loader):
        """Yield the batches of ``loader``, timing how long each one took to arrive."""
        batches = iter(loader)
        while True:
            start = time.perf_counter()
            try:
                batch = next(batches)
            except StopIteration:
                return
            self.waits.append(time.perf_counter() - start)
            yield batch

    @contextlib.contextmanager
    def computing(self):
        """Time one step (synchronised with the device)."""
        with timed(self.device) as watch:
            yield
        self.computes.append(watch.seconds)

    @property
    def busy(self) -> float:
        """Computing time over computing plus waiting time (0 to 1)."""
        total = sum(self.waits) + sum(self.computes)
        return sum(self.computes) / total if total else 0.0

    def summary(self) -> dict[str, float]:
        return {
            "steps": len(self.computes),
            "waiting (s)": sum(self.waits),
            "computing (s)": sum(self.computes),
            "busy": self.busy,
        }


def cost_verdict(habit: str, habit_seconds, fix_seconds) -> str:
    """What a habit costs against its fix, from their times in the same interleaved rounds
    (seconds per sample, round by round): the median of the rounds' ratios, and whether the
    paired difference (:func:`helpers.stats.paired_difference`, a t-test on the rounds) tells
    the habit's extra time from zero.

    >>> fix = [0.51e-3, 0.50e-3, 0.52e-3, 0.50e-3]
    >>> text = cost_verdict("a Python loop", [30.2e-3, 29.5e-3, 31.0e-3, 30.4e-3], fix)
    >>> text.split("; ")[0], text.split(": ")[-1]
    ("a Python loop takes 59× its fix's time (median of 4 rounds' ratios)", 'the interval \
excludes zero, so a real cost.')
    """
    from helpers.stats import paired_difference

    ratios = [h / f for h, f in zip(habit_seconds, fix_seconds, strict=True)]
    difference = paired_difference(habit_seconds, fix_seconds)
    ratio = statistics.median(ratios)
    times = f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.2f}×"
    said = _(
        "{habit} takes {times} its fix's time (median of {n} rounds' ratios); "
        "habit minus fix: {difference}: {zero}"
    ).format(
        habit=habit,
        times=times,
        n=len(ratios),
        difference=narration.interval(difference, 1e3, " ms", 3),
        zero=narration.zero(difference),
    )
    if not difference.distinguishable:
        return _("{said}; no cost shows above these rounds' noise.").format(said=said)
    if difference.value > 0:
        return _("{said}, so a real cost.").format(said=said)
    return _(
        "{said}, but the habit was the faster one: no habit saves time by "
        "costing more, so look for an ordering or cache effect in the rounds."
    ).format(said=said)


def tuning_verdict(epochs: dict[str, int | None], per_epoch) -> str:
    """What tuning a hyperparameter changed: the epochs needed to reach a loss (``None`` when not
    reached) and, from ``per_epoch`` (a :class:`helpers.stats.Difference` of the time per run of
    two settings), whether the time per epoch changed.

    >>> from helpers.stats import paired_difference
    >>> same = paired_difference([1.0, 1.1, 0.9], [1.05, 1.0, 1.0])
    >>> tuning_verdict({"lr 0.1": 200, "lr 0.01": 2000}, same)[:62]
    'lr 0.1 needed 200 epochs and lr 0.01 2000: 10.0x fewer epochs;'
    """
    (a, ea), (b, eb) = epochs.items()
    a, b = word(a), word(b)
    if ea is None or eb is None:
        reached = [name for name, e in epochs.items() if e is not None]
        if reached:
            steps = _("only {name} reached the target").format(name=word(reached[0]))
        else:
            steps = _("neither reached the target")
    elif ea == eb:
        steps = _("{a} and {b} needed the same {epochs} epochs").format(a=a, b=b, epochs=ea)
    else:
        factor = max(ea, eb) / max(min(ea, eb), 1)
        if ea < eb:
            steps = _("{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x fewer epochs")
        else:
            steps = _("{a} needed {ea} epochs and {b} {eb}: {factor:.1f}x more epochs")
        steps = steps.format(a=a, ea=ea, b=b, eb=eb, factor=factor)
    if per_epoch.distinguishable:
        return _("{steps}; the time per epoch differed too, measurably.").format(steps=steps)
    return _(
        "{steps}; the time per epoch did not change measurably, so each step "
        "kept the device as busy."
    ).format(steps=steps)


def busy_verdict(name: str, busy: float, mfu: float, kind: str) -> str:
    """Two utilisation figures side by side, and what they say together.

    ``busy`` is the share of the time ``kind`` events filled (``"kernel"``: GPU kernels running,
    what ``nvidia-smi`` counts; ``"operator"``: a CPU computing inside operators), ``mfu`` the
    model FLOP utilisation (achieved FLOP/s over the peak measured on this device; practitioners
    usually divide by the spec sheet's peak, which is higher, so theirs reads lower).

    >>> busy_verdict("the lesson's loop", 0.9, 0.002, "kernel").split(": ")[-1]
    'busy, yet the arithmetic units mostly idle (each small operation pays its overhead).'
    """
    if kind == "kernel":
        head = _(
            "{name}: kernels were running {busy:.0%} of the time, arithmetic at "
            "{mfu:.2%} of the measured peak"
        )
    else:
        head = _(
            "{name}: operators were computing {busy:.0%} of the time, arithmetic "
            "at {mfu:.2%} of the measured peak"
        )
    head = head.format(name=word(name), busy=busy, mfu=mfu)
    if mfu > 1:
        return _(
            "{head}: above the peak, which a step cannot be: the peak's "
            "measurement was slowed (a busy machine). Re-run both."
        ).format(head=head)
    if busy < 0.5:
        return _(
            "{head}: mostly overhead between the operations (Python, dispatch, launches)."
        ).format(head=head)
    if mfu < 0.05:
        return _(
            "{head}: busy, yet the arithmetic units mostly idle (each small "
            "operation pays its overhead)."
        ).format(head=head)
    return _("{head}: busy, and much of that time is real arithmetic.").format(head=head)


def step_utilisation(
    widths: tuple[int, ...], rows: int, *, device: torch.device | str, peak: float, steps: int = 20
) -> dict[str, float]:
    """How busy one full-batch SGD step of an ``mlp(widths)`` on ``rows`` random rows keeps
    ``device``: the device's busy share (GPU kernels running, from the profiler; on a CPU, time
    inside computing operators), the model FLOP utilisation against ``peak`` FLOP/s, and the
    median milliseconds per step. Days 7 and the GPU check use it."""
    from helpers.models import mlp
    from helpers.profiling import covered, timeline
    from helpers.timing import measure
    from helpers.training import sgd_step
    from helpers.work import flops_per_step

    device = torch.device(device)
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    X = torch.randn(rows, widths[0], device=device)
    y = torch.randint(0, widths[-1], (rows,), device=device)
    kind = "kernel" if device.type == "cuda" else "operator"
    events = timeline(
        lambda: [sgd_step(model, optimizer, X, y) for _step in range(steps)], device=device
    )
    seconds = measure(lambda: sgd_step(model, optimizer, X, y), device=device, repeats=15).median
    return {
        "device busy share": covered(events, kind),
        "MFU": flops_per_step(widths, rows) / seconds / peak,
        N_("ms per step"): seconds * 1e3,
    }


def workers_finding(
    best: str, best_speed: float, cpus: int, most: int, at_cpus: int, beyond: float, kept: float
) -> list[str]:
    """What day 7's loader settings did: the best plain worker count (``best``, a setting's name,
    with its speed-up), what workers beyond the ``cpus`` this process may use did (``beyond``:
    ``most`` workers' speed over ``at_cpus`` workers'), and what keeping workers alive between
    epochs did (``kept``, the second epoch's speed-up)."""
    if best == "num_workers=0":
        first = _("No worker count beat loading in the main process here (`num_workers=0`).")
    else:
        first = _(
            "Best plain worker count: **{best}**, {speed:.2f}× as fast as `num_workers=0`."
        ).format(best=best, speed=best_speed)
    if most == at_cpus:
        why = _("no worker count above that was tried")
    else:
        if beyond > 1.1:
            why = _(
                "{most} workers, more than the CPUs, still helped ({beyond:.2f}× as "
                "fast as {at_cpus})"
            )
        elif beyond >= 0.9:
            why = _(
                "{most} workers, more than the CPUs, added nothing ({beyond:.2f}× as "
                "fast as {at_cpus})"
            )
        else:
            why = _(
                "{most} workers, more than the CPUs, got in the way ({beyond:.2f}× as "
                "fast as {at_cpus})"
            )
        why = why.format(most=most, beyond=beyond, at_cpus=at_cpus)
    return [
        first,
        _(
            "This process may use **{cpus} CPUs**, shared by the workers and the "
            "training step; {why}. Keeping 2 workers alive between epochs "
            "(`persistent_workers`) made the second epoch {kept:.2f}× as fast as "
            "restarting them (one run of each setting: read small ratios as noise)."
        ).format(cpus=cpus, why=why, kept=kept),
    ]
