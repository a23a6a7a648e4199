"""Grading submitted homework: ``python -m helpers grade SUBMISSIONS --out OUT``.

Submissions are files named ``<student>_dayNN_homework.ipynb`` or folders
``<student>/dayNN_homework.ipynb``. Anything else in the folder is reported, not graded.

How one submission is graded:

1. Its bytes are hashed before and after: the file is only read, and a file that changes while it
   is graded gets the status ``changed`` (the other submissions are graded as usual).
2. Its answer cells are found by their ``# EXERCISE <id>`` / ``MANUAL <id>`` markers. Everything
   else comes from the master: set-up cells and test cells, hidden tests included.
3. A judge process (:mod:`helpers.course.judge`) walks the master. Answer code runs only in a
   runner inside an OS sandbox (:mod:`helpers.course.sandbox`); the judge runs the course's own
   code, and decides every check on plain data the runner sends back (see :mod:`.probes` and
   :mod:`.plain`).
4. Free-text (MANUAL) answers go to ``manual.csv``; points typed there are checked (a number from 0
   to the question's points, for an answer that exists) and merged into ``grades.csv``.

Threat model. A submission is untrusted code. Defended:

* answers that alter their own interpreter (patched ``builtins``, ``torch.allclose``, comparisons,
  the runner itself, objects whose ``__reduce__`` or ``__eq__`` runs code): every check is decided
  in the judge, which never unpickles, imports or calls anything the submission made; only plain
  data crosses (numbers, strings, containers, arrays and tensors as raw buffers);
* edited or deleted test cells, forged cell metadata, another kernel named in the file;
* reading the masters (directly or through git), the output folder, other submissions or the home
  folder: none of them exists inside the sandbox; writing anywhere but the sandbox's own scratch;
* the network (only the sandbox's own loopback), processes left behind (a PID namespace: they
  all die with the runner), children that keep output open (the judge reads replies, not EOF);
* endless loops, swallowed alarms and huge output: time limits are enforced by the judge from
  outside (it kills the sandbox), printed output is discarded at constant cost per write;
  memory per process is capped (``RLIMIT_AS``, set before the sandbox starts);
* IPython syntax in answers (``%time``, ``!ls``) runs as in the notebook;
* forged manual grades: ``manual.csv`` is validated before it is merged.

Not defended: a runner whose answer code tampers with what it reports can report any plain value,
so it passes an ``assert`` only by reporting exactly what the assert expects, which for hidden tests
it has never seen; properties of an answer's own value (it raised, it is not ``None``) are as easy
to report as to have, so the masters' hidden tests compare answers with literals or with values the
judge computes itself. The set-up and test cells of the master are trusted, and so is the machine.
Without bubblewrap (macOS, Windows, or not installed) there is no OS sandbox: ``grade`` refuses
unless told ``--no-sandbox``, and then says so in ``report.txt`` and on every feedback file. Fork
bombs and the total memory of many processes are limited only when grading as an ordinary user.
"""

from __future__ import annotations

import csv
import hashlib
import json
import multiprocessing
import platform
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from tqdm.auto import tqdm

from helpers import paths
from helpers.course import sandbox
from helpers.course.markers import MANUAL_PLACEHOLDER, Homework, answer_cells, parse, rubric
from helpers.course.outcome import Outcome

FILE_RE = re.compile(
    r"^(?P<student>[A-Za-z0-9][A-Za-z0-9_.-]*?)_(?P<homework>day\d\d_homework)\.ipynb$"
)
FOLDER_FILE_RE = re.compile(r"^(?P<homework>day\d\d_homework)\.ipynb$")
STUDENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
GRADE_COLUMNS = ["student", "homework", "exercise", "points", "max_points", "status", "reason"]
MANUAL_COLUMNS = [
    "student",
    "homework",
    "question",
    "max_points",
    "answer",
    "points",
    "comment",
    "rubric",
]
NO_SANDBOX = (
    "Graded WITHOUT an OS sandbox (--no-sandbox): answer code ran with the grader's own rights."
)


class SandboxUnavailable(RuntimeError):
    """No OS sandbox here, and grading without one was not asked for."""


