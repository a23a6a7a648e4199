import random

import pytest

from helpers.stats import fit_affine, paired_difference


def test_a_clear_difference_is_distinguishable():
    a = [0.90, 0.91, 0.92, 0.90, 0.93]
    b = [0.80, 0.82, 0.81, 0.80, 0.82]
    d = paired_difference(a, b)
    assert d.value == pytest.approx(0.102)
    assert d.low > 0 and d.distinguishable
    assert d.verdict("one-hot", "codes").endswith("so one-hot is larger than codes.")


def test_noise_is_called_noise():
    d = paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0])
    assert d.value == 0 and d.low < 0 < d.high and not d.distinguishable
    assert d.verdict().startswith("A minus b is +0.0000")
    assert "cannot tell it from zero" in d.verdict()


def test_the_interval_matches_student_t():
    # differences 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.3027
    d = paired_difference([2, 3, 4], [1, 1, 1])
    assert (d.low, d.high) == pytest.approx((2 - 4.3027 / 3**0.5, 2 + 4.3027 / 3**0.5), abs=1e-4)


def test_identical_differences_give_a_zero_width_interval():
    d = paired_difference([2.0, 3.0, 4.0], [1.0, 2.0, 3.0])
    assert (d.value, d.low, d.high) == (1.0, 1.0, 1.0) and d.distinguishable


def test_a_negative_difference_names_the_other_side():
    d = paired_difference([1.0, 1.1, 1.0], [2.0, 2.1, 2.05])
    assert d.high < 0 and d.verdict("leaky", "honest").endswith("honest is larger than leaky.")


@pytest.mark.parametrize(
    ("a", "b", "kwargs", "message"),
    [
        ([1, 2], [1], {}, "equal lengths, got 2 and 1"),
        ([1], [1], {}, "at least two pairs"),
        ([1, 2], [1, 2], {"confidence": 1.5}, "confidence must be between 0 and 1"),
    ],
)
def test_bad_input(a, b, kwargs, message):
    with pytest.raises(ValueError, match=message):
        paired_difference(a, b, **kwargs)


# --- fit_affine and its verdict, on synthetic data for each case ------------------------------

X = [1, 10, 20, 100, 200] * 4  # recordings, as in day 5


def points(a, b, noise, seed=0):
    rng = random.Random(seed)
    return [a + b * x + rng.gauss(0, noise) for x in X]


def test_fit_recovers_a_known_line():
    fit = fit_affine(X, points(5.0, 0.001, 0.0001))
    assert fit.a.value == pytest.approx(5.0, abs=0.001)
    assert fit.b.value == pytest.approx(0.001, rel=0.01)
    assert fit.a.low < 5.0 < fit.a.high and fit.b.low < 0.001 < fit.b.high


def test_exact_line_matches_numpy_polyfit():
    import numpy as np

    ys = points(2.0, 0.5, 0.3, seed=4)
    b, a = np.polyfit(X, ys, 1)
    fit = fit_affine(X, ys)
    assert (fit.a.value, fit.b.value) == pytest.approx((a, b))


def test_verdict_cost_larger_than_noise():
    fit = fit_affine(X, points(5.0, 0.002, 0.01))  # 0.4 s across the range, 10 ms noise
    assert fit.b.distinguishable and fit.effect_larger_than_noise
    assert "the interval excludes zero" in fit.verdict() and "larger than" in fit.verdict()


def test_verdict_cost_real_but_smaller_than_noise():
    xs = X * 50  # many runs pin b down even though each run is noisy
    ys = [5.0 + 0.0004 * x + random.Random(i).gauss(0, 0.1) for i, x in enumerate(xs)]
    fit = fit_affine(xs, ys)
    assert fit.b.distinguishable and not fit.effect_larger_than_noise
    assert "smaller than the run-to-run noise" in fit.verdict()


def test_verdict_no_cost():
    fit = fit_affine(X, points(5.0, 0.0, 0.05))
    assert not fit.b.distinguishable
    assert "cannot tell it from zero" in fit.verdict("one .item()")
    assert "The price of one .item()" in fit.verdict("one .item()")


def test_verdict_negative_cost_is_called_a_drift():
    fit = fit_affine(X, points(5.0, -0.002, 0.01))
    assert fit.b.distinguishable and fit.b.value < 0
    assert "not a real cost" in fit.verdict()


@pytest.mark.parametrize(
    ("x", "y", "message"),
    [
        ([1, 2], [1, 2], "at least 3 points"),
        ([1, 1, 1], [1, 2, 3], "2 different x values"),
        ([1, 2, 3], [1, 2], "same length"),
    ],
)
def test_fit_rejects_what_cannot_be_fitted(x, y, message):
    with pytest.raises(ValueError, match=message):
        fit_affine(x, y)
