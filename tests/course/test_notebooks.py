"""Execute every lesson and every homework's student version in fast mode, a fresh kernel each.

Where the grading sandbox works, the masters are not executed here: tests/course/test_grading.py
grades each one in the sandbox (every cell, full marks required), and ``make course`` runs them in
a kernel in full mode. Elsewhere (no bubblewrap) they run here like the lessons.
New notebooks are picked up from their folders; run two at a time with ``pytest -n 2``.
"""

import re

import nbformat
import pytest

from helpers import narration, receipts
from helpers.course import paths
from helpers.course.grading import sandbox
from helpers.course.homework.markers import parse
from helpers.course.homework.release import release_text, student_path
from helpers.course.notebooks.execute import execute, problems, shown
from helpers.course.notebooks.html import export, remote_requests
from tests.test_portability import chinese_windows

ROOT = paths.ROOT
# Lessons that start processes (DataLoader workers, torchrun's ranks): here they run with spawn,
# as on macOS and Windows, and under a Chinese Windows' default encoding, since their processes
# write and read files; make course runs them with this system's default (fork on Linux).
RECEIPT = ROOT / "tests" / "fixtures" / "receipts" / "two_gpus" / "a100x2.json"  # not measured
STARTS_PROCESSES = {"day02_devices.ipynb", "day07_gpu_utilization.ipynb", "day08_distributed.ipynb"}
NOTEBOOKS = paths.lessons() + ([] if sandbox.available()[0] else paths.masters())


def lesson_env(path) -> dict[str, str]:
    """The environment a lesson runs in here, in fast mode."""
    # One thread per kernel: two kernels side by side on two cores would otherwise oversubscribe.
    env = {"OMP_NUM_THREADS": "1", "COURSE_RECEIPTS": str(RECEIPT.parent)}
    if path.name in STARTS_PROCESSES:  # as macOS and Windows run it (make course forks)
        env |= {"COURSE_START_METHOD": "spawn", **chinese_windows()}
    return env


def test_the_course_has_notebooks():
    assert any(p.name.startswith("day00") for p in paths.lessons())


@pytest.mark.notebook
@pytest.mark.timeout(600)  # the whole notebook; each cell has its own 180 s limit
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_runs_cleanly_in_fast_mode(path, fast_run):
    """Every lesson, with a fixture receipt of two GPUs in COURSE_RECEIPTS: the lessons that read
    receipts show its figures beside this machine's (``make course`` runs them without one). Its
    HTML copy, as ``make course`` writes it, requests nothing from another host."""
    env = lesson_env(path)
    run = fast_run(path, env)  # executed once, also for the tests of its HTML copy in a browser
    assert run.error is None, f"with {env}: {run.error}"
    assert problems(run.notebook) == []
    assert remote_requests(export(run.notebook)) == []
    code = "".join(c.source for c in run.notebook.cells if c.cell_type == "code")
    if "beside_receipt(" in code:
        assert f"**{narration.receipt_label(receipts.load(RECEIPT))}**" in "\n".join(
            shown(run.notebook)
        )


MASTERS = paths.masters()


@pytest.mark.notebook
@pytest.mark.timeout(600)
@pytest.mark.parametrize(
    "master", MASTERS, ids=[str(student_path(m).relative_to(ROOT)) for m in MASTERS]
)
def test_student_version_opens_and_its_other_cells_run(master):
    """Student versions raise in their exercise cells by design (and so fail their TEST cells):
    check that they open and that every other cell runs, check() calls included. The version
    release writes is run (the working copy may hold a learner's answers), in its folder."""
    nb = nbformat.reads(release_text(master), as_version=4)
    nbformat.validate(nb)
    homework = parse(nb)
    skipped = {p.cell for p in [*homework.exercises.values(), *homework.tests.values()]}
    nb.cells = [c for i, c in enumerate(nb.cells) if i not in skipped]
    path = student_path(master)
    run = execute(path, fast=True, cell_timeout=180, env={"OMP_NUM_THREADS": "1"}, notebook=nb)
    assert run.error is None, run.error
    assert problems(run.notebook) == []
    checks = [c for c in run.notebook.cells if c.source.startswith("check(")]
    assert checks, "a student version should let learners check their answers"
    for cell in checks:
        printed = "".join(o.get("text", "") for o in cell.outputs)
        assert re.search(r": 0 of \d+ checks passed", printed), printed
