"""Why is my GPU utilisation low? Tools to measure the causes (day 7, sections 1, 2 and 4).

* :class:`UtilisationMeter`: the share of a training loop spent computing, against waiting for
  data (sections 1 and 2);
* :func:`step_utilisation`: the figures a step's profile gives, the device's busy share and the
  model FLOP utilisation (section 1), from :func:`helpers.profiling.step_profile`;
* :func:`loader_figures`: loader settings compared in interleaved rounds, each with its epoch's
  time, step share and speed-up with an interval (section 2);
* :func:`habit_cost`: what a habit costs against its fix, from interleaved rounds (section 4).

Memory (a step's peak, out-of-memory errors, 16-bit training) is in :mod:`helpers.memory`. This
module computes; what the figures say, the lesson says (:mod:`helpers.day07`).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from helpers.i18n import N_
from helpers.memory import (
    Attempt,
    Autocast,
    autocast_dtype,
    is_out_of_memory,
    largest_batch_that_fits,
    peak_memory,
    release_free_memory,
)
from helpers.timing import timed

if TYPE_CHECKING:  # helpers.stats imports scipy: only when a cost is computed
    import pandas as pd

    from helpers.stats import Difference
    from helpers.timing import Comparison

__all__ = [  # the memory tools live in helpers.memory; importable from here as before
    "Attempt", "Autocast", "HabitCost", "UtilisationMeter", "autocast_dtype", "habit_cost",
    "is_out_of_memory", "largest_batch_that_fits", "loader_figures", "peak_memory",
    "release_free_memory", "step_utilisation",
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


def loader_figures(
    result: Comparison, meters: dict[str, list[UtilisationMeter]], baseline: str
) -> pd.DataFrame:
    """Loader settings compared in interleaved rounds (``result``, from
    :func:`helpers.timing.compare`, one epoch per run), one row each: the median seconds per
    epoch, the median step share of the timed epochs (``meters``: each setting's meters, one per
    epoch run, warm-up first), and the speed-up over ``baseline`` (the geometric mean of the
    rounds' ratios) with its 95 % interval (:meth:`helpers.timing.Comparison.gain`)."""
    import pandas as pd

    rows = {}
    for name, m in result.measurements.items():
        timed_meters = meters[name][-len(m.samples) :]  # the warm-up's epochs are not timed
        gain = result.gain(baseline, name) if name != baseline else None
        rows[name] = {
            N_("s per epoch"): m.median,
            N_("step share"): statistics.median(meter.busy for meter in timed_meters),
            N_("speed-up"): gain.ratio if gain else 1.0,
            N_("95% interval, low"): gain.low if gain else 1.0,
            N_("95% interval, high"): gain.high if gain else 1.0,
        }
    return pd.DataFrame(rows).T.rename_axis(N_("loader"))


@dataclass(frozen=True)
class HabitCost:
    """What a habit costs against its fix, from their times in the same interleaved rounds."""

    ratio: float
    """The median of the rounds' ratios, habit over fix."""
    rounds: int
    """How many rounds timed both."""
    difference: Difference
    """Habit minus fix, in seconds per sample: the paired difference, a t-test on the rounds."""


def habit_cost(habit_seconds: Sequence[float], fix_seconds: Sequence[float]) -> HabitCost:
    """What a habit costs against its fix, from their times in the same interleaved rounds
    (seconds per sample, round by round): the median of the rounds' ratios, and the paired
    difference (:func:`helpers.stats.paired_difference`) that says whether the habit's extra
    time can be told from zero.

    >>> fix = [0.51e-3, 0.50e-3, 0.52e-3, 0.50e-3]
    >>> cost = habit_cost([30.2e-3, 29.5e-3, 31.0e-3, 30.4e-3], fix)
    >>> round(cost.ratio), cost.rounds, cost.difference.distinguishable
    (59, 4, True)
    """
    from helpers.stats import paired_difference

    ratios = [h / f for h, f in zip(habit_seconds, fix_seconds, strict=True)]
    return HabitCost(
        statistics.median(ratios), len(ratios), paired_difference(habit_seconds, fix_seconds)
    )


def step_utilisation(
    widths: tuple[int, ...], rows: int, *, device: torch.device | str, peak: float, steps: int = 20
) -> dict[str, float]:
    """How busy one full-batch SGD step of an ``mlp(widths)`` on ``rows`` random rows keeps
    ``device``: the device's busy share (GPU kernels running, from the profiler; on a CPU, time
    inside computing operators), the model FLOP utilisation against ``peak`` FLOP/s, and the
    median milliseconds per step. Both the step's time and the busy share come from
    :func:`helpers.profiling.step_profile`, the course's one way to measure them: steps back to
    back, ``steps`` to a block, as day 5 times its loop. Days 7 and the GPU check use it."""
    from helpers.models import mlp
    from helpers.profiling import step_profile
    from helpers.training import sgd_step
    from helpers.work import flops_per_step

    device = torch.device(device)
    torch.manual_seed(0)
    model = mlp(widths).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    X = torch.randn(rows, widths[0], device=device)
    y = torch.randint(0, widths[-1], (rows,), device=device)
    found = step_profile(lambda: sgd_step(model, optimizer, X, y), device=device, steps=steps)
    return {
        "device busy share": found.inside_share,
        "MFU": flops_per_step(widths, rows) / found.step_s / peak,
        N_("ms per step"): found.step_s * 1e3,
        N_("steps per timed block"): steps,
    }
