import math
import random

import pytest

from helpers import narration
from helpers.stats import check_line, fit_affine, paired_difference, same_rows


def test_a_clear_difference_is_distinguishable():
    a = [0.90, 0.91, 0.92, 0.90, 0.93]
    b = [0.80, 0.82, 0.81, 0.80, 0.82]
    d = paired_difference(a, b)
    assert d.value == pytest.approx(0.102)
    assert d.low > 0 and d.distinguishable
    assert narration.difference(d, "one-hot", "codes").endswith("so one-hot is larger than codes.")


def test_noise_is_called_noise():
    d = paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0])
    assert d.value == 0 and d.low < 0 < d.high and not d.distinguishable
    assert narration.difference(d).startswith("A minus b is +0.0000")
    assert "cannot tell it from zero" in narration.difference(d)


def test_the_interval_matches_student_t():
    # differences 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.3027
    d = paired_difference([2, 3, 4], [1, 1, 1])
    assert (d.low, d.high) == pytest.approx((2 - 4.3027 / 3**0.5, 2 + 4.3027 / 3**0.5), abs=1e-4)


def test_identical_differences_give_a_zero_width_interval():
    d = paired_difference([2.0, 3.0, 4.0], [1.0, 2.0, 3.0])
    assert (d.value, d.low, d.high) == (1.0, 1.0, 1.0) and d.distinguishable


def test_a_negative_difference_names_the_other_side():
    d = paired_difference([1.0, 1.1, 1.0], [2.0, 2.1, 2.05])
    assert d.high < 0 and narration.difference(d, "leaky", "honest").endswith(
        "honest is larger than leaky."
    )


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
    assert "the interval excludes zero" in narration.price(
        fit
    ) and "larger than" in narration.price(fit)


def test_verdict_cost_real_but_smaller_than_noise():
    xs = X * 50  # many runs pin b down even though each run is noisy
    ys = [5.0 + 0.0004 * x + random.Random(i).gauss(0, 0.1) for i, x in enumerate(xs)]
    fit = fit_affine(xs, ys)
    assert fit.b.distinguishable and not fit.effect_larger_than_noise
    assert "smaller than the run-to-run noise" in narration.price(fit)


def test_verdict_no_cost():
    fit = fit_affine(X, points(5.0, 0.0, 0.05))
    assert not fit.b.distinguishable
    assert "cannot tell it from zero" in narration.price(fit, "one .item()")
    upper = f"could still add up to {fit.b.high * fit.x_range * 1e3:.1f} ms"
    assert upper in narration.price(fit, "one .item()")
    assert "The price of one .item()" in narration.price(fit, "one .item()")


def test_verdict_negative_cost_is_called_a_drift():
    fit = fit_affine(X, points(5.0, -0.002, 0.01))
    assert fit.b.distinguishable and fit.b.value < 0
    assert "not a real cost" in narration.price(fit)


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


# --- check_line: the shape test and how sharp it was -------------------------------------------

LOG_X = [0, 3, 10, 30, 100, 300, 1000, 3000] * 3  # recordings on a log scale, three rounds


def test_the_student_s_table_gives_the_numbers_the_lesson_quotes():
    fit = fit_affine([200, 100, 20, 10], [10.43, 10.02, 10.12, 9.74])
    assert fit.b.value == pytest.approx(2.673e-3, rel=1e-3)
    assert (fit.b.low, fit.b.high) == pytest.approx((-2.857e-3, 8.204e-3), rel=1e-3)
    assert fit.residual_sd == pytest.approx(0.196, abs=1e-3)
    assert not fit.b.distinguishable


def test_smallest_detectable_slope_is_t_plus_t_power_standard_errors():
    from scipy import stats as sp

    ys = [5.0 + 1e-5 * x + random.Random(i).gauss(0, 0.01) for i, x in enumerate(LOG_X)]
    fit = fit_affine(LOG_X, ys)
    se = sp.linregress(LOG_X, ys).stderr
    dof = len(LOG_X) - 2
    expected = (sp.t.ppf(0.975, dof) + sp.t.ppf(0.8, dof)) * se
    assert fit.smallest_detectable() == pytest.approx(expected)
    assert fit.smallest_detectable(power=0.5) < fit.smallest_detectable(power=0.9)


def test_more_runs_detect_smaller_prices():
    few = [5.0 + random.Random(i).gauss(0, 0.01) for i in range(len(LOG_X))]
    many = [5.0 + random.Random(i).gauss(0, 0.01) for i in range(len(LOG_X) * 4)]
    assert (
        fit_affine(LOG_X * 4, many).smallest_detectable()
        < fit_affine(LOG_X, few).smallest_detectable()
    )


def test_a_straight_line_stands_and_says_how_sharp_the_test_was():
    ys = [5.0 + 2e-5 * x + random.Random(i).gauss(0, 0.01) for i, x in enumerate(LOG_X)]
    check = check_line(LOG_X, ys)
    assert check.straight and not check.bend.distinguishable
    text = narration.line(check, "one recording")
    assert text.startswith("The best line with one knee bends at about")
    assert "the interval includes zero" in text and "(their *power*)" in text
    assert f"a bend of {check.smallest_bend * 1e3:.1f} ms or more" in text
    assert f"{check.smallest_slope * 1e6:.2f} µs or more" in text
    assert check.smallest_slope == pytest.approx(check.fit.smallest_detectable())


