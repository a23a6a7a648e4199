"""Execute every lesson and every homework master in fast mode, in a fresh kernel each.

New notebooks are picked up from their folders; run two at a time with ``pytest -n 2``.
"""

import pytest

from helpers.config import ROOT
from helpers.notebooks import execute, lessons, masters, problems

NOTEBOOKS = lessons() + masters()


def test_the_course_has_notebooks():
    assert any(p.name.startswith("day00") for p in lessons())


@pytest.mark.notebook
@pytest.mark.timeout(600)  # the whole notebook; each cell has its own 180 s limit
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_runs_cleanly_in_fast_mode(path):
    # One thread per kernel: two kernels side by side on two cores would otherwise oversubscribe.
    run = execute(path, fast=True, cell_timeout=180, env={"OMP_NUM_THREADS": "1"})
    assert run.error is None, run.error
    assert problems(run.notebook) == []
