"""What a link costs, latency + bytes / bandwidth, fitted and applied (day 8, sections 3 and 5).

The α-β model: a message of ``x`` bytes takes ``α + β·x`` seconds: ``α`` is the **latency**
every message pays however small, ``1/β`` the **bandwidth**. The times span four or five orders
of magnitude, from a few bytes (tens of µs) to tens of MB (tens of ms), so a plain least-squares
line is decided by the large messages: their noise of a few ms swamps a latency of 100 µs, and
the fitted latency can even come out negative. :func:`fit_alpha_beta` makes **each size count
by its relative error**: it fits ``log(time) = log(α + β·x)``, so a miss of 10 % weighs the same
at 4 bytes as at 64 MB, with ``log α`` and ``log β`` as the unknowns: both intervals are ratios
around the value and can never reach zero or below.

* :func:`fit_alpha_beta` and :class:`LinkFit`: latency and bandwidth with 95 % intervals
  (section 3; what a fit says, the lesson says: :func:`helpers.day08.link_fit_text`);
* :func:`allreduce_seconds` and :data:`LINKS`: what an all-reduce costs on a link whose stated
  bandwidth you know (8 GPUs, 2 machines; section 5); :func:`allreduce_estimates` for every link,
  with the network cards per machine a knob (``day08_nics_per_machine``).

>>> sizes = [32, 1e3, 1e4, 1e5, 1e6, 1e7]
>>> fit = fit_alpha_beta(sizes, [100e-6 + s / 1e9 for s in sizes])  # 100 µs, 1 GB/s, no noise
>>> round(fit.latency.value * 1e6, 3), round(fit.bandwidth.value / 1e9, 6)
(100.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import optimize, stats

from helpers.ring import ring_bytes_per_rank
from helpers.stats import Interval

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class LinkFit:
    """``seconds = latency + bytes / bandwidth``, fitted with each size weighted by its relative
    error (:func:`fit_alpha_beta`)."""

    latency: Interval
    """Seconds every message pays, with its interval (always above zero)."""
    bandwidth: Interval | None
    """Bytes per second, with its interval; ``None`` when the time does not grow with the size."""
    relative_error: float
    """How far the points lie from the fitted curve, typically, as a fraction of their time."""
    smallest: tuple[float, float]
    """The smallest message: ``(bytes, measured seconds)``, to read beside the latency."""


def _relative_line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """``y = a + b x`` by least squares on ``(y - a - b x) / y``: each point by its relative
    error (a start for the fit in logs)."""
    design = np.column_stack([1 / y, x / y])
    (a, b), *_rest = np.linalg.lstsq(design, np.ones_like(y), rcond=None)
    return float(a), float(b)


def _points(n_bytes: Sequence[float], seconds: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """Sizes and times as arrays, checked: one time per size, at least 3 points and 2 sizes."""
    x, y = np.asarray(n_bytes, dtype=float), np.asarray(seconds, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"need one time per size, got {x.shape} sizes and {y.shape} times")
    if len(x) < 3 or len(set(x.tolist())) < 2:
        raise ValueError("need at least 3 points and 2 different sizes to fit α and β")
    if (y <= 0).any() or (x < 0).any():
        raise ValueError("times must be positive and sizes not negative")
    return x, y


def _latency_alone(y: np.ndarray, t: float, confidence: float, smallest) -> LinkFit:
    """A fit without a bandwidth: the times' geometric mean, and its interval, as the latency."""
    logs = np.log(y)
    centre, spread = float(np.mean(logs)), float(np.std(logs, ddof=1))
    half = t * spread / math.sqrt(len(y))
    latency = Interval(
        math.exp(centre), math.exp(centre - half), math.exp(centre + half), len(y), confidence
    )
    return LinkFit(latency, None, math.expm1(spread), smallest)


