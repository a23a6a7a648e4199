"""Timing on any device: the course's one timing module.

GPU work is queued and runs later, so a clock read right after ``model(x)`` measures only the
queueing. Every measurement here synchronises the device before it reads the clock.

* :func:`timed` times one block; :func:`measure` repeats one piece of work.
* :func:`compare` times several variants against each other: warm-up, then rounds in which every
  variant runs once, in a shuffled order, so that slow drifts of the machine (other programs,
  temperature, caches) fall on all variants alike.
* :func:`benchmark` uses ``torch.utils.benchmark`` for short statements (microseconds), with the
  number of threads set explicitly.
* :func:`profile_ops` uses the PyTorch profiler for a per-operator breakdown.
* :func:`fit_affine` fits ``time = a + b * x`` and :meth:`AffineFit.verdict` says what the data
  support, so notebooks never state a conclusion written in advance.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

import pandas as pd
import torch
import torch.utils.benchmark as torch_benchmark
from scipy import stats
from tqdm.auto import tqdm

from helpers.device import synchronize


@dataclass
class Stopwatch:
    """Seconds measured by :func:`timed`; ``seconds`` is set when the block ends."""

    seconds: float = float("nan")


@contextmanager
def timed(device: torch.device | str) -> Iterator[Stopwatch]:
    """Time a block of code on ``device``, waiting for the device before each clock read::

    with timed(device) as watch:
        train(...)
    print(watch.seconds)
    """
    watch = Stopwatch()
    synchronize(device)
    start = time.perf_counter()
    try:
        yield watch
    finally:
        synchronize(device)
        watch.seconds = time.perf_counter() - start


@dataclass
class Measurement:
    """Repeated timings of one piece of work, in seconds."""

    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def quartiles(self) -> tuple[float, float]:
        """The first and third quartiles: the middle half of the samples lies between them."""
        if len(self.samples) < 2:
            return self.samples[0], self.samples[0]
        q1, _, q3 = statistics.quantiles(self.samples, n=4, method="inclusive")
        return q1, q3

    @property
    def spread(self) -> float:
        """The interquartile range, ``q3 - q1``; 0 with fewer than 2 samples."""
        q1, q3 = self.quartiles
        return q3 - q1


def _check_counts(repeats: int, warmup: int) -> None:
    if repeats < 1 or warmup < 0:
        raise ValueError(f"need repeats >= 1 and warmup >= 0, got {repeats} and {warmup}")


def measure(
    fn: Callable[[], object], *, device: torch.device | str, repeats: int = 10, warmup: int = 2
) -> Measurement:
    """Time ``fn()`` ``repeats`` times on ``device`` after ``warmup`` untimed calls.

    Each call is timed on its own with :func:`timed`, so the device is synchronised before and
    after it: the samples include the work the device does, not just the time to queue it.
    """
    _check_counts(repeats, warmup)
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        with timed(device) as watch:
            fn()
        samples.append(watch.seconds)
    return Measurement(samples)


@dataclass
class Comparison:
    """What :func:`compare` measured: one :class:`Measurement` per variant, and the run order."""

    measurements: dict[str, Measurement]
    order: list[list[str]] = field(default_factory=list)
    """The order the variants ran in, one list per round."""

    def table(self) -> pd.DataFrame:
        """Median, quartiles, spread and number of samples per variant, in seconds."""
        rows = {
            name: {
                "median_s": m.median,
                "q1_s": m.quartiles[0],
                "q3_s": m.quartiles[1],
                "spread_s": m.spread,
                "runs": len(m.samples),
            }  # fmt: skip
            for name, m in self.measurements.items()
        }
        return pd.DataFrame(rows).T.astype({"runs": int})

    def ratios(self, baseline: str, variant: str) -> Measurement:
        """``baseline time / variant time`` round by round: how many times faster ``variant`` is."""
        pairs = zip(self.measurements[baseline].samples, self.measurements[variant].samples,
                    strict=True)  # fmt: skip
        return Measurement([b / v for b, v in pairs])


def compare(
    variants: dict[str, Callable[[], object]],
    *,
    device: torch.device | str,
    repeats: int = 5,
    warmup: int = 1,
    seed: int = 0,
    progress: bool | str = True,
) -> Comparison:
    """Time several variants against each other, interleaved in a shuffled order.

    Every variant is first run ``warmup`` times untimed. Then come ``repeats`` rounds; in each,
    every variant runs once, timed with :func:`timed`, in an order shuffled anew (reproducibly, from
    ``seed``). A progress bar counts the runs (labelled ``progress`` when that is a string; hidden
    with ``progress=False``); it is updated between runs, never inside a timed one.
    """
    _check_counts(repeats, warmup)
    if not variants:
        raise ValueError("compare() needs at least one variant")
    label = progress if isinstance(progress, str) else "compare"
    bar = tqdm(total=(warmup + repeats) * len(variants), desc=label, unit="run",
               disable=progress is False)  # fmt: skip
    with bar:
        for fn in variants.values():
            for _ in range(warmup):
                fn()
                bar.update()
        rng = random.Random(seed)
        samples: dict[str, list[float]] = {name: [] for name in variants}
        order = []
        for _ in range(repeats):
            names = list(variants)
            rng.shuffle(names)
            order.append(names)
            for name in names:
                with timed(device) as watch:
                    variants[name]()
                samples[name].append(watch.seconds)
                bar.update()
    return Comparison({name: Measurement(s) for name, s in samples.items()}, order)


def benchmark(
    fn: Callable[[], object], *, device: torch.device | str, threads: int = 1,
    min_run_time: float = 0.2,
) -> Measurement:  # fmt: skip
    """Time a short statement with ``torch.utils.benchmark`` (``threads`` set explicitly).

    The benchmark runs ``fn`` in blocks until ``min_run_time`` seconds have passed; each sample is
    the time per call in one block. The clock waits for ``device`` before each reading.
    """

    def clock() -> float:
        synchronize(device)
        return time.perf_counter()

    timer = torch_benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=threads, timer=clock)
    return Measurement(list(timer.blocked_autorange(min_run_time=min_run_time).times))


# Operators that only describe memory differently (a view, a transpose) or allocate it: no
# arithmetic, no kernel launch on a GPU.
METADATA_OPS = frozenset(
    f"aten::{name}"
    for name in [
        "t", "transpose", "as_strided", "view", "expand", "detach", "resolve_conj",
        "resolve_neg", "alias", "reshape", "_reshape_alias", "squeeze", "unsqueeze", "select",
        "slice", "permute", "empty", "empty_strided", "empty_like", "lift_fresh", "_unsafe_view",
    ]
)  # fmt: skip


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence what C/C++ code writes to file descriptor 2 (Python's own errors are unaffected)."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _real(event) -> bool:
    return event.name.startswith("aten::") and event.name not in METADATA_OPS


def _computes(event) -> bool:
    """Whether a profiler event is an operator that calls no other real operator: the one that
    does the arithmetic (see METADATA_OPS for what does not count)."""
    return _real(event) and not any(_real(child) for child in event.cpu_children)


def profile_ops(fn: Callable[[], object], *, device: torch.device | str) -> pd.DataFrame:
    """Run ``fn`` once under the PyTorch profiler; one row per operator, slowest first.

    Columns: ``calls``; ``computing_calls``, the calls that do arithmetic themselves rather than
    calling other operators or only relabelling memory (on a GPU, each is a kernel launch);
    ``self_cpu_us``, time inside the operator itself on the CPU; ``cpu_total_us``, with the
    operators it called; and on a CUDA device ``device_us``, time its kernels ran on the GPU.
    ``table.attrs["kernels"]`` is the number of GPU kernels that ran (0 without CUDA).
    """
    activities = [torch.profiler.ProfilerActivity.CPU]
    if torch.device(device).type == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    prof = torch.profiler.profile(activities=activities)
    with _quiet_stderr():  # the profiler's C++ side logs "profiler_start" to the raw stderr
        prof.start()
    try:
        fn()
        synchronize(device)
    finally:
        with _quiet_stderr():
            prof.stop()
    computing: dict[str, int] = {}
    for event in prof.events():
        if _computes(event):
            computing[event.name] = computing.get(event.name, 0) + 1
    rows = []
    for event in prof.key_averages():
        rows.append({
            "op": event.key,
            "calls": event.count,
            "computing_calls": computing.get(event.key, 0),
            "self_cpu_us": event.self_cpu_time_total,
            "cpu_total_us": event.cpu_time_total,
            "device_us": getattr(event, "self_device_time_total", 0.0),
        })  # fmt: skip
    table = pd.DataFrame(rows).set_index("op").sort_values("self_cpu_us", ascending=False)
    cuda = torch.autograd.DeviceType.CUDA
    table.attrs["kernels"] = sum(1 for e in prof.events() if e.device_type == cuda)
    return table


@dataclass(frozen=True)
class AffineFit:
    """``time = a + b * x`` fitted by least squares, with confidence intervals."""

    a: float
    b: float
    a_low: float
    a_high: float
    b_low: float
    b_high: float
    residual_sd: float
    """The scatter of the points around the line: the run-to-run noise, in seconds."""
    x_range: float
    """The largest x minus the smallest."""
    n: int
    confidence: float

    @property
    def b_distinguishable(self) -> bool:
        """Whether the interval for ``b`` excludes zero."""
        return self.b_low > 0 or self.b_high < 0

    @property
    def effect(self) -> float:
        """How much ``b`` changes the time across the measured range: ``b * x_range``."""
        return self.b * self.x_range

    @property
    def effect_larger_than_noise(self) -> bool:
        """Whether that change is larger than the run-to-run noise (the residual scatter)."""
        return abs(self.effect) > self.residual_sd

    def verdict(self, what: str = "one recording") -> str:
        """What the fit says, in one or two sentences built from the numbers."""
        b_text = (
            f"{self.b * 1e6:+.2f} µs (interval {self.b_low * 1e6:+.2f} to {self.b_high * 1e6:+.2f})"
        )
        noise = f"the run-to-run noise ({self.residual_sd * 1e3:.1f} ms)"
        change = f"{abs(self.effect) * 1e3:.1f} ms across the measured range"
        if not self.b_distinguishable:
            return (
                f"The price of {what} is {b_text}: the interval includes zero, so these runs "
                f"cannot tell it from nothing. The time is all in a ({self.a:.3f} s)."
            )
        if self.b < 0:
            return (
                f"The price of {what} comes out negative, {b_text}: not a real cost but a drift or "
                "an ordering effect in the runs. Re-run, with more repeats."
            )
        size = "larger" if self.effect_larger_than_noise else "smaller"
        return (
            f"The price of {what} is {b_text}, distinguishable from zero; it changes the time by "
            f"{change}, {size} than {noise}."
        )


def fit_affine(x: Sequence[float], y: Sequence[float], confidence: float = 0.95) -> AffineFit:
    """Least-squares ``y = a + b * x`` with Student-t confidence intervals for ``a`` and ``b``.

    Needs at least three points and two different ``x`` values.
    """
    x, y = [float(v) for v in x], [float(v) for v in y]
    n = len(x)
    if n != len(y):
        raise ValueError(f"x and y need the same length, got {n} and {len(y)}")
    if n < 3 or len(set(x)) < 2:
        raise ValueError("need at least 3 points and 2 different x values to fit a line")
    line = stats.linregress(x, y)
    a, b, se_a, se_b = map(float, (line.intercept, line.slope, line.intercept_stderr, line.stderr))
    residuals = [v - (a + b * u) for u, v in zip(x, y, strict=True)]
    sd = math.sqrt(sum(r * r for r in residuals) / (n - 2))
    t = stats.t.ppf((1 + confidence) / 2, n - 2)
    return AffineFit(
        a=a, b=b, a_low=a - t * se_a, a_high=a + t * se_a, b_low=b - t * se_b, b_high=b + t * se_b,
        residual_sd=sd, x_range=max(x) - min(x), n=n, confidence=confidence,
    )  # fmt: skip