@dataclass
class Limits:
    """Time and memory limits for grading one submission."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    memory_mb: int = 4096


@dataclass
class Submission:
    student: str
    homework: str  # e.g. "day00_homework"
    path: Path


@dataclass
class Result:
    """What grading one submission produced."""

    submission: Submission
    outcomes: list[Outcome] = field(default_factory=list)
    manual: list[dict] = field(default_factory=list)  # rows for manual.csv
    problem: str | None = None  # why it could not be graded, for report.txt


def find_submissions(folder: Path) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (files or per-student folders), and what else is there."""
    if not folder.is_dir():
        raise FileNotFoundError(f"No submissions folder at {folder}.")
    found, other = [], []
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_file() and (match := FILE_RE.match(path.name)):
            found.append(Submission(match["student"], match["homework"], path))
        elif path.is_dir() and STUDENT_RE.match(path.name):
            for inner in sorted(path.iterdir()):
                if inner.is_file() and (match := FOLDER_FILE_RE.match(inner.name)):
                    found.append(Submission(path.name, match["homework"], inner))
                elif not inner.name.startswith("."):
                    other.append(f"{inner.relative_to(folder)}: not named dayNN_homework.ipynb")
        else:
            other.append(
                f"{path.name}: not a submission (expected <student>_dayNN_homework.ipynb or a "
                "folder <student>/ holding dayNN_homework.ipynb)"
            )
    return found, other


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


_JUDGES = None


def _judges():
    """Where judges come from: processes forked from a server that has already imported
    PyTorch and the judge, so each starts at once and shares no state with another."""
    global _JUDGES
    if _JUDGES is None:
        _JUDGES = multiprocessing.get_context("forkserver")
        _JUDGES.set_forkserver_preload(["torch", "numpy", "pandas", "helpers.course.judge"])
    return _JUDGES


def _run_judge(job: dict, limits: Limits) -> list[Outcome]:
    """Run the judge in a fresh process, in a private folder the sandbox never sees."""
    from helpers.course.judge import run_job

    with tempfile.TemporaryDirectory(prefix="course-judge-") as private:
        folder = Path(private)
        (folder / "job.json").write_text(json.dumps(job), encoding="utf-8")
        process = _judges().Process(target=run_job, args=(private,))
        process.start()
        process.join(limits.notebook_seconds + 120)
        if process.is_alive():
            process.kill()
            process.join()
            raise RuntimeError("the judge did not finish in time")
        result = folder / "result.json"
        if process.exitcode != 0 or not result.is_file():
            error = folder / "error.txt"
            why = error.read_text(encoding="utf-8") if error.is_file() else "no message"
            raise RuntimeError(f"the judge failed (exit {process.exitcode}: {why})")
        return [Outcome.from_dict(o) for o in json.loads(result.read_text(encoding="utf-8"))]


