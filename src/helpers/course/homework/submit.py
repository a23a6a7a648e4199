"""``python -m helpers submit NOTEBOOK --student NAME``: check homework, write the copy to hand in.

It checks that the notebook is one of the course's homework, runs its visible checks the way the
grader will run them (a fresh process, answers found by their markers), prints the result, and
writes a clean copy (no outputs) named ``<student>_dayNN_homework.ipynb``, as the grader expects.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

from helpers.course import paths
from helpers.course.grading.collect import STUDENT_RE, Submission
from helpers.course.grading.outcome import Limits
from helpers.course.grading.submission import grade_submission
from helpers.course.homework.markers import Homework, HomeworkFormatError, parse
from helpers.course.notebooks.clean import clean


class SubmitError(Exception):
    """Why a notebook cannot be handed in (printed as ``ERROR: ...``)."""


def _homework_of(notebook: Path, student: str) -> tuple[Homework, str, Path]:
    """The parsed notebook, the name of the homework it answers and that homework's student
    version; raises :class:`SubmitError` when it is not one of the course's homework."""
    if not STUDENT_RE.fullmatch(student):
        raise SubmitError(f"--student {student!r}: use letters, digits, '_', '.' or '-' only.")
    if not notebook.is_file():
        raise SubmitError(f"no notebook at {notebook}")
    try:
        homework = parse(notebook)
    except (HomeworkFormatError, ValueError) as err:
        raise SubmitError(f"{notebook} is not a readable homework notebook: {err}") from err
    days = {i.split(".")[0] for i in [*homework.exercises, *homework.manual]}
    if not days:
        lesson = re.match(rf"({paths.DAY})_", notebook.name)
        hint = (
            paths.homework(f"{lesson[1]}_homework")
            if lesson
            else paths.HOMEWORK / "dayNN_homework.ipynb"
        )
        raise SubmitError(
            f"{notebook} is not a homework notebook (it has no `# EXERCISE` or `MANUAL` cells). "
            f"Hand in your homework instead: {hint.relative_to(paths.ROOT)}"
        )
    if len(days) > 1:
        raise SubmitError(
            f"{notebook} holds answers of several homework ({', '.join(sorted(days))})"
        )
    name = f"{days.pop()}_homework"
    reference = paths.homework(name)
    if not reference.is_file():
        raise SubmitError(f"there is no homework {name} in this course ({reference} is missing)")
    return homework, name, reference


def _report(result, homework: Homework, reference: Path) -> None:
    """Print each exercise's outcome, its failed checks, and the answers missing."""
    for outcome in result.outcomes:
        detail = f": {outcome.reason}" if outcome.reason else ""
        print(f"  {outcome.exercise:<28} {outcome.status}{detail}")
        for check in outcome.checks:
            if check.status != "passed":
                print(
                    f"      {check.status}: {check.statement.splitlines()[0]}"
                    + (f" ({check.reason})" if check.reason else "")
                )
    expected, found = parse(reference), [*homework.exercises, *homework.manual]
    for item in [i for i in [*expected.exercises, *expected.manual] if i not in found]:
        print(f"  WARNING: {item} is missing from your notebook (its cell was deleted?)")


def submit(notebook: Path, student: str, out: Path, *, force: bool = False) -> int:
    try:
        homework, name, reference = _homework_of(notebook, student)
        target = out / f"{student}_{name}.ipynb"
        if target.exists() and not force:
            raise SubmitError(f"{target} exists already; pass --force to replace it")
    except SubmitError as err:
        print(f"ERROR: {err}", file=sys.stderr)
        return 1
    print(
        f"Checking {notebook} ({name}) the way the grader reads it: your answer cells, found by "
        "their markers, run in a fresh process with the tests you can see. This runs on your "
        "machine, on your own code, without a sandbox; the grader also runs hidden tests, in one."
    )
    submission = Submission(student, name, notebook.resolve())
    result = grade_submission(submission, Limits(), sandboxed=False, reference=reference)
    _report(result, homework, reference)
    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(clean(nbformat.read(notebook, as_version=4)), target)
    print(f"Wrote {target}: hand in this file.")
    return 0
