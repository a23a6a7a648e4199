"""Where the course's folders are: the one place that builds a path.

The course folder is the one that holds ``notebooks/`` and ``data/``. It is found, in this order:

1. the ``COURSE_ROOT`` environment variable, when set (it must hold ``data/``);
2. the current folder or the nearest folder above it that holds ``notebooks/`` and ``data/``
   (a notebook runs in ``notebooks/``, the tests in the course folder);
3. the nearest such folder above this file (an editable install, ``pip install -e .``).

So an editable install, a plain ``pip install .`` used from inside the course folder, and a copy
of the course opened from elsewhere all find their own folder. Used by every day (data), and by
the course's tooling (homework, grading, outline, notebook execution).

>>> (ROOT / "data").is_dir() and HEART_CSV.name
'heart_cleveland.csv'
"""

from __future__ import annotations

import os
from pathlib import Path


class CourseFolderNotFound(RuntimeError):
    """No course folder (one holding ``notebooks/`` and ``data/``) could be found."""


def _is_course(folder: Path) -> bool:
    return (folder / "notebooks").is_dir() and (folder / "data").is_dir()


def find_root(start: Path | None = None) -> Path:
    """The course folder (see the module's docstring for the order of the search)."""
    if explicit := os.environ.get("COURSE_ROOT", "").strip():
        root = Path(explicit).expanduser().resolve()
        if not (root / "data").is_dir():
            raise CourseFolderNotFound(
                f"COURSE_ROOT={explicit!r} has no data/ folder; point it at the course folder "
                "(the one holding notebooks/ and data/), or unset it."
            )
        return root
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents, *Path(__file__).resolve().parents]:
        if _is_course(folder):
            return folder
    raise CourseFolderNotFound(
        f"No course folder (one holding notebooks/ and data/) at or above {here} or above "
        f"{Path(__file__).parent}. Run from inside the course folder, or set COURSE_ROOT to it."
    )


ROOT = find_root()
"""The course folder."""

SRC = ROOT / "src"
"""The ``helpers`` package's folder (what the grading sandbox may see of the course's code)."""
GIT = ROOT / ".git"
DATA = ROOT / "data"
HEART_CSV = DATA / "heart_cleveland.csv"
RECEIPTS = ROOT / "receipts"
"""The learner's receipts (``python -m helpers receipt`` files; the ``COURSE_RECEIPTS`` setting
names another folder: see :func:`helpers.receipts.folder`)."""
GPU_REFERENCE = DATA / "gpu_reference.json"
"""Day 6's reference curve measured on a real GPU (absent until someone measures one)."""

NOTEBOOKS = ROOT / "notebooks"
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
BUILD = ROOT / "build"
"""Ignored by git: executed copies, grading output, caches."""
EXECUTED = BUILD / "course"
"""``make course`` writes the executed lessons and masters here, with HTML copies."""
RELEASE_BACKUPS = BUILD / "release-backup"
DISTRIBUTED = BUILD / "distributed"
"""Day 8's ``torchrun`` runs: what their workers wrote (results, checkpoints, final weights)."""
GRADES = BUILD / "grades"
COMPILE_CACHE = BUILD / "torch-compile-cache"
"""``torch.compile``'s cache (``TORCHINDUCTOR_CACHE_DIR``), shared by the notebook runs of
``make test`` and ``make course``: a function is compiled once per machine, not once per run."""
TRACES = BUILD / "traces"
"""Profiler traces (day 5), to open in https://ui.perfetto.dev or ``chrome://tracing``."""
BROWSER_TEST = BUILD / "browser-test"
"""The browser test's screenshots."""
LAB_CONFIG = BUILD / "jupyter-config"
"""The course's JupyterLab defaults, written by ``make lab`` (see ``helpers.course.lab``)."""
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
