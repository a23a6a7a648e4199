"""Is a difference real, or noise? Estimates with confidence intervals, and verdicts from them.

One interval type, :class:`Interval`, and one wording for "can the data tell this from zero?",
shared by the two analyses the lessons use:

* :func:`paired_difference`: the mean difference between two variants measured on the same units
  (the same cross-validation folds, the same rounds of a timing comparison); days 4, 5 and 7.
* :func:`fit_affine`: ``time = a + b * x`` by least squares, with intervals for ``a`` and ``b``;
  day 5 (the price of one recording), day 8 (latency and bandwidth);
* :func:`same_rows_verdict`: two models on the same test rows (day 4), McNemar's exact test;
* :func:`check_line`: is the straight line right? The bend a parabola finds across the measured
  range, and the smallest slope and bend these measurements could have detected (day 5), so that
  "cannot tell it from zero" is never read as "proved to be zero".

Both are computed with scipy. The notebooks print the verdicts instead of typing conclusions in
advance.

>>> d = paired_difference([0.90, 0.91, 0.92], [0.80, 0.82, 0.81])
>>> d.distinguishable, d.verdict("one-hot", "codes").split(", so ")[1]
(True, 'one-hot is larger than codes.')
>>> fit = fit_affine([0, 10, 20, 30], [5.0, 5.1, 5.2, 5.3])
>>> round(fit.b.value, 6), round(fit.a.value, 6)
(0.01, 5.0)
>>> round(check_line([0, 1, 2, 3, 4], [1.0, 2.0, 5.0, 10.0, 17.0]).bend.value, 6)  # y = 1 + x**2
4.0
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats

from helpers.i18n import _, word


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

        return _("{value} ({confidence:.0%} interval {low} to {high})").format(
            value=number(self.value),
            confidence=self.confidence,
            low=number(self.low),
            high=number(self.high),
        )

    def scaled(self, factor: float) -> Interval:
        """The same estimate in another unit: every number times ``factor`` (positive)."""
        if not factor > 0:
            raise ValueError(f"scale by a positive factor, got {factor}")
        return Interval(
            self.value * factor, self.low * factor, self.high * factor, self.n, self.confidence
        )

    def zero_verdict(self) -> str:
        """The shared wording: does the interval exclude zero?"""
        if self.distinguishable:
            return _("the interval excludes zero")
        return _(
            "the interval includes zero, so these {n} measurements cannot tell it from zero"
        ).format(n=self.n)


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

    def verdict(self, a: str = "a", b: str = "b") -> str:
        """One sentence: which is larger, or that the noise hides any difference."""
        a, b = word(a), word(b)
        said = {"a": a, "b": b, "value": self.text(), "zero": self.zero_verdict()}
        if not self.distinguishable:
            sentence = _("{a} minus {b} is {value}: {zero}.").format(**said)
        else:
            larger, smaller = (a, b) if self.value > 0 else (b, a)
            sentence = _(
                "{a} minus {b} is {value}: {zero}, so {larger} is larger than {smaller}."
            ).format(larger=larger, smaller=smaller, **said)
        return sentence[0].upper() + sentence[1:]


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


def same_rows_verdict(
    a_right: Sequence[bool], b_right: Sequence[bool], a: str, b: str, confidence: float = 0.95
) -> str:
    """Two models scored on the same test rows (``a_right``, ``b_right``: whether each got each
    row right), compared where they disagree: McNemar's exact test (``scipy.stats.binomtest``).

    >>> same_rows_verdict([1, 1, 1, 0], [1, 1, 0, 1], "A", "B").split(":")[0]
    'A alone got 1 row(s) right, B alone 1, of 4'
    """
    if len(a_right) != len(b_right) or not len(a_right):
        raise ValueError("both models need a result for the same, non-empty set of rows")
    pairs = list(zip(map(bool, a_right), map(bool, b_right), strict=True))
    a_only = sum(x and not y for x, y in pairs)
    b_only = sum(y and not x for x, y in pairs)
    n = len(pairs)
    a, b = word(a), word(b)
    head = _("{a} alone got {a_only} row(s) right, {b} alone {b_only}, of {n}").format(
        a=a[0].upper() + a[1:], a_only=a_only, b=b, b_only=b_only, n=n
    )
    if a_only + b_only == 0:
        return _("{head}: exactly the same rows right, so nothing tells them apart.").format(
            head=head
        )
    p = stats.binomtest(a_only, a_only + b_only, 0.5).pvalue
    if p < 1 - confidence:
        better = a if a_only > b_only else b
        return _(
            "{head}: too lopsided for luck (exact test, p = {p:.3f}): **{better}** is better."
        ).format(head=head, p=p, better=better)
    return _(
        "{head}: that split could be luck (exact test, p = {p:.2f}), so these "
        "rows cannot tell the two apart, and the simpler model is the one to "
        "keep."
    ).format(head=head, p=p)


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

    def verdict(self, what: str = "one recording") -> str:
        """What the fit says about ``b`` (seconds per unit of ``x``), from the numbers."""
        what = word(what)
        price = _("The price of {what} is {value}: {zero}").format(
            what=what, value=self.b.text(1e6, " µs", 2), zero=self.b.zero_verdict()
        )
        if not self.b.distinguishable:
            most = max(self.b.high, 0) * self.x_range * 1e3
            return _(
                "{price}. These runs cannot tell a price from noise: across the "
                "measured range it could still add up to {most_ms:.1f} ms, next to a = "
                "{a_s:.3f} s."
            ).format(price=price, most_ms=most, a_s=self.a.value)
        if self.b.value < 0:
            return _(
                "{price}, but it is negative: not a real cost but a drift or an "
                "ordering effect in the runs. Re-run, with more repeats."
            ).format(price=price)
        said = {"price": price, "effect_ms": abs(self.effect) * 1e3}
        if self.effect_larger_than_noise:
            return _(
                "{price}; it changes the time by {effect_ms:.1f} ms across the "
                "measured range, larger than the run-to-run noise ({noise_ms:.1f} ms)."
            ).format(noise_ms=self.residual_sd * 1e3, **said)
        return _(
            "{price}; it changes the time by {effect_ms:.1f} ms across the "
            "measured range, smaller than the run-to-run noise ({noise_ms:.1f} ms)."
        ).format(noise_ms=self.residual_sd * 1e3, **said)


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
    """Is ``y = a + b * x`` the right shape? What :func:`check_line` found."""

    fit: AffineFit
    """The straight line."""
    bend: Interval
    """How far a parabola through the same points bends away from the straight line, in ``y``'s
    unit: ``c * x_range**2 / 4`` for the fitted ``y = a + b*x + c*x**2`` (its gap, at the middle of
    the range, to the chord between the ends). Positive: the line curves upwards."""
    smallest_bend: float
    """The smallest bend these points would find distinguishable from zero (with ``power``)."""
    smallest_slope: float
    """The smallest slope ``b`` these points would find distinguishable from zero."""
    power: float = 0.8

    @property
    def straight(self) -> bool:
        """Whether the straight line stands: the bend cannot be told from zero."""
        return not self.bend.distinguishable

    def verdict(self, what: str = "one recording") -> str:
        """The shape test's result, and how sharp it was (``y`` in seconds)."""
        what = word(what)
        bend = _("the bend across the measured range is {value}").format(
            value=self.bend.text(1e3, " ms", 1)
        )
        sharpness = _(
            "these runs would have detected (with probability {power:.0%}) a bend "
            "of {bend_ms:.1f} ms or more, and a price of {what} of {slope_us:.2f} "
            "µs or more"
        ).format(
            power=self.power,
            bend_ms=self.smallest_bend * 1e3,
            what=what,
            slope_us=self.smallest_slope * 1e6,
        )
        said = {"bend": bend, "zero": self.bend.zero_verdict(), "sharpness": sharpness}
        if self.straight:
            return _(
                "The straight line stands: {bend}; {zero}. Not proved straight, "
                "though: {sharpness}."
            ).format(**said)
        if self.bend.value > 0:
            return _(
                "The straight line does not fit: {bend}; {zero}, so the time curves "
                "upwards ({what} costs more, the more of them there are). For scale: "
                "{sharpness}."
            ).format(what=what, **said)
        return _(
            "The straight line does not fit: {bend}; {zero}, so the time curves "
            "downwards ({what} costs less, the more of them there are). For scale: "
            "{sharpness}."
        ).format(what=what, **said)


