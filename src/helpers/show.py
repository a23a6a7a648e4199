"""Showing findings in a notebook: prose with live numbers, rendered as Markdown (every day).

A lesson writes what it found as a sentence whose numbers come from the run::

    say(f"One recording costs **{fit.b.value * 1e6:.1f} µs**.")

so the executed notebook reads as prose, and no number in it was typed in advance. Outside a
notebook (a script, a test) the text is printed as it is.
"""

from __future__ import annotations


def say(markdown: str) -> None:
    """Show ``markdown`` as formatted text in a notebook (printed as is elsewhere).

    >>> say("**4** epochs")
    **4** epochs
    """
    try:
        from IPython import get_ipython
        from IPython.display import Markdown, display
    except ImportError:  # a machine without IPython (a rented GPU box running a script)
        print(markdown)
        return
    if get_ipython() is None:
        print(markdown)
    else:
        display(Markdown(markdown))


def compare_guess(
    guess, measured, what: str = "", *, close: float = 1.5, fmt: str | None = None
) -> str:
    """A line comparing a learner's prediction with what the run measured (predict-then-run).

    Numbers are close when they are within a factor ``close`` of each other; anything else
    (a word, a choice) must be equal. ``None`` means no guess was written. ``fmt`` formats both
    numbers (e.g. ``"{:.2f} s"``); by default whole numbers get thousands separators.

    >>> compare_guess(80, 83, "parameters")
    'You guessed 80 parameters; the run measured 83: close.'
    >>> compare_guess(1000, 83, "parameters")
    'You guessed 1,000 parameters; the run measured 83: 12x too high.'
    >>> compare_guess("cpu", "mps")
    "You guessed 'cpu'; the run gave 'mps': not this time."
    >>> compare_guess(None, 83)
    'No guess written: write one in the cell above and run it again, then this cell.'
    """
    if guess is None:
        return "No guess written: write one in the cell above and run it again, then this cell."
    unit = f" {what}" if what else ""
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (guess, measured))
    if not numbers:
        verdict = "right" if guess == measured else "not this time"
        return f"You guessed {guess!r}{unit}; the run gave {measured!r}: {verdict}."
    shown = fmt.format if fmt else _number
    text = f"You guessed {shown(guess)}{unit}; the run measured {shown(measured)}"
    if guess == measured or (
        guess > 0 and measured > 0 and max(guess, measured) / min(guess, measured) <= close
    ):
        return f"{text}: close."
    if guess <= 0 or measured <= 0:
        return f"{text}: {'too high' if guess > measured else 'too low'}."
    ratio = max(guess, measured) / min(guess, measured)
    return f"{text}: {ratio:.0f}x {'too high' if guess > measured else 'too low'}."


def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:.3g}"
