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

SRC = ROOT / "src"
"""The ``helpers`` package's folder (what the grading sandbox may see of the course's code)."""
GIT = ROOT / ".git"
HOMEWORK = NOTEBOOKS / "homework"
"""The student versions of the homework, generated from the masters."""
MASTERS = ROOT / "instructor" / "homework"
"""The homework masters: solutions and hidden tests."""
README = ROOT / "README.md"
PYPROJECT = ROOT / "pyproject.toml"
"""The package's settings, and the course's own (``[tool.course]``: the repository's address)."""
LOCK = ROOT / "requirements-lock.txt"
"""The versions the course is tested with (written by ``make lock``, used by ``make install``)."""
I18N = ROOT / "i18n"
"""The translations of the lessons, the homework and the README, one folder per language."""
GUIDE = ROOT / "instructor" / "GUIDE.md"
"""The instructor guide."""
EXECUTED = BUILD / "course"
"""``make course`` writes the executed lessons and masters here, with HTML copies."""
RELEASE_BACKUPS = BUILD / "release-backup"
GRADES = BUILD / "grades"
BROWSER_TEST = BUILD / "browser-test"
"""The browser test's screenshots."""
LAB_CONFIG = BUILD / "jupyter-config"
"""The course's JupyterLab defaults, written by ``make lab`` (see ``helpers.course.setup.lab``)."""
LAB_WORKSPACES = BUILD / "jupyter-workspaces"
"""Where the course's JupyterLab keeps its layout (open tabs, panel sizes)."""


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