def judge_cells(master: Homework) -> list[dict]:
    """The master's code cells as the judge walks them: set-up, exercises and tests (the
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
        answers[qid] = "" if text in ("", MANUAL_PLACEHOLDER) else text
    return answers


def grade_submission(
    submission: Submission,
    limits: Limits | None = None,
    *,
    sandboxed: bool = True,
    reference: Path | None = None,
) -> Result:
    """Grade one submission against its master (see the module's docstring); never raises for
    anything the submission does.

    ``reference`` grades against another notebook of the same homework instead of the master:
    ``python -m helpers submit`` uses the student version (visible tests only, no sandbox).
    """
    limits = limits or Limits()
    result = Result(submission)
    master = parse(reference or paths.master(submission.homework))
    every = [*master.tests, *master.manual]

    def nothing(status: str, reason: str) -> Result:
        result.problem = reason
        result.outcomes = [Outcome(e, status, reason) for e in every]
        return result

    try:
        before = _digest(submission.path)
        raw = submission.path.read_bytes()
    except OSError as err:
        return nothing("not graded", f"the file cannot be read ({err.strerror})")
    if not raw.strip():
        return nothing("invalid", "the file is empty")
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
        exercises, manual_cells = answer_cells(notebook)
    except (ValueError, UnicodeDecodeError, KeyError, AttributeError, TypeError) as err:
        return nothing("invalid", f"not a readable notebook ({str(err)[:200]})")
    day = submission.homework[:5]
    other_days = {eid.split(".")[0] for eid in [*exercises, *manual_cells]} - {day}
    if other_days:
        return nothing(
            "wrong homework",
            f"the file is named {submission.homework} but holds answers for "
            f"{', '.join(sorted(other_days))}",
        )
    job = {
        "cells": judge_cells(master),
        "answers": {e: notebook.cells[i].source for e, i in exercises.items()},
        "limits": vars(limits),
        "sandbox": sandboxed,
    }
    try:
        outcomes = _run_judge(job, limits)
    except RuntimeError as err:
        return nothing("not graded", str(err))
    try:
        changed = _digest(submission.path) != before
    except OSError:
        changed = True
    if changed:
        return nothing("changed", "the file changed while it was graded; grade it again")
    manual = _manual_answers(notebook, manual_cells)
    for qid, part in master.manual.items():
        answer = manual.get(qid, "")
        status = "manual" if answer else "missing"
        outcomes.append(Outcome(qid, status, "" if answer else "no answer given"))
        result.manual.append(
            {
                "student": submission.student,
                "homework": submission.homework,
                "question": qid,
                "max_points": _points(part.points),
                "answer": answer,
                "points": "",
                "comment": "",
                "rubric": (rubric(master.source(part)) or ("",))[0],
            }
        )
    result.outcomes = outcomes
    return result


def _points(value: float) -> str:
    return f"{value:g}"


def _maxima(master: Homework) -> dict[str, float]:
    return {pid: part.points for pid, part in [*master.tests.items(), *master.manual.items()]}


def _rows(result: Result, master: Homework, graded: dict) -> list[dict]:
    rows = []
    maxima = _maxima(master)
    for outcome in result.outcomes:
        points: object = maxima[outcome.exercise] if outcome.status == "passed" else 0
        if outcome.status == "manual":
            key = (result.submission.student, result.submission.homework, outcome.exercise)
            points = graded.get(key, "")
        rows.append(
            {
                "student": result.submission.student,
                "homework": result.submission.homework,
                "exercise": outcome.exercise,
                "points": points if points == "" else _points(float(points)),
                "max_points": _points(maxima[outcome.exercise]),
                "status": outcome.status,
                "reason": outcome.reason,
            }
        )
    return rows


def feedback(result: Result, master: Homework, *, sandboxed: bool = True) -> str:
    """The Markdown feedback for one submission: what failed and why, hidden tests counted only."""
    lines = [f"# {result.submission.homework}: feedback for {result.submission.student}\n"]
    if not sandboxed:
        lines.append(f"*{NO_SANDBOX}*\n")
    if result.problem:
        lines.append(f"**Not graded: {result.problem}**\n")
    maxima = _maxima(master)
    for outcome in result.outcomes:
        if outcome.exercise in master.manual:
            state = "graded by hand" if outcome.status == "manual" else "no answer given"
            lines.append(
                f"\n## {outcome.exercise}: {_points(maxima[outcome.exercise])} points, {state}\n"
            )
            continue
        earned = maxima[outcome.exercise] if outcome.status == "passed" else 0
        lines.append(
            f"\n## {outcome.exercise}: {_points(earned)} of "
            f"{_points(maxima[outcome.exercise])} points ({outcome.status})\n"
        )
        if outcome.reason:
            lines.append(f"- {outcome.reason}")
        hidden = sum(c.hidden and c.status != "passed" for c in outcome.checks)
        for check in outcome.checks:
            if check.status != "passed" and not check.hidden:
                first = check.statement.splitlines()[0]
                lines.append(
                    f"- {check.status}: `{first}`" + (f": {check.reason}" if check.reason else "")
                )
        if hidden:
            lines.append(
                f"- {hidden} of the grader's additional (hidden) checks did not pass; run "
                "`check()` and think about cases the visible tests do not try"
            )
    return "\n".join(lines) + "\n"


def _merge_manual(new: list[dict], path: Path, maxima: dict) -> tuple[list[dict], list[str]]:
    """Keep the points and comments already typed into ``manual.csv`` for unchanged answers;
    report (and never merge) rows that name no answer, and points that are not a number between
    0 and the question's points."""
    problems: list[str] = []
    old: dict = {}
    if path.is_file():
        with path.open(newline="", encoding="utf-8") as file:
            for line, row in enumerate(csv.DictReader(file), start=2):
                key = (row.get("student"), row.get("homework"), row.get("question"))
                old[key] = (line, row)
    current = {(r["student"], r["homework"], r["question"]): r for r in new}
    for key, (line, row) in old.items():
        where = f"manual.csv line {line} ({'/'.join(str(k) for k in key)})"
        if key not in current:
            problems.append(f"{where}: no such answer in this grading; the row was dropped")
            continue
        target = current[key]
        text = (row.get("points") or "").strip()
        top = maxima.get((key[1], key[2]))
        if text:
            try:
                value = float(text)
            except ValueError:
                problems.append(f"{where}: points {text!r} is not a number; not merged")
                continue
            if not 0 <= value <= top:
                problems.append(
                    f"{where}: points {text} is outside 0 to {_points(top)}; not merged"
                )
                continue
        if row.get("answer") == target["answer"]:
            target["points"], target["comment"] = text, row.get("comment", "")
        elif text or row.get("comment"):
            target["comment"] = "answer changed since it was graded; grade again"
    return new, problems


def _write_csv(path: Path, rows: list[dict], columns: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(paths.ROOT), "rev-parse", "--short=12", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            encoding="utf-8",
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() or "unknown"


def _header(sandbox_line: str, limits: Limits) -> str:
    import torch

    return (
        f"grader: commit {_commit()}; Python {platform.python_version()}; torch "
        f"{torch.__version__}; 1 thread per process (OMP_NUM_THREADS=1); seed 0 before each test\n"
        f"sandbox: {sandbox_line}\n"
        f"limits: {limits.cell_seconds:g} s per cell, {limits.notebook_seconds:g} s per notebook, "
        f"{limits.memory_mb} MB per process\n"
    )


def grade(
    submissions: Path,
    out: Path,
    *,
    jobs: int = 1,
    limits: Limits | None = None,
    sandboxed: bool = True,
    progress: bool = True,
) -> list[Result]:
    """Grade every submission in ``submissions`` into ``out`` (see the module's docstring).

    Writes ``grades.csv``, ``manual.csv``, ``feedback/<student>_<homework>.md`` and
    ``report.txt``. Raises :class:`SandboxUnavailable` when there is no sandbox and
    ``sandboxed`` is true.
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    limits = limits or Limits()
    if sandboxed:
        works, detail = sandbox.available()
        if not works:
            raise SandboxUnavailable(
                f"No OS sandbox for grading: {detail}. Grade on Linux with bubblewrap, or pass "
                "--no-sandbox to run answer code with your own rights (report.txt will say so)."
            )
        sandbox_line = f"on (bubblewrap: {detail})"
    else:
        sandbox_line = f"OFF. {NO_SANDBOX}"
    found, other = find_submissions(submissions)
    masters = {p.stem: parse(p) for p in paths.masters()}
    other += [
        f"{s.path.relative_to(submissions)}: no master for {s.homework}"
        for s in found
        if s.homework not in masters
    ]
    found = [s for s in found if s.homework in masters]
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)

    def one(submission: Submission) -> Result:
        try:
            return grade_submission(submission, limits, sandboxed=sandboxed)
        except Exception as err:  # noqa: BLE001 - one submission never stops the class
            result = Result(submission, problem=f"the grader failed on it: {err}")
            master = masters[submission.homework]
            result.outcomes = [
                Outcome(e, "not graded", result.problem) for e in [*master.tests, *master.manual]
            ]
            return result

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        bar = tqdm(total=len(found), desc="grading", unit="submission", disable=not progress)
        results = []
        for result in pool.map(one, found):
            results.append(result)
            bar.update()
        bar.close()

    results.sort(key=lambda r: (r.submission.student, r.submission.homework))
    maxima = {(h, pid): pts for h, m in masters.items() for pid, pts in _maxima(m).items()}
    manual, manual_problems = _merge_manual(
        [row for r in results for row in r.manual], out / "manual.csv", maxima
    )
    graded = {(m["student"], m["homework"], m["question"]): m["points"] for m in manual}
    rows = [row for r in results for row in _rows(r, masters[r.submission.homework], graded)]
    _write_csv(out / "grades.csv", rows, GRADE_COLUMNS)
    _write_csv(out / "manual.csv", manual, MANUAL_COLUMNS)
    for r in results:
        name = f"{r.submission.student}_{r.submission.homework}.md"
        text = feedback(r, masters[r.submission.homework], sandboxed=sandboxed)
        (out / "feedback" / name).write_text(text, encoding="utf-8")
    problems = (
        other
        + [
            f"{r.submission.path.relative_to(submissions)}: {r.problem}"
            for r in results
            if r.problem
        ]
        + manual_problems
    )
    (out / "report.txt").write_text(
        _header(sandbox_line, limits)
        + f"{len(results)} submission(s) graded.\n"
        + "".join(f"- {p}\n" for p in problems),
        encoding="utf-8",
    )
    return results
