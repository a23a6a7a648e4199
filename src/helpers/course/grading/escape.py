"""Making text that came from a submission, or from a process that ran answer code, safe to show.

:func:`shown` escapes control characters and line breaks (one line of a report cannot pose as
another), :func:`cell` keeps a spreadsheet from reading a text as a formula, and :func:`block`
shows a runner's error output as an indented block; :func:`steady` leaves out what differs from
one grading run to the next (memory addresses). Every grading module that writes such text
uses these (:mod:`.collect`, :mod:`.submission`, :mod:`.grader`, :mod:`.report`).
"""

from __future__ import annotations

import re

ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
"""A memory address as Python and its fault handler print them (``0x7f3a...``): different in
every run, so never part of what grading writes."""
FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula."""


def steady(text: str) -> str:
    """``text`` with every memory address written ``0x…``: an object's ``repr`` or a crash's
    thread name reads the same however often the submission is graded.

    >>> steady("<object object at 0x7f6bb3d86f30>; Current thread 0x00007f7eec3ffb80 (most")
    '<object object at 0x…>; Current thread 0x… (most'
    """
    return ADDRESS.sub("0x…", text)


def shown(text: str, limit: int = 500) -> str:
    """``text`` on one line, control characters and line breaks escaped, at most ``limit``
    characters.

    >>> shown("ok\\nforged line\\x1b[2J")
    'ok\\\\nforged line\\\\x1b[2J'
    """
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text, never evaluates (a leading ``'``).

    >>> cell("=HYPERLINK(1)"), cell("fine")
    ("'=HYPERLINK(1)", 'fine')
    """
    return "'" + text if text.startswith(FORMULA) else text


def block(log: str, indent: str = "    | ") -> list[str]:
    """A runner's error output as indented lines, each escaped.

    >>> block("Traceback\\n\\n  boom\\x07")
    ['    | Traceback', '    |   boom\\\\x07']
    """
    return [indent + shown(line, 300) for line in log.splitlines() if line.strip()]