def fit_alpha_beta(
    n_bytes: Sequence[float], seconds: Sequence[float], confidence: float = 0.95
) -> LinkFit:
    """Fit ``seconds = α + β · bytes`` in logs (each size by its relative error).

    The unknowns are ``log α`` and ``log β``, found by ``scipy.optimize.least_squares``; their
    standard errors come from the curve's slope at the answer (the Jacobian) and the scatter of
    the points around it, with Student's t for ``n - 2`` degrees of freedom, as for any line.
    Needs at least three points with two different sizes, and positive times.

    >>> noisy = [1.1e-4, 0.9e-4, 1.3e-4, 2.2e-3, 2.0e-2]  # 100 µs, 1 GB/s, ±10 % noise
    >>> fit = fit_alpha_beta([8, 1e3, 1e5, 2e6, 2e7], noisy)
    >>> fit.latency.low > 0, fit.latency.low < 100e-6 < fit.latency.high
    (True, True)
    """
    x, y = _points(n_bytes, seconds)
    t = float(stats.t.ppf((1 + confidence) / 2, len(x) - 2))
    smallest = (float(x[x.argmin()]), float(y[x.argmin()]))
    a, b = _relative_line(x, y)
    if b <= 0:  # the time does not grow with the size: a latency alone, no bandwidth to read
        return _latency_alone(y, t, confidence, smallest)
    start = [math.log(max(a, 1e-3 * y.min())), math.log(b)]

    def misses(p):
        return np.log(np.exp(p[0]) + np.exp(p[1]) * x) - np.log(y)

    found = optimize.least_squares(misses, start, method="lm", xtol=1e-12, ftol=1e-12)
    residual = found.fun
    sd = math.sqrt(float(residual @ residual) / (len(x) - 2))
    covariance = sd**2 * np.linalg.pinv(found.jac.T @ found.jac)
    se = np.sqrt(np.clip(np.diag(covariance), 0, None))
    (log_a, log_b), n = found.x, len(x)
    latency = Interval(
        math.exp(log_a), math.exp(log_a - t * se[0]), math.exp(log_a + t * se[0]), n, confidence
    )
    bandwidth = Interval(
        math.exp(-log_b),  # 1/β, and the interval turned round with it
        math.exp(-log_b - t * se[1]),
        math.exp(-log_b + t * se[1]),
        n,
        confidence,
    )
    return LinkFit(latency, bandwidth, math.expm1(sd), smallest)


def allreduce_seconds(
    n_bytes: float,
    world_size: int,
    bandwidth: float,
    latency: float = 0.0,
    *,
    parallel: int = 1,
):
    """The ring all-reduce's time on a link: ``2(p - 1)`` latencies plus ``2(p-1)/p x N`` bytes
    at ``bandwidth`` bytes/s (the slowest link in the ring sets it), split over ``parallel``
    rings side by side: between machines NCCL runs one ring through each network card, so a
    machine with a card per GPU moves its share of the bytes over all of them at once.

    >>> round(allreduce_seconds(2e9, 8, bandwidth=450e9) * 1e3, 2)  # 1B bf16 params, NVLink
    7.78
    >>> [round(allreduce_seconds(2e9, 16, 50e9, parallel=k) * 1e3, 1) for k in (1, 8)]  # 2 nodes
    [75.0, 9.4]
    """
    if parallel < 1:
        raise ValueError(f"need at least one link, got parallel={parallel}")
    steps = 2 * (world_size - 1)
    return steps * latency + ring_bytes_per_rank(n_bytes, world_size) / (bandwidth * parallel)


LINKS = {
    "PCIe 4.0 x16": 32e9,
    "PCIe 5.0 x16": 64e9,
    "NVLink 4 (H100 SXM)": 450e9,
    "100 Gb/s Ethernet": 12.5e9,
    "InfiniBand NDR (400 Gb/s)": 50e9,
}
"""Stated (vendor) bandwidths per direction, in bytes/s: figures from specifications, not
measured by the course. NVLink 4's 900 GB/s per H100 counts both directions."""
NETWORK = ("100 Gb/s Ethernet", "InfiniBand NDR (400 Gb/s)")
"""The links of :data:`LINKS` that join machines (one per network card); the others stay inside
one."""


def allreduce_estimates(
    cases: dict[str, tuple[float, int, int]], *, nics_per_machine: int
) -> pd.DataFrame:
    """Milliseconds of one ring all-reduce (bandwidth term only) per link of :data:`LINKS` and
    per case (``name: (bytes, GPUs, machines)``): within one machine at each link's stated
    bandwidth; across machines only on the :data:`NETWORK` links, ``nics_per_machine`` cards per
    machine side by side (NaN for the links that do not leave a machine)."""
    import pandas as pd

    rows = {}
    for link, bandwidth in LINKS.items():
        rows[link] = {
            case: float("nan")
            if machines > 1 and link not in NETWORK
            else allreduce_seconds(
                n_bytes, gpus, bandwidth, parallel=nics_per_machine if machines > 1 else 1
            )
            * 1e3
            for case, (n_bytes, gpus, machines) in cases.items()
        }
    return pd.DataFrame(rows).T
