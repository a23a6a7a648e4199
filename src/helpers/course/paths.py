"""Where the course's tooling finds and writes things: the lessons' paths plus the tooling's own.

The lessons' paths (the course folder, ``data/``, ``notebooks/``, ``build/`` and what the lessons
write there) live in :mod:`helpers.paths`, the one place that finds the course folder; they are
repeated here, so that a tool reads every path from one module. The paths below them belong to
the tooling only: the homework masters and their student versions, grading output, the
translations, the lock file, JupyterLab's settings.

>>> MASTERS.relative_to(ROOT).as_posix(), master("day00_homework").name
('instructor/homework', 'day00_homework.ipynb')
"""

from __future__ import annotations

import re
from pathlib import Path

from helpers.paths import (
    BUILD,
    COMPILE_CACHE,
    DATA,
    DISTRIBUTED,
    GPU_REFERENCE,
    HEART_CSV,
    NOTEBOOKS,
    POEMS,
    ROOT,
    TRACES,
)

__all__ = [
    "BROWSER_TEST",
    "BUILD",
    "COMPILE_CACHE",
    "DATA",
    "DISTRIBUTED",
    "EXECUTED",
    "GIT",
    "GPU_REFERENCE",
    "GRADES",
    "GUIDE",
    "HEART_CSV",
    "HOMEWORK",
    "I18N",
    "LAB_CONFIG",
    "LAB_WORKSPACES",
    "LOCK",
    "MASTERS",
    "NOTEBOOKS",
    "POEMS",
    "PYPROJECT",
    "README",
    "RELEASE_BACKUPS",
    "ROOT",
    "SRC",
    "TRACES",
    "homework",
    "lessons",
    "master",
    "masters",
    "readme",
    "DAY",
    "day_key",
]

# The homework: the masters (solutions, hidden tests) and the student versions made from them.
MASTERS = ROOT / "instructor" / "homework"
HOMEWORK = NOTEBOOKS / "homework"
# What the grading sandbox may see of the course's code (src/), and git's history, which it may not.
SRC, GIT = ROOT / "src", ROOT / ".git"
# The README and its map, the package's and the course's settings ([tool.course]: the repository's
# address), the tested versions (make lock), the translations (one folder per language), the
# instructor guide.
README, PYPROJECT = ROOT / "README.md", ROOT / "pyproject.toml"
LOCK, I18N, GUIDE = ROOT / "requirements-lock.txt", ROOT / "i18n", ROOT / "instructor" / "GUIDE.md"
# Written under build/ (ignored by git): make course's executed copies (with HTML), grading output,
# release's backups of answered notebooks, the browser test's screenshots, and the course's
# JupyterLab settings and layout (make lab, helpers.course.setup.lab).
EXECUTED, GRADES, RELEASE_BACKUPS = BUILD / "course", BUILD / "grades", BUILD / "release-backup"
BROWSER_TEST = BUILD / "browser-test"
LAB_CONFIG, LAB_WORKSPACES = BUILD / "jupyter-config", BUILD / "jupyter-workspaces"


# A lesson's key: two digits, and a letter where one day has two lessons or a lesson sits between
# two days (``day05a``, ``day05b``, ``day07b``). It names the lesson's file, its homework and its
# exercises (``day05a.parts``); a lesson's metadata holds its day as the course map shows it (5,
# or "5a").
DAY = r"day\d\d[a-z]?"


def day_key(day: int | str) -> str:
    """The key of a lesson's day as file names and exercise ids write it (after ``day``).

    >>> day_key(5), day_key("5a"), day_key("07b"), day_key(12)
    ('05', '05a', '07b', '12')
    """
    found = re.fullmatch(r"(\d{1,2})([a-z]?)", str(day))
    if found is None:
        raise ValueError(f"not a lesson's day: {day!r} (a number, or a number and a letter: 5a)")
    return f"{int(found[1]):02d}{found[2]}"


def lessons() -> list[Path]:
    """The day-by-day lessons, ``notebooks/dayNN_*.ipynb``, in teaching order."""
    return sorted(NOTEBOOKS.glob("day*.ipynb"))


def masters() -> list[Path]:
    """The homework masters, ``instructor/homework/dayNN_homework.ipynb``."""
    return sorted(MASTERS.glob("day*_homework.ipynb"))


def homework(name: str) -> Path:
    """The student version of a homework, e.g. ``homework("day00_homework")``."""
    return HOMEWORK / f"{name}.ipynb"


def readme(locale: str | None = None) -> Path:
    """The README, or its translation for ``locale`` (``readme("zh-CN")``: ``README.zh-CN.md``)."""
    return README if locale is None else ROOT / f"README.{locale}.md"


def master(name: str) -> Path:
    """The master of a homework, e.g. ``master("day00_homework")``."""
    return MASTERS / f"{name}.ipynb"
