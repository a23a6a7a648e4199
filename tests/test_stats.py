import pytest

from helpers.stats import paired_difference


def test_a_clear_difference_is_distinguishable():
    a = [0.90, 0.91, 0.92, 0.90, 0.93]
    b = [0.80, 0.82, 0.81, 0.80, 0.82]
    d = paired_difference(a, b)
    assert d.mean == pytest.approx(0.102)
    assert d.low > 0 and d.distinguishable
    assert d.verdict("one-hot", "codes").endswith("one-hot is larger than codes.")


def test_noise_is_called_noise():
    d = paired_difference([1.0, 2.0, 3.0, 4.0], [2.0, 1.0, 4.0, 3.0])
    assert d.mean == 0 and d.low < 0 < d.high and not d.distinguishable
    assert d.verdict().startswith("A minus b is +0.0000")
    assert "cannot tell the two apart" in d.verdict()


def test_the_interval_matches_student_t():
    # differences 1, 2, 3: mean 2, sd 1, t(0.975, 2) = 4.3027
    d = paired_difference([2, 3, 4], [1, 1, 1])
    assert (d.low, d.high) == pytest.approx((2 - 4.3027 / 3**0.5, 2 + 4.3027 / 3**0.5), abs=1e-4)


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
