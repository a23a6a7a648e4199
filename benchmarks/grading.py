"""Benchmark: how long grading a class takes (the goal: 20 submissions within 60 s, --jobs 2).

    .venv/bin/python benchmarks/grading.py [--students 20] [--jobs 2] [--no-sandbox]

Writes N correct day-0 submissions (the master's answers typed into the student version) into a
temporary folder, grades them with the sandbox on, and prints the wall time. A benchmark, not a
test: machines differ, and the tests never assert a time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import nbformat

from helpers import paths
from helpers.course import grading


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--homework", default="day00_homework")
    parser.add_argument("--no-sandbox", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder, out = Path(scratch) / "in", Path(scratch) / "out"
        folder.mkdir()
        notebook = answered(args.homework)
        for i in range(args.students):
            nbformat.write(notebook, folder / f"student{i:02d}_{args.homework}.ipynb")
        start = time.perf_counter()
        results = grading.grade(
            folder, out, jobs=args.jobs, sandboxed=not args.no_sandbox, progress=False
        )
        seconds = time.perf_counter() - start
    passed = sum(o.status == "passed" for r in results for o in r.outcomes)
    print(
        f"{len(results)} submissions of {args.homework} graded in {seconds:.1f} s with --jobs "
        f"{args.jobs}, sandbox {'off' if args.no_sandbox else 'on'} ({passed} exercises passed)"
    )


if __name__ == "__main__":
    main()
