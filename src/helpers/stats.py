"""Is a difference real, or noise? Estimates with confidence intervals, and verdicts from them.

One interval type, :class:`Interval`, and one wording for "can the data tell this from zero?",
shared by the two analyses the lessons use:

* :func:`paired_difference`: the mean difference between two variants measured on the same units
  (the same cross-validation folds, the same rounds of a timing comparison); days 4, 5 and 7.
* :func:`fit_affine`: ``time = a + b * x`` by least squares, with intervals for ``a`` and ``b``;
  day 5 (the price of one recording), day 8 (latency and bandwidth).

Both are computed with scipy. The notebooks print the verdicts instead of typing conclusions in
advance.

>>> d = paired_difference([0.90, 0.91, 0.92], [0.80, 0.82, 0.81])
>>> d.distinguishable, d.verdict("one-hot", "codes").split(", so ")[1]
(True, 'one-hot is larger than codes.')
>>> fit = fit_affine([0, 10, 20, 30], [5.0, 5.1, 5.2, 5.3])
>>> round(fit.b.value, 6), round(fit.a.value, 6)
(0.01, 5.0)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats


@dataclass(frozen=True)
class Interval:
    """An estimate with its confidence interval, from ``n`` measurements."""

    value: float
    low: float
    high: float
    n: int
    confidence: float = 0.95

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes zero: the data tell the value apart from nothing."""
        return self.low > 0 or self.high < 0

    def text(self, scale: float = 1.0, unit: str = "", digits: int = 4) -> str:
        """``'+0.0102 (95% interval +0.0050 to +0.0150)'``, each number times ``scale``."""

        def number(x: float) -> str:
            return f"{x * scale:+.{digits}f}{unit}"

        return (
            f"{number(self.value)} ({self.confidence:.0%} interval {number(self.low)} to "
            f"{number(self.high)})"
        )

    def zero_verdict(self) -> str:
        """The shared wording: does the interval exclude zero?"""
        if self.distinguishable:
            return "the interval excludes zero"
        return (
            f"the interval includes zero, so these {self.n} measurements cannot tell it from zero"
        )


def _t(confidence: float, dof: int) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return float(stats.t.ppf((1 + confidence) / 2, dof))


@dataclass(frozen=True)
class Difference(Interval):
    """The mean of ``a - b`` over paired measurements."""

    def verdict(self, a: str = "a", b: str = "b") -> str:
        """One sentence: which is larger, or that the noise hides any difference."""
        text = f"{a} minus {b} is {self.text()}: {self.zero_verdict()}"
        if self.distinguishable:
            larger, smaller = (a, b) if self.value > 0 else (b, a)
            text += f", so {larger} is larger than {smaller}"
        return text[0].upper() + text[1:] + "."


def paired_difference(a: Sequence[float], b: Sequence[float], confidence: float = 0.95):
    """Mean of ``a[i] - b[i]`` with its confidence interval (Student's t, from scipy's
    ``ttest_rel``).

    Raises ``ValueError`` for sequences of different lengths or fewer than two pairs.
    """
    a, b = [float(v) for v in a], [float(v) for v in b]
    if len(a) != len(b):
        raise ValueError(f"paired measurements need equal lengths, got {len(a)} and {len(b)}")
    if len(a) < 2:
        raise ValueError("need at least two pairs to estimate the noise")
    _t(confidence, 1)  # checks the confidence level
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    if len(set(diffs)) == 1:  # no scatter at all: scipy would divide by zero
        return Difference(mean, mean, mean, len(diffs), confidence)
    low, high = stats.ttest_rel(a, b).confidence_interval(confidence)
    return Difference(mean, float(low), float(high), len(diffs), confidence)


@dataclass(frozen=True)
class AffineFit:
    """``y = a + b * x`` fitted by least squares."""

    a: Interval
    """The intercept: ``y`` when ``x`` is 0 (on day 5, the time of a run that records nothing)."""
    b: Interval
    """The slope: what one more unit of ``x`` adds (on day 5, the price of one recording)."""
    residual_sd: float
    """The scatter of the points around the line: the run-to-run noise, in ``y``'s unit."""
    x_range: float
    """The largest ``x`` minus the smallest."""

    @property
    def effect(self) -> float:
        """How much ``b`` changes ``y`` across the measured range: ``b * x_range``."""
        return self.b.value * self.x_range

    @property
    def effect_larger_than_noise(self) -> bool:
        """Whether that change is larger than the run-to-run noise (the residual scatter)."""
        return abs(self.effect) > self.residual_sd

    def verdict(self, what: str = "one recording") -> str:
        """What the fit says about ``b`` (seconds per unit of ``x``), from the numbers."""
        price = f"The price of {what} is {self.b.text(1e6, ' µs', 2)}: {self.b.zero_verdict()}"
        if not self.b.distinguishable:
            return f"{price}. The time is all in a ({self.a.value:.3f} s)."
        if self.b.value < 0:
            return (
                f"{price}, but it is negative: not a real cost but a drift or an ordering effect "
                "in the runs. Re-run, with more repeats."
            )
        size = "larger" if self.effect_larger_than_noise else "smaller"
        return (
            f"{price}; it changes the time by {abs(self.effect) * 1e3:.1f} ms across the measured "
            f"range, {size} than the run-to-run noise ({self.residual_sd * 1e3:.1f} ms)."
        )


def fit_affine(x: Sequence[float], y: Sequence[float], confidence: float = 0.95) -> AffineFit:
    """Least-squares ``y = a + b * x`` (``scipy.stats.linregress``) with Student-t intervals.

    Needs at least three points and two different ``x`` values.
    """
    x, y = [float(v) for v in x], [float(v) for v in y]
    n = len(x)
    if n != len(y):
        raise ValueError(f"x and y need the same length, got {n} and {len(y)}")
    if n < 3 or len(set(x)) < 2:
        raise ValueError("need at least 3 points and 2 different x values to fit a line")
    t = _t(confidence, n - 2)
    line = stats.linregress(x, y)
    a, b = float(line.intercept), float(line.slope)
    se_a, se_b = float(line.intercept_stderr), float(line.stderr)
    residuals = [v - (a + b * u) for u, v in zip(x, y, strict=True)]
    return AffineFit(
        a=Interval(a, a - t * se_a, a + t * se_a, n, confidence),
        b=Interval(b, b - t * se_b, b + t * se_b, n, confidence),
        residual_sd=math.sqrt(sum(r * r for r in residuals) / (n - 2)),
        x_range=max(x) - min(x),
    )
