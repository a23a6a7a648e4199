"""Grading one submission: read it, hand its answers to the examiner, collect the outcomes.

:func:`grade_submission` never raises for anything the submission does: a file that cannot be
read, is not a notebook, holds another homework's answers or changes while it is graded gets the
same status on every exercise (and the reason). The examiner runs in a fresh process forked from
a server that has already imported PyTorch, or spawned where there is none (:func:`_examiners`);
:mod:`.grader` grades a class.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import multiprocessing.context
import tempfile
from pathlib import Path

import nbformat

from helpers.config import START_METHOD
from helpers.course import paths
from helpers.course.grading import escape, report, sandbox
from helpers.course.grading.collect import Submission, read_safely
from helpers.course.grading.escape import shown
from helpers.course.grading.outcome import Limits, Outcome, Result
from helpers.course.homework.markers import (
    MANUAL_PLACEHOLDERS,
    Homework,
    answer_cells,
    parse,
    rubric,
)


def _digest(path: Path) -> str:
    return hashlib.sha256(read_safely(path)).hexdigest()


def _unreadable(err: Exception) -> str:
    """Why a file is not a notebook, without quoting a byte of it."""
    if isinstance(err, UnicodeDecodeError):
        return f"not UTF-8 text (byte {err.start})"
    if isinstance(err, json.JSONDecodeError):
        return f"not JSON (line {err.lineno}, column {err.colno})"
    return f"not a notebook nbformat can read ({type(err).__name__})"


_EXAMINERS: dict[str, multiprocessing.context.BaseContext] = {}


def _examiners() -> multiprocessing.context.BaseContext:
    """Where examiners come from: processes forked from a server that has already imported
    PyTorch and the examiner (forkserver), so each starts at once and shares no state with
    another. Where the system has no forkserver (Windows), or ``COURSE_START_METHOD=spawn`` asks
    to start processes as there (:data:`helpers.config.START_METHOD`), each is a fresh
    interpreter (spawn), which imports them itself. Never a fork of the grader: its threads
    (one per ``--jobs``) would leave a forked copy's locks held."""
    usable = "forkserver" in multiprocessing.get_all_start_methods()
    method = "spawn" if START_METHOD == "spawn" or not usable else "forkserver"
    if method not in _EXAMINERS:
        _EXAMINERS[method] = multiprocessing.get_context(method)
        if method == "forkserver":
            _EXAMINERS[method].set_forkserver_preload(
                ["torch", "numpy", "pandas", "helpers.course.grading.examiner"]
            )
    return _EXAMINERS[method]


def _examined(job: dict, limits: Limits, cache: dict | None) -> list[Outcome]:
    """The examiner's outcomes for ``job``; a job already examined in this run (the same master,
    answers and limits: a copy of the master's solutions, graded by the control) is not run
    twice."""
    key = hashlib.sha256(json.dumps(job, sort_keys=True).encode()).hexdigest()
    if cache is not None and key in cache:
        return [Outcome.from_dict(o) for o in cache[key]]
    outcomes = _run_examiner(job, limits)
    if cache is not None:
        cache[key] = [o.to_dict() for o in outcomes]
    return outcomes


