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

from pathlib import Path

from helpers.paths import (
    BUILD,
    COMPILE_CACHE,
    DATA,
    DISTRIBUTED,
    GPU_REFERENCE,
    HEART_CSV,
    NOTEBOOKS,
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
