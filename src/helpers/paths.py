"""Where the course's folders are: the one place that builds a path.

The course folder is the one that holds ``notebooks/`` and ``data/``. It is found, in this order:

1. the ``COURSE_ROOT`` environment variable, when set (it must hold ``data/``);
2. the current folder or the nearest folder above it that holds ``notebooks/`` and ``data/``
   (a notebook runs in ``notebooks/``, the tests in the course folder);
3. the nearest such folder above this file (an editable install, ``pip install -e .``).

So an editable install, a plain ``pip install .`` used from inside the course folder, and a copy
of the course opened from elsewhere all find their own folder. Holds the paths the lessons use
(data, build folders); :mod:`helpers.course.paths` adds the tooling's own (homework masters,
grading output, translations) to these.

>>> (ROOT / "data").is_dir() and HEART_CSV.name
'heart_cleveland.csv'
"""

from __future__ import annotations

import hashlib
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

NOTEBOOKS = ROOT / "notebooks"
"""The lessons (the tooling's own paths, homework and masters included, are in
``helpers.course.paths``)."""
DATA = ROOT / "data"
HEART_CSV = DATA / "heart_cleveland.csv"
POEMS = DATA / "tang300.txt"
"""Three Hundred Tang Poems (唐诗三百首), one poem a line: day 7b's text."""
RECEIPTS = ROOT / "receipts"
"""The learner's receipts (``python -m helpers receipt`` files; the ``COURSE_RECEIPTS`` setting
names another folder: see :func:`helpers.receipts.folder`)."""
GPU_REFERENCE = DATA / "gpu_reference.json"
"""Day 6's reference curve measured on a real GPU (absent until someone measures one)."""
BUILD = ROOT / "build"
"""Ignored by git: executed copies, grading output, caches."""
DISTRIBUTED = BUILD / "distributed"
"""Day 8's ``torchrun`` runs: what their workers wrote (results, checkpoints, final weights)."""


def _compile_cache() -> Path:
    inside = BUILD / "torch-compile-cache"
    if not any(c.isspace() for c in str(inside)):
        return inside
    folder = hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]
    return Path.home() / ".cache" / "gpu-course" / f"torch-compile-cache-{folder}"


COMPILE_CACHE = _compile_cache()
"""``torch.compile``'s cache (``TORCHINDUCTOR_CACHE_DIR``), shared by the notebook runs of
``make test`` and ``make course``: a function is compiled once per machine, not once per run.
It is ``build/torch-compile-cache`` unless the course folder's path has a space: PyTorch passes
the cache's paths to the C++ compiler unquoted (pytorch/pytorch#191010), so such a folder's
cache is one of its own under ``~/.cache/gpu-course/`` (as ``make`` puts its environment)."""
MEMORY_SNAPSHOTS = BUILD / "memory"
"""CUDA memory timelines (day 7b), to drop on https://pytorch.org/memory_viz."""
TRACES = BUILD / "traces"
"""Profiler traces (day 5), to open in https://ui.perfetto.dev or ``chrome://tracing``."""
