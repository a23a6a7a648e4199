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
from helpers.course.grading.grader import STUDENT_RE, Limits, Submission, grade_submission
from helpers.course.homework.markers import (
    HomeworkFormatError,
    parse,
)
from helpers.course.notebooks.clean import clean


def submit(notebook: Path, student: str, out: Path, *, force: bool = False) -> int:
    def fail(message: str) -> int:
        print(f"ERROR: {message}", file=sys.stderr)
        return 1

    if not STUDENT_RE.fullmatch(student):
        return fail(f"--student {student!r}: use letters, digits, '_', '.' or '-' only.")
    if not notebook.is_file():
        return fail(f"no notebook at {notebook}")
    try:
        homework = parse(notebook)
    except (HomeworkFormatError, ValueError) as err:
        return fail(f"{notebook} is not a readable homework notebook: {err}")
    days = {i.split(".")[0] for i in [*homework.exercises, *homework.manual]}
    if not days:
        lesson = re.match(r"(day\d\d)_", notebook.name)
        hint = (
            paths.homework(f"{lesson[1]}_homework")
            if lesson
            else paths.HOMEWORK / "dayNN_homework.ipynb"
        )
        return fail(
            f"{notebook} is not a homework notebook (it has no `# EXERCISE` or `MANUAL` cells). "
            f"Hand in your homework instead: {hint.relative_to(paths.ROOT)}"
        )
    if len(days) > 1:
        return fail(f"{notebook} holds answers of several homework ({', '.join(sorted(days))})")
    name = f"{days.pop()}_homework"
    reference = paths.homework(name)
    if not reference.is_file():
        return fail(f"there is no homework {name} in this course ({reference} is missing)")
    expected = parse(reference)
    missing = [
        i
        for i in [*expected.exercises, *expected.manual]
        if i not in [*homework.exercises, *homework.manual]
    ]

    target = out / f"{student}_{name}.ipynb"
    if target.exists() and not force:
        return fail(f"{target} exists already; pass --force to replace it")
    print(
        f"Checking {notebook} ({name}) the way the grader reads it: your answer cells, found by "
        "their markers, run in a fresh process with the tests you can see. This runs on your "
        "machine, on your own code, without a sandbox; the grader also runs hidden tests, in one."
    )
    result = grade_submission(
        Submission(student, name, notebook.resolve()),
        Limits(),
        sandboxed=False,
        reference=reference,
    )
    for outcome in result.outcomes:
        detail = f": {outcome.reason}" if outcome.reason else ""
        print(f"  {outcome.exercise:<28} {outcome.status}{detail}")
        for check in outcome.checks:
            if check.status != "passed":
                print(
                    f"      {check.status}: {check.statement.splitlines()[0]}"
                    + (f" ({check.reason})" if check.reason else "")
                )
    for item in missing:
        print(f"  WARNING: {item} is missing from your notebook (its cell was deleted?)")

    out.mkdir(parents=True, exist_ok=True)
    nbformat.write(clean(nbformat.read(notebook, as_version=4)), target)
    print(f"Wrote {target}: hand in this file.")
    return 0
