"""Benchmark: how long grading a class takes (the goal: 20 submissions within 60 s, --jobs 2).

    .venv/bin/python benchmarks/grading.py [--students 100] [--jobs 2] [--homework day00,day03]
                                           [--no-sandbox]

Writes ``--students`` submissions of each homework into a temporary folder: the master's answers
typed into the student version (each with its student's name in a comment, so that no two are
the same file and none is taken from the control's result), a few wrong ones, one endless loop
and one crash. Grades them with the sandbox on, the control of each homework included, and
prints the wall time and the time per submission. A benchmark, not a test: machines differ, and
the tests never assert a time.
"""

from __future__ import annotations

import argparse
import collections
import tempfile
import time
from pathlib import Path

import nbformat

from helpers.course import paths
from helpers.course.grading import grader

WRONG_EVERY = 10
"""One student in ten hands in a wrong answer to the first exercise."""


def answered(homework: str) -> nbformat.NotebookNode:
    master = nbformat.read(paths.master(homework), 4)
    student = nbformat.read(paths.homework(homework), 4)
    for mine, theirs in zip(student.cells, master.cells, strict=True):
        if mine.source.startswith(("# EXERCISE", "MANUAL")):
            markers = ("### BEGIN SOLUTION", "### END SOLUTION")
            mine.source = "\n".join(
                line for line in theirs.source.splitlines() if line.strip() not in markers
            )
    return student


def variant(notebook: nbformat.NotebookNode, index: int) -> nbformat.NotebookNode:
    """Student ``index``'s copy: its own comment in every answer; a wrong first answer for one in
    ten, an endless loop for student 1 and a crash for student 2."""
    copy = nbformat.from_dict(notebook)
    answers = [c for c in copy.cells if c.source.startswith("# EXERCISE")]
    for cell in answers:
        head, _, body = cell.source.partition("\n")
        cell.source = f"{head}\n# handed in by student {index}\n{body}"
    head = answers[0].source.partition("\n")[0]
    if index == 1:
        answers[0].source = f"{head}\nwhile True:\n    pass\n"
    elif index == 2:
        answers[0].source = f"{head}\nimport os\nos._exit(3)\n"
    elif index % WRONG_EVERY == 3:
        answers[0].source = f"{head}\nraise ValueError('not done yet')\n"
    return copy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=100, help="submissions per homework")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--homework", default="day00,day03", help="days, comma-separated")
    parser.add_argument("--cell-timeout", type=float, default=10.0)
    parser.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args()
    homeworks = [f"{day.strip()}_homework" for day in args.homework.split(",")]
    limits = grader.Limits(cell_seconds=args.cell_timeout)
    with tempfile.TemporaryDirectory() as scratch:
        folder, out = Path(scratch) / "in", Path(scratch) / "out"
        folder.mkdir()
        for homework in homeworks:
            notebook = answered(homework)
            for i in range(args.students):
                path = folder / f"student{i:03d}_{homework}.ipynb"
                nbformat.write(variant(notebook, i), path)
        start = time.perf_counter()
        results = grader.grade(
            folder,
            out,
            jobs=args.jobs,
            limits=limits,
            sandboxed=not args.no_sandbox,
            progress=False,
        )
        seconds = time.perf_counter() - start
        control = [
            line
            for line in (out / "report.txt").read_text(encoding="utf-8").splitlines()
            if line.startswith("control:")
        ]
    statuses = collections.Counter(o.status for r in results for o in r.outcomes)
    print(
        f"{len(results)} submissions of {', '.join(homeworks)} graded in {seconds:.1f} s with "
        f"--jobs {args.jobs}, sandbox {'off' if args.no_sandbox else 'on'}: "
        f"{seconds / max(len(results), 1):.2f} s per submission"
    )
    print("exercises by status: " + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    print("\n".join(control))


if __name__ == "__main__":
    main()
