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
