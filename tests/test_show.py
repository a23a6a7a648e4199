import pytest

from helpers.show import compare_guess, say


@pytest.mark.parametrize(
    ("guess", "measured", "ending"),
    [
        (83, 83, "close."),
        (60, 83, "close."),  # within a factor 1.5
        (40, 83, "2x too low."),
        (1000, 83, "12x too high."),
        (0, 83, "too low."),
        (0.5, 0.25, "2x too high."),
        ("cpu", "cpu", "right."),
        ("cuda", "cpu", "not this time."),
        (True, 1, "right."),  # a boolean is an answer, not a number
    ],
)
def test_compare_guess_wording_follows_the_numbers(guess, measured, ending):
    assert compare_guess(guess, measured).endswith(ending)


def test_no_guess_says_how_to_make_one():
    assert compare_guess(None, 3).startswith("No guess written")


def test_say_prints_outside_a_notebook(capsys):
    say("**bold** text")
    assert capsys.readouterr().out == "**bold** text\n"