def test_a_threshold_is_a_bend_the_check_finds():
    # nothing below 300 recordings, then 1 ms each: the "threshold effect", as a hinge
    ys = [5.0 + 1e-3 * max(0, x - 300) + random.Random(i).gauss(0, 0.01)
          for i, x in enumerate(LOG_X)]  # fmt: skip
    check = check_line(LOG_X, ys)
    assert not check.straight and check.above.value > check.below.value  # the slope rises
    assert 150 < check.knee < 450 and not check.below.distinguishable  # flat, then rising
    assert "the interval excludes zero" in narration.line(check)


def test_a_downward_bend_is_named():
    ys = [5.0 + 1e-3 * x - 2e-7 * x * x + random.Random(i).gauss(0, 0.01)
          for i, x in enumerate(LOG_X)]  # fmt: skip
    check = check_line(LOG_X, ys)
    assert check.bend.distinguishable and check.above.value < check.below.value  # it falls
    assert f"the straight line (at {check.bend_at:,.0f})" in narration.line(check)


def test_an_exact_hinge_is_found_where_it_is():
    xs = [0, 1, 2, 5, 10, 20, 50, 100] * 2
    ys = [2.0 + 0.5 * max(0, x - 20) + 1e-9 * (i % 2) for i, x in enumerate(xs)]
    check = check_line(xs, ys)
    assert check.knee == pytest.approx(20.0) and check.knees_tried == 3  # gaps from 2 to 20
    assert check.below.value == pytest.approx(0.0, abs=1e-9)
    assert check.above.value == pytest.approx(0.5)
    assert check.bend.distinguishable and check.bend_at in (0.0, 20.0, 100.0)


def test_picking_the_best_knee_widens_the_intervals():
    """Trying several knees and keeping the best flatters the fit: the intervals are those of as
    many tests at once, wider than one test at the same knee would give."""
    from scipy import stats as sp

    ys = [5.0 + 1e-5 * x + random.Random(i).gauss(0, 0.01) for i, x in enumerate(LOG_X)]
    check = check_line(LOG_X, ys)
    half = (check.bend.high - check.bend.low) / 2
    se = half / sp.t.ppf(1 - 0.025 / check.knees_tried, len(LOG_X) - 3)
    assert half > sp.t.ppf(0.975, len(LOG_X) - 3) * se


@pytest.mark.parametrize(
    ("x", "y", "kwargs", "message"),
    [
        ([1, 2], [1, 2], {}, "at least 3 points"),
        ([1, 2, 3, 4], [1, 2, 3, 4], {}, "at least 5 points"),
        ([1, 1, 2, 2, 3], [1, 2, 3, 4, 5], {}, "4 different x values"),
        ([1, 2, 3, 4, 5], [1, 2, 3, 5, 6], {"power": 1.0}, "power must be between 0 and 1"),
    ],
)
def test_check_line_rejects_what_it_cannot_test(x, y, kwargs, message):
    with pytest.raises(ValueError, match=message):
        check_line(x, y, **kwargs)


def test_an_interval_in_another_unit():
    from helpers.stats import Interval

    per_epoch = Interval(3.0, 2.0, 4.0, 12).scaled(1 / 1000)
    assert (per_epoch.value, per_epoch.low, per_epoch.high) == pytest.approx((3e-3, 2e-3, 4e-3))
    assert per_epoch.n == 12
    with pytest.raises(ValueError, match="positive factor"):
        Interval(1.0, 0.0, 2.0, 3).scaled(-1)


def test_the_cross_validation_correction_widens_the_interval_by_its_factor():
    a = [0.01, 0.0, 0.02, 0.005, 0.015, 0.012, 0.003, 0.018, 0.007, 0.011]
    plain = paired_difference(a, [0.0] * 10)
    corrected = paired_difference(a, [0.0] * 10, test_to_train=0.25)
    ratio = (corrected.high - corrected.low) / (plain.high - plain.low)
    assert ratio == pytest.approx(math.sqrt((1 / 10 + 0.25) / (1 / 10)))
    assert corrected.value == plain.value


@pytest.mark.parametrize(
    ("a_only", "b_only", "words"),
    [
        (0, 0, "A alone got 0 rows right, B alone 0, of 30: exactly the same"),
        (3, 2, "could be luck"),
        (12, 0, "**A** is better"),
        (1, 12, "**B** is better"),
    ],
)
def test_same_rows_follows_the_disagreements(a_only, b_only, words):
    both = 30 - a_only - b_only
    a_right = [True] * both + [True] * a_only + [False] * b_only
    b_right = [True] * both + [False] * a_only + [True] * b_only
    assert words in narration.same_rows(same_rows(a_right, b_right), "A", "B")
    with pytest.raises(ValueError, match="same, non-empty set of rows"):
        same_rows(a_right, b_right[:-1])