def check_line(
    x: Sequence[float], y: Sequence[float], confidence: float = 0.95, power: float = 0.8
) -> LineCheck:
    """Fit the straight line, test it against a parabola, and say how sharp both tests were.

    The parabola ``y = a + b*x + c*x**2`` is fitted by least squares (``x`` centred on its mean);
    its ``c`` becomes the bend (see :class:`LineCheck`) with a Student-t interval. The smallest
    detectable slope and bend are ``(t(confidence) + t(power)) * standard error``. Needs at least
    four points and three different ``x`` values.
    """
    fit = fit_affine(x, y, confidence)
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(xs)
    if n < 4 or len(set(xs.tolist())) < 3:
        raise ValueError("need at least 4 points and 3 different x values to test for a bend")
    centred = xs - xs.mean()
    design = np.column_stack([np.ones(n), centred, centred**2])
    coefficients, *_rest = np.linalg.lstsq(design, ys, rcond=None)
    residuals = ys - design @ coefficients
    dof = n - 3
    variance = float(residuals @ residuals) / dof
    covariance = variance * np.linalg.inv(design.T @ design)
    scale = fit.x_range**2 / 4
    bend, se_bend = float(coefficients[2]) * scale, math.sqrt(float(covariance[2, 2])) * scale
    t = _t(confidence, dof)
    return LineCheck(
        fit=fit,
        bend=Interval(bend, bend - t * se_bend, bend + t * se_bend, n, confidence),
        smallest_bend=_detectable(se_bend, dof, confidence, power),
        smallest_slope=fit.smallest_detectable(power),
        power=power,
    )