def _run_examiner(job: dict, limits: Limits) -> list[Outcome]:
    """Run the examiner in a fresh process, in a private folder the sandbox never sees."""
    from helpers.course.grading.examiner import run_job

    with tempfile.TemporaryDirectory(prefix="course-examiner-") as private:
        folder = Path(private)
        (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
        process = _examiners().Process(target=run_job, args=(private,))
        process.start()
        process.join(limits.notebook_seconds + 120)
        if process.is_alive():
            process.kill()
            process.join()
            raise RuntimeError("the examiner did not finish in time")
        result = folder / "result.json"
        if process.exitcode != 0 or not result.is_file():
            error = folder / "error.txt"
            why = error.read_text(encoding="utf-8") if error.is_file() else "no message"
            raise RuntimeError(f"the examiner failed (exit {process.exitcode}: {shown(why, 300)})")
        return [Outcome.from_dict(o) for o in json.loads(result.read_text(encoding="utf-8"))]


def examined_cells(master: Homework) -> list[dict]:
    """The master's code cells as the examiner walks them: set-up, exercises and tests (the
    learners' ``check(...)`` calls are left out)."""
    cells = []
    kinds = {p.cell: ("exercise", i) for i, p in master.exercises.items()}
    kinds |= {p.cell: ("test", i) for i, p in master.tests.items()}
    for index, cell in enumerate(master.notebook.cells):
        if cell.cell_type != "code" or cell.source.startswith("check("):
            continue
        kind, part = kinds.get(index, ("setup", None))
        cells.append({"kind": kind, "id": part, "source": cell.source})
    return cells


def _manual_answers(notebook, cells: dict[str, int]) -> dict[str, str]:
    answers = {}
    for qid, index in cells.items():
        text = "\n".join(notebook.cells[index].source.splitlines()[1:]).strip()
        answers[qid] = "" if text in ("", *MANUAL_PLACEHOLDERS.values()) else text  # any edition
    return answers


class _Ungraded(Exception):
    """A submission that cannot be graded: every exercise gets ``status``, for ``reason``."""

    def __init__(self, status: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.reason = status, reason


def every_outcome(master: Homework, status: str, reason: str) -> list[Outcome]:
    """The same outcome for every exercise and question of a homework."""
    return [Outcome(e, status, reason) for e in [*master.tests, *master.manual]]


def _read(submission: Submission) -> tuple[nbformat.NotebookNode, str]:
    """The submitted notebook and the hash of its bytes as read."""
    try:
        raw = read_safely(submission.path)
    except OSError as err:
        raise _Ungraded("not graded", f"the file cannot be read ({err.strerror})") from err
    if not raw.strip():
        raise _Ungraded("invalid", "the file is empty")
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except (ValueError, UnicodeDecodeError, KeyError, AttributeError, TypeError) as err:
        raise _Ungraded("invalid", f"not a readable notebook: {_unreadable(err)}") from err
    return notebook, hashlib.sha256(raw).hexdigest()


def _answers(notebook, homework: str) -> tuple[dict[str, int], dict[str, int]]:
    """The cells of the exercise and the free-text answers, all of ``homework``'s day."""
    try:
        exercises, manual_cells = answer_cells(notebook)
    except (ValueError, KeyError, AttributeError, TypeError) as err:
        raise _Ungraded("invalid", f"not a readable notebook: {_unreadable(err)}") from err
    other_days = {eid.split(".")[0] for eid in [*exercises, *manual_cells]} - {
        homework.split("_")[0]
    }
    if other_days:
        raise _Ungraded(
            "wrong homework",
            f"the file is named {homework} but holds answers for {', '.join(sorted(other_days))}",
        )
    return exercises, manual_cells


def _job(master, notebook, exercises, limits: Limits, sandboxed: bool, submit: bool) -> dict:
    """What the examiner needs: the master's cells, the answers, the limits, the sandbox."""
    return {
        "cells": examined_cells(master),
        "answers": {e: notebook.cells[i].source for e, i in exercises.items()},
        "limits": vars(limits),
        "sandbox": sandboxed,
        "python": sandbox.python(),
        # The student version's exercise cells hold placeholders: the names an answer defines
        # come from the answer itself (submit only: the grader takes them from the master alone,
        # so that an answer cannot claim a test's own names)
        "answers_define_names": submit,
    }


def _examined_unchanged(job: dict, limits: Limits, cache, path: Path, before: str) -> list:
    """The examiner's outcomes, provided the file did not change while it was graded."""
    try:
        outcomes = _examined(job, limits, cache)
    except RuntimeError as err:
        raise _Ungraded("not graded", str(err)) from err
    try:
        changed = _digest(path) != before
    except OSError:
        changed = True
    if changed:
        raise _Ungraded("changed", "the file changed while it was graded; grade it again")
    return outcomes


def _manual(result: Result, master: Homework, notebook, cells: dict[str, int]) -> list[Outcome]:
    """The free-text answers' outcomes; their rows for ``manual.csv`` go into ``result``."""
    answers, outcomes = _manual_answers(notebook, cells), []
    for qid, part in master.manual.items():
        answer = answers.get(qid, "")
        outcomes.append(
            Outcome(qid, "manual" if answer else "missing", "" if answer else "no answer given")
        )
        result.manual.append(
            {
                "student": result.submission.student,
                "homework": result.submission.homework,
                "question": qid,
                "max_points": report.score(part.points),
                "answer": escape.cell(answer),
                "points": "",
                "comment": "",
                "rubric": (rubric(master.source(part)) or ("",))[0],
            }
        )
    return outcomes


def grade_submission(
    submission: Submission,
    limits: Limits | None = None,
    *,
    sandboxed: bool = True,
    reference: Path | None = None,
    cache: dict | None = None,
) -> Result:
    """Grade one submission against its master (see the module's docstring); never raises for
    anything the submission does.

    ``reference`` grades against another notebook of the same homework instead of the master:
    ``python -m helpers submit`` uses the student version (visible tests only, no sandbox).
    """
    limits = limits or Limits()
    result = Result(submission)
    master = parse(reference or paths.master(submission.homework))
    try:
        notebook, before = _read(submission)
        exercises, manual_cells = _answers(notebook, submission.homework)
        job = _job(master, notebook, exercises, limits, sandboxed, submit=reference is not None)
        outcomes = _examined_unchanged(job, limits, cache, submission.path, before)
    except _Ungraded as why:
        result.problem, result.outcomes = why.reason, every_outcome(master, why.status, why.reason)
        return result
    result.outcomes = outcomes + _manual(result, master, notebook, manual_cells)
    return result
