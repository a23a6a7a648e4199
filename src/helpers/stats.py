"""Is a difference real, or noise? Estimates with confidence intervals (days 4, 5, 7 and 8).

One interval type, :class:`Interval`, whose one question is "can the data tell this from zero?"
(:attr:`Interval.distinguishable`), shared by the analyses the lessons use:

* :func:`paired_difference`: the mean difference between two variants measured on the same units
  (the same cross-validation folds, the same rounds of a timing comparison); days 4, 5 and 7.
* :func:`paired_ratio`: how many times as fast one variant ran as another in the same rounds, as a
  :class:`Gain` (a ratio with its interval); day 7.
* :func:`fit_affine`: ``time = a + b * x`` by least squares, with intervals for ``a`` and ``b``;
  day 5 (the price of one recording), day 8 (latency and bandwidth);
* :func:`same_rows`: two models on the same test rows (day 4, section 5), McNemar's exact test;
* :func:`simulate`: many made-up experiments with a known truth, to see what a 95 % interval does
  (day 5a, section 3);
* :func:`check_line`: is the straight line right, or does the slope change at a knee (a
  threshold)? The bend a line with one knee finds, and the smallest slope and bend these
  measurements could have detected (day 5a), so that "cannot tell it from zero" is never read as
  "proved to be zero".

All are computed with scipy and return numbers; :mod:`helpers.narration` says what they mean.

>>> d = paired_difference([0.90, 0.91, 0.92], [0.80, 0.82, 0.81])
>>> d.distinguishable, d.value > 0
(True, True)
>>> fit = fit_affine([0, 10, 20, 30], [5.0, 5.1, 5.2, 5.3])
>>> round(fit.b.value, 6), round(fit.a.value, 6)
(0.01, 5.0)
>>> found = check_line([0, 1, 2, 3, 4, 5], [1.0, 1.0, 1.0, 2.0, 3.0, 4.0])  # flat, then rising
>>> found.knee, abs(round(found.below.value, 6)), round(found.above.value, 6)
(2.0, 0.0, 1.0)
>>> found.bend_at, round(found.bend.value, 3)  # at the knee, 0.686 under the straight line
(2.0, -0.686)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import optimize, stats


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

    def scaled(self, factor: float) -> Interval:
        """The same estimate in another unit: every number times ``factor`` (positive)."""
        if not factor > 0:
            raise ValueError(f"scale by a positive factor, got {factor}")
        return Interval(
            self.value * factor, self.low * factor, self.high * factor, self.n, self.confidence
        )


def _t(confidence: float, dof: int) -> float:
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    return float(stats.t.ppf((1 + confidence) / 2, dof))


def _detectable(standard_error: float, dof: int, confidence: float, power: float) -> float:
    """The smallest true value a two-sided test at ``confidence`` finds distinguishable from zero
    with probability ``power``: ``(t(confidence) + t(power)) * standard_error``."""
    if not 0 < power < 1:
        raise ValueError(f"power must be between 0 and 1, got {power}")
    return (_t(confidence, dof) + float(stats.t.ppf(power, dof))) * standard_error


@dataclass(frozen=True)
class Difference(Interval):
    """The mean of ``a - b`` over paired measurements."""


def paired_difference(
    a: Sequence[float],
    b: Sequence[float],
    confidence: float = 0.95,
    *,
    test_to_train: float | None = None,
):
    """Mean of ``a[i] - b[i]`` with its confidence interval (Student's t, from scipy's
    ``ttest_rel``).

    Scores from repeated cross-validation are not independent: the folds share rows. Give
    ``test_to_train`` (test rows over training rows in one fold, 1/4 for 5 folds) and the
    interval is widened by Nadeau and Bengio's correction: the variance of the mean is taken as
    ``variance * (1/n + test_to_train)`` instead of ``variance / n``.

    >>> folds = [0.010, 0.000, 0.020, 0.005, 0.015] * 10  # 10 repeats of 5 folds
    >>> plain = paired_difference(folds, [0.0] * 50)
    >>> corrected = paired_difference(folds, [0.0] * 50, test_to_train=1 / 4)
    >>> plain.distinguishable, corrected.distinguishable, corrected.low < plain.low
    (True, True, True)

    Raises ``ValueError`` for sequences of different lengths or fewer than two pairs.
    """
    a, b = [float(v) for v in a], [float(v) for v in b]
    if len(a) != len(b):
        raise ValueError(f"paired measurements need equal lengths, got {len(a)} and {len(b)}")
    if len(a) < 2:
        raise ValueError("need at least two pairs to estimate the noise")
    _t(confidence, 1)  # checks the confidence level
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean, n = statistics.fmean(diffs), len(diffs)
    if len(set(diffs)) == 1:  # no scatter at all: scipy would divide by zero
        return Difference(mean, mean, mean, n, confidence)
    if test_to_train is not None:
        half = _t(confidence, n - 1) * statistics.stdev(diffs) * math.sqrt(1 / n + test_to_train)
        return Difference(mean, mean - half, mean + half, n, confidence)
    low, high = stats.ttest_rel(a, b).confidence_interval(confidence)
    return Difference(mean, float(low), float(high), n, confidence)


@dataclass(frozen=True)
class Gain:
    """How many times as fast one way ran as another, from the same interleaved rounds: the
    rounds' ratios compared in logs."""

    logs: Difference
    """The paired difference of the log times, slower way minus faster way (95 % interval)."""

    @property
    def ratio(self) -> float:
        """The geometric mean of the rounds' ratios."""
        return math.exp(self.logs.value)

    @property
    def low(self) -> float:
        """The ratio's interval, low end."""
        return math.exp(self.logs.low)

    @property
    def high(self) -> float:
        """The ratio's interval, high end."""
        return math.exp(self.logs.high)

    @property
    def rounds(self) -> int:
        """How many rounds timed both."""
        return self.logs.n

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes a ratio of 1: the rounds tell the two apart."""
        return self.logs.distinguishable


def paired_ratio(slower: Sequence[float], faster: Sequence[float]) -> Gain:
    """How many times as fast the ``faster`` way ran as the ``slower`` one, from their times in the
    same rounds (paired): the rounds' ratios compared in logs (a paired difference of log times,
    so a ratio's noise counts alike whatever the times are), their geometric mean and a 95 %
    interval that says whether the ratio can be told from 1.

    >>> gain = paired_ratio([1.31, 1.25, 1.40], [0.105, 0.098, 0.110])
    >>> round(gain.ratio, 1), round(gain.low, 1), round(gain.high, 1), gain.distinguishable
    (12.7, 12.3, 13.0, True)
    """
    return Gain(paired_difference([math.log(t) for t in slower], [math.log(t) for t in faster]))


@dataclass(frozen=True)
class SameRows:
    """Two models on the same test rows, compared where they disagree."""

    a_only: int
    """Rows only the first model got right."""
    b_only: int
    """Rows only the second got right."""
    n: int
    """Rows in all."""
    p: float
    """McNemar's exact test: the chance of a split at least this lopsided if the two models were
    equally good (1 when they never disagree)."""
    confidence: float = 0.95

    @property
    def lopsided(self) -> bool:
        """Whether the split is too lopsided for luck: ``p`` below ``1 - confidence``."""
        return self.p < 1 - self.confidence


def same_rows(
    a_right: Sequence[bool], b_right: Sequence[bool], confidence: float = 0.95
) -> SameRows:
    """Two models scored on the same test rows (``a_right``, ``b_right``: whether each got each
    row right), compared where they disagree: McNemar's exact test (``scipy.stats.binomtest``).

    >>> found = same_rows([1, 1, 1, 0], [1, 1, 0, 1])
    >>> found.a_only, found.b_only, found.n, found.lopsided
    (1, 1, 4, False)
    """
    if len(a_right) != len(b_right) or not len(a_right):
        raise ValueError("both models need a result for the same, non-empty set of rows")
    pairs = list(zip(map(bool, a_right), map(bool, b_right), strict=True))
    a_only = sum(x and not y for x, y in pairs)
    b_only = sum(y and not x for x, y in pairs)
    p = stats.binomtest(a_only, a_only + b_only, 0.5).pvalue if a_only + b_only else 1.0
    return SameRows(a_only, b_only, len(pairs), float(p), confidence)


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

    def smallest_detectable(self, power: float = 0.8) -> float:
        """The smallest slope these points would find distinguishable from zero, with probability
        ``power``: a slope below it can hide in the noise (in ``y``'s unit per unit of ``x``)."""
        dof = self.b.n - 2
        standard_error = (self.b.high - self.b.low) / (2 * _t(self.b.confidence, dof))
        return _detectable(standard_error, dof, self.b.confidence, power)


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


@dataclass(frozen=True)
class LineCheck:
    """Is ``y = a + b * x`` the right shape, or does the slope change at a knee? What
    :func:`check_line` found."""

    fit: AffineFit
    """The straight line."""
    knee: float
    """The ``x`` where a line with one change of slope (a *hinge*) fits the points best."""
    below: Interval
    """The hinge's slope up to the knee (on day 5: the price of a recording when they are rare)."""
    above: Interval
    """Its slope after the knee (the price when they are frequent)."""
    bend: Interval
    """The largest gap between the hinge and the straight line at a measured ``x``
    (:attr:`bend_at`), in ``y``'s unit: hinge minus line there. Zero when the knee changes
    nothing; its interval says whether the data can tell a knee from one straight line."""
    bend_at: float
    """The measured ``x`` where that gap is largest."""
    smallest_bend: float
    """The smallest bend these points would find distinguishable from zero (with ``power``)."""
    smallest_slope: float
    """The smallest slope ``b`` these points would find distinguishable from zero."""
    knees_tried: int
    """In how many gaps between measured ``x`` values a knee was sought: the intervals are widened
    for having picked the best of them."""
    power: float = 0.8

    @property
    def straight(self) -> bool:
        """Whether the straight line stands: the bend cannot be told from zero."""
        return not self.bend.distinguishable


def _hinge(xs: np.ndarray, ys: np.ndarray, knee: float):
    """Least squares of ``y = a + b*x + c*max(0, x - knee)``: coefficients, covariance, RSS."""
    design = np.column_stack([np.ones(len(xs)), xs, np.maximum(0.0, xs - knee)])
    coefficients, *_rest = np.linalg.lstsq(design, ys, rcond=None)
    residuals = ys - design @ coefficients
    rss = float(residuals @ residuals)
    return coefficients, (rss / (len(xs) - 3)) * np.linalg.inv(design.T @ design), rss


def check_line(
    x: Sequence[float], y: Sequence[float], confidence: float = 0.95, power: float = 0.8
) -> LineCheck:
    """Fit the straight line, test it against a line with one knee, and say how sharp the test was.

    A threshold is a change of slope: flat, then rising. The hinge ``y = a + b*x + c*max(0, x -
    knee)`` is fitted by least squares, the knee anywhere between the third-smallest and the
    third-largest measured ``x`` (the second where there are fewer than six), so that each slope
    rests on several measured values (within each gap between them, the best knee is found by
    ``scipy.optimize.minimize_scalar``), and the knee that fits best is kept. Picking
    the best of the gaps flatters the fit, so the Student-t intervals use the confidence of that
    many tests at once (Bonferroni: ``1 - (1 - confidence) / gaps``). The smallest detectable
    slope and bend are ``(t(confidence) + t(power)) * standard error``. Needs at least five
    points and four different ``x`` values.

    >>> xs = [0, 1, 2, 5, 10, 20, 50, 100] * 3
    >>> ys = [1.0 + 0.01 * max(0, x - 10) + 0.001 * (i % 3) for i, x in enumerate(xs)]
    >>> found = check_line(xs, ys)
    >>> found.knee, found.below.distinguishable, found.bend.distinguishable
    (10.0, False, True)
    """
    fit = fit_affine(x, y, confidence)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    levels = sorted(set(xs.tolist()))
    if len(xs) < 5 or len(levels) < 4:
        raise ValueError("need at least 5 points and 4 different x values to test for a knee")
    # the knee leaves at least two measured x values below it and two above (three where there
    # are six or more levels), so neither slope rests on one pair of points
    inner = levels[2:-2] if len(levels) >= 6 else levels[1:-1]
    gaps = list(zip(inner, inner[1:], strict=False)) or [(inner[0], inner[0])]
    candidates = list(inner)
    for low, high in gaps:
        if high > low:
            found = optimize.minimize_scalar(
                lambda k: _hinge(xs, ys, k)[2], bounds=(low, high), method="bounded"
            )
            candidates.append(float(found.x))
    knee = min(candidates, key=lambda k: _hinge(xs, ys, k)[2])
    (_a, b, c), covariance, rss = _hinge(xs, ys, knee)
    dof = len(xs) - 3
    wide = 1 - (1 - confidence) / len(gaps)
    t = _t(wide, dof)
    se_below = math.sqrt(float(covariance[1, 1]))
    se_above = math.sqrt(float(covariance[1, 1] + covariance[2, 2] + 2 * covariance[1, 2]))
    # The gap between the two fits at each measured x is linear in the runs: (H - L) @ y, with
    # H and L the two least-squares fits evaluated there; its variance follows from the hinge's.
    at = np.asarray(levels)
    hinge_rows = np.column_stack([np.ones(len(at)), at, np.maximum(0.0, at - knee)])
    line_rows = np.column_stack([np.ones(len(at)), at])
    hinge_design = np.column_stack([np.ones(len(xs)), xs, np.maximum(0.0, xs - knee)])
    line_design = np.column_stack([np.ones(len(xs)), xs])
    gap = hinge_rows @ np.linalg.pinv(hinge_design) - line_rows @ np.linalg.pinv(line_design)
    gaps_at = gap @ ys
    where = int(np.argmax(np.abs(gaps_at)))
    bend = float(gaps_at[where])
    se_bend = math.sqrt(rss / dof * float(gap[where] @ gap[where]))

    def around(value: float, se: float) -> Interval:
        return Interval(value, value - t * se, value + t * se, len(xs), confidence)

    return LineCheck(
        fit=fit,
        knee=float(knee),
        below=around(float(b), se_below),
        above=around(float(b + c), se_above),
        bend=around(bend, se_bend),
        bend_at=float(levels[where]),
        smallest_bend=_detectable(se_bend, dof, wide, power),
        smallest_slope=fit.smallest_detectable(power),
        knees_tried=len(gaps),
        power=power,
    )


@dataclass(frozen=True)
class Simulated:
    """Many made-up experiments whose true difference is known: what their intervals did."""

    intervals: pd.DataFrame
    """One row per experiment: ``low``, ``high`` (its 95 % interval), ``covers`` (whether it holds
    the true difference) and ``tells`` (whether it excludes zero)."""
    truth: float
    """The true difference every experiment was drawn around."""
    rounds: int
    """Pairs (rounds) in each experiment."""

    @property
    def covering(self) -> float:
        """The share of intervals that hold the truth (close to the confidence, 95 %)."""
        return float(self.intervals["covers"].mean())

    @property
    def telling(self) -> float:
        """The share of intervals that exclude zero: with no true difference, the false alarms
        (about 5 %); with one, the chance a real difference is seen (the *power*)."""
        return float(self.intervals["tells"].mean())


def simulate(
    truth: float, noise: float, rounds: int, experiments: int = 1000, seed: int = 0
) -> Simulated:
    """Draw ``experiments`` made-up paired experiments of ``rounds`` rounds each, whose
    round-by-round differences are ``truth`` plus normal noise of standard deviation ``noise``,
    and compute each one's 95 % interval with :func:`paired_difference`: what an interval is,
    shown by doing it many times (day 5a, section 3).

    >>> found = simulate(0.0, 1.0, rounds=5, experiments=2000)
    >>> 0.93 < found.covering < 0.97, found.telling < 0.07
    (True, True)
    """
    if rounds < 2 or experiments < 1:
        raise ValueError(f"need at least 2 rounds and 1 experiment, got {rounds} and {experiments}")
    draws = np.random.default_rng(seed).normal(truth, noise, size=(experiments, rounds))
    rows = []
    for diffs in draws:
        found = paired_difference(diffs, np.zeros(rounds))
        rows.append({"low": found.low, "high": found.high})
    intervals = pd.DataFrame(rows)
    intervals["covers"] = (intervals["low"] <= truth) & (truth <= intervals["high"])
    intervals["tells"] = (intervals["low"] > 0) | (intervals["high"] < 0)
    return Simulated(intervals, truth, rounds)
