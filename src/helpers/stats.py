"""Is a difference real, or noise? A small, tested verdict for paired measurements.

The lessons compare two variants measured on the same units (the same cross-validation folds, the
same runs). :func:`paired_difference` gives the mean difference with a confidence interval from
Student's t distribution, and a verdict the notebooks print instead of typing one in advance.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from scipy import stats


@dataclass(frozen=True)
class Difference:
    """The mean of ``a - b`` over paired measurements, with its confidence interval."""

    mean: float
    low: float
    high: float
    n: int
    confidence: float

    @property
    def distinguishable(self) -> bool:
        """Whether the interval excludes zero: the data tell the two apart."""
        return self.low > 0 or self.high < 0

    def verdict(self, a: str = "a", b: str = "b") -> str:
        """One sentence that says which is larger, or that the noise hides any difference."""
        interval = (
            f"{self.mean:+.4f} ({self.confidence:.0%} interval {self.low:+.4f} to {self.high:+.4f})"
        )
        if not self.distinguishable:
            text = (
                f"{a} minus {b} is {interval}: the interval includes zero, so these {self.n} "
                "paired measurements cannot tell the two apart."
            )
        else:
            larger, smaller = (a, b) if self.mean > 0 else (b, a)
            text = f"{a} minus {b} is {interval}: {larger} is larger than {smaller}."
        return text[0].upper() + text[1:]


def paired_difference(a, b, confidence: float = 0.95) -> Difference:
    """Mean of ``a[i] - b[i]`` and its confidence interval (Student's t, ``n - 1`` degrees).

    Raises ``ValueError`` for sequences of different lengths or fewer than two pairs.
    """
    a, b = list(a), list(b)
    if len(a) != len(b):
        raise ValueError(f"paired measurements need equal lengths, got {len(a)} and {len(b)}")
    if len(a) < 2:
        raise ValueError("need at least two pairs to estimate the noise")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(diffs)
    half = stats.t.ppf((1 + confidence) / 2, len(diffs) - 1) * statistics.stdev(diffs)
    half /= math.sqrt(len(diffs))
    return Difference(mean, mean - half, mean + half, len(diffs), confidence)
