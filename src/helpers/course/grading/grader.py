"""Grading submitted homework: ``python -m helpers grade SUBMISSIONS --out OUT``.

Submissions are files named ``<student>_dayNN_homework.ipynb`` or folders
``<student>/dayNN_homework.ipynb``. Anything else in the folder is reported, not graded: other
names, symbolic links (never followed), and two submissions of one homework by one student.

Before the class, each homework's master is graded as a submission of its own solutions, through
the same sandbox and limits (the *control*). A homework whose control does not earn full marks is
graded for nobody: ``report.txt`` shows what the runner wrote, the sandbox's command line and a
likely fix, and ``python -m helpers grade`` exits with status 1.

How one submission is graded:

1. Its bytes are hashed before and after: the file is only read, and a file that changes while it
   is graded gets the status ``changed`` (the other submissions are graded as usual).
2. Its answer cells are found by their ``# EXERCISE <id>`` / ``MANUAL <id>`` markers. Everything
   else comes from the master: set-up cells and test cells, hidden tests included.
3. An examiner process (:mod:`.examiner`) walks the master. Answer code runs only in a
   runner inside an OS sandbox (:mod:`.sandbox`); the examiner runs the course's own
   code, and decides every check on plain data the runner sends back (see :mod:`.probes` and
   :mod:`.plain`).
4. Free-text (MANUAL) answers go to ``manual.csv``; points typed there are checked (a number from 0
   to the question's points, for an answer that exists) and merged into ``grades.csv``.

Threat model. A submission is untrusted code; the grader runs as root or as an ordinary user.
Defended:

* answers that alter their own interpreter (patched ``builtins``, ``torch.allclose``, comparisons,
  the runner itself, objects whose ``__reduce__`` or ``__eq__`` runs code): every check is decided
  in the examiner, which never unpickles, imports or calls anything the submission made; only plain
  data crosses (numbers, strings, containers, arrays and tensors as raw buffers);
* edited or deleted test cells, forged cell metadata, another kernel named in the file;
* reading the masters (directly or through git), the output folder, other submissions or the home
  folder: none of them exists inside the sandbox; writing anywhere but the sandbox's own scratch;
* the kernel's settings: ``/proc/sys`` is read-only inside, answers run as ``nobody`` in a user
  namespace without capabilities;
* filling memory through files: every writable file system inside is a memory file system of
  256 MB; the sandbox's own root and ``/dev`` are read-only;
* references and expected values: a test statement runs beside the answers only when a later
  statement there needs what it binds (a reference model trained the right way stays with the
  examiner), ``x is True`` sends ``x``, not the literal, and assert messages are evaluated by the
  examiner, with the parts that involve answers shown as written (``{found}``);
* forged replies: nested too deeply, too many elements or bytes, or of the wrong shape: that
  exercise gets ``violation`` or ``error``, the others are graded; runner text is escaped (one
  line of ``report.txt`` cannot pose as another) and its error output is kept bounded;
* symbolic links in the submissions folder (to the master, to a file in the home folder): never
  followed, reported; file contents never appear in messages; names are checked whole (no
  trailing newline), duplicates are reported and not graded, and answers that a spreadsheet would
  read as formulas are written as text;
* the network (only the sandbox's own loopback), processes left behind (a PID namespace: they
  all die with the runner), children that keep output open (the examiner reads replies, not EOF);
* endless loops, swallowed alarms and huge output: time limits are enforced by the examiner from
  outside (it kills the sandbox), printed output is discarded at constant cost per write;
  memory per process is capped (``RLIMIT_AS``, set before the sandbox starts);
* IPython syntax in answers (``%time``, ``!ls``) runs as in the notebook;
* forged manual grades: ``manual.csv`` is validated before it is merged.

Not defended: a runner whose answer code tampers with what it reports can report any plain value,
so it passes an ``assert`` only by reporting exactly what the assert expects, which for hidden tests
it has never seen; properties of an answer's own value (it raised, it is not ``None``) are as easy
to report as to have, so the masters' hidden tests compare answers with literals or with values the
examiner computes itself. The set-up and test cells of the master are trusted, and so is the
machine. An answer's own error messages are shown in feedback (bounded): an answer that saw a hidden
test's inputs can repeat them there. Outside its user namespace the runner is still the grader's
user (root when the grader runs as root): files the sandbox binds are readable by it as by the
grader. Processes and total memory per sandbox are bounded by control groups where the machine
lets the grader make them (:mod:`.bounds`, named in ``report.txt``); elsewhere a
fork loop or many processes under the memory limit are not bounded.
Without bubblewrap (macOS, Windows, or not installed) there is no OS sandbox: ``grade`` refuses
unless told ``--no-sandbox``, and then says so in ``report.txt`` and on every feedback file.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import shlex
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from tqdm.auto import tqdm

from helpers.course import paths
from helpers.course.grading import bounds, report, sandbox
from helpers.course.grading.collect import (  # noqa: F401 - part of this module's interface
    FILE_RE,
    STUDENT_RE,
    Submission,
    find_submissions,
    read_safely,
)
from helpers.course.grading.outcome import Outcome
from helpers.course.grading.report import NO_SANDBOX, shown
from helpers.course.homework.markers import (
    MANUAL_PLACEHOLDER,
    Homework,
    answer_cells,
    parse,
    rubric,
)

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
CONTROL = "control"
"""The student name under which each master is graded before the class."""


class SandboxUnavailable(RuntimeError):
    """No OS sandbox here, and grading without one was not asked for."""


@dataclass
class Limits:
    """Time and memory limits for grading one submission."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    memory_mb: int = 4096


@dataclass
class Result:
    """What grading one submission produced."""

    submission: Submission
    outcomes: list[Outcome] = field(default_factory=list)
    manual: list[dict] = field(default_factory=list)  # rows for manual.csv
    problem: str | None = None  # why it could not be graded, for report.txt
    blocked: bool = False  # its homework's control failed: nobody was graded for it
    seconds: float = 0.0


@dataclass
class Control:
    """A master graded as a submission of its own solutions, before the class."""

    result: Result
    seconds: float

    @property
    def passed(self) -> bool:
        return bool(self.result.outcomes) and all(
            o.status in ("passed", "manual") for o in self.result.outcomes
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


_EXAMINERS = None


def _examiners():
    """Where examiners come from: processes forked from a server that has already imported
    PyTorch and the examiner, so each starts at once and shares no state with another."""
    global _EXAMINERS
    if _EXAMINERS is None:
        _EXAMINERS = multiprocessing.get_context("forkserver")
        _EXAMINERS.set_forkserver_preload(
            ["torch", "numpy", "pandas", "helpers.course.grading.examiner"]
        )
    return _EXAMINERS


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
        answers[qid] = "" if text in ("", MANUAL_PLACEHOLDER) else text
    return answers


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
    every = [*master.tests, *master.manual]

    def nothing(status: str, reason: str) -> Result:
        result.problem = reason
        result.outcomes = [Outcome(e, status, reason) for e in every]
        return result

    try:
        raw = read_safely(submission.path)
        before = hashlib.sha256(raw).hexdigest()
    except OSError as err:
        return nothing("not graded", f"the file cannot be read ({err.strerror})")
    if not raw.strip():
        return nothing("invalid", "the file is empty")
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
        exercises, manual_cells = answer_cells(notebook)
    except (ValueError, UnicodeDecodeError, KeyError, AttributeError, TypeError) as err:
        return nothing("invalid", f"not a readable notebook: {_unreadable(err)}")
    day = submission.homework[:5]
    other_days = {eid.split(".")[0] for eid in [*exercises, *manual_cells]} - {day}
    if other_days:
        return nothing(
            "wrong homework",
            f"the file is named {submission.homework} but holds answers for "
            f"{', '.join(sorted(other_days))}",
        )
    job = {
        "cells": examined_cells(master),
        "answers": {e: notebook.cells[i].source for e, i in exercises.items()},
        "limits": vars(limits),
        "sandbox": sandboxed,
        "python": sandbox.python(),
        # The student version's exercise cells hold placeholders: the names an answer defines
        # come from the answer itself (submit only: the grader takes them from the master alone,
        # so that an answer cannot claim a test's own names)
        "answers_define_names": reference is not None,
    }
    try:
        outcomes = _examined(job, limits, cache)
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
                "max_points": report.score(part.points),
                "answer": report.cell(answer),
                "points": "",
                "comment": "",
                "rubric": (rubric(master.source(part)) or ("",))[0],
            }
        )
    result.outcomes = outcomes
    return result


def _control(homework: str, limits: Limits, sandboxed: bool, cache: dict) -> Control:
    """Grade the master's own solutions as a submission, through the same sandbox and limits."""
    start = time.perf_counter()
    submission = Submission(CONTROL, homework, paths.master(homework))
    result = grade_submission(submission, limits, sandboxed=sandboxed, cache=cache)
    return Control(result, time.perf_counter() - start)


def _fix(control: Control) -> str:
    """The likely fix for a control that did not earn full marks."""
    statuses = {o.status for o in control.result.outcomes}
    logs = " ".join(o.log for o in control.result.outcomes)
    if "timeout" in statuses:
        return "the master ran past its time limits: raise --cell-timeout / --timeout"
    if "memory" in statuses:
        return "the master ran out of memory: raise --memory-mb"
    if "crashed" in statuses and ("execvp" in logs or "No such file" in logs):
        return (
            "the runner could not start inside the sandbox: the Python environment "
            f"({sandbox.python()}) must be reachable there; run `python -m helpers doctor`"
        )
    return (
        "run `python -m helpers doctor`; if the master passes graded with --no-sandbox on a "
        "machine you trust, the sandbox's set-up is at fault, otherwise the master's tests are"
    )


def _control_report(control: Control) -> list[str]:
    """``report.txt``'s lines on a failed control."""
    result = control.result
    lines = [
        f"CONTROL FAILED for {result.submission.homework}: the master's own solutions did not "
        "earn full marks, so nobody was graded for it:"
    ]
    for outcome in result.outcomes:
        if outcome.status not in ("passed", "manual"):
            lines.append(f"    {outcome.exercise}: {outcome.status}: {shown(outcome.reason)}")
    log = next((o.log for o in result.outcomes if o.log), "")
    lines.append("  what the runner wrote last:" if log else "  the runner wrote nothing.")
    lines += report.block(log)
    lines.append(f"  sandbox command: {shown(shlex.join(sandbox.command()), 2000)}")
    lines.append(f"  likely fix: {_fix(control)}")
    return lines


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
    ``sandboxed`` is true. Results of a homework whose control failed are ``blocked``.
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
        bounds_line = bounds.describe(limits.memory_mb)
    else:
        sandbox_line = f"OFF. {NO_SANDBOX}"
        bounds_line = "none (no sandbox)"
    found, other = find_submissions(submissions)
    masters = {p.stem: parse(p) for p in paths.masters()}
    other += [
        f"{s.path.relative_to(submissions)}: no master for {s.homework}"
        for s in found
        if s.homework not in masters
    ]
    other += [
        f"{s.path.relative_to(submissions)}: the student name {CONTROL!r} is the grader's own "
        "(the master's control run); rename the file"
        for s in found
        if s.student == CONTROL
    ]
    found = [s for s in found if s.homework in masters and s.student != CONTROL]
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)
    cache: dict = {}

    def one(submission: Submission) -> Result:
        start = time.perf_counter()
        try:
            result = grade_submission(submission, limits, sandboxed=sandboxed, cache=cache)
        except Exception as err:  # noqa: BLE001 - one submission never stops the class
            result = Result(submission, problem=f"the grader failed on it: {shown(str(err))}")
            master = masters[submission.homework]
            result.outcomes = [
                Outcome(e, "not graded", result.problem) for e in [*master.tests, *master.manual]
            ]
        result.seconds = time.perf_counter() - start
        return result

    def control(homework: str) -> Control:
        try:
            return _control(homework, limits, sandboxed, cache)
        except Exception as err:  # noqa: BLE001 - reported as a failed control
            result = Result(Submission(CONTROL, homework, paths.master(homework)))
            result.outcomes = [Outcome("(control)", "not graded", shown(str(err)))]
            return Control(result, 0.0)

    homeworks = sorted({s.homework for s in found})
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        controls = dict(zip(homeworks, pool.map(control, homeworks), strict=True))
        blocked = {h for h, c in controls.items() if not c.passed}
        todo = [s for s in found if s.homework not in blocked]
        bar = tqdm(total=len(todo), desc="grading", unit="submission", disable=not progress)
        results = []
        for result in pool.map(one, todo):
            results.append(result)
            bar.update()
        bar.close()
    for submission in found:
        if submission.homework in blocked:
            why = f"not graded: the control of {submission.homework} failed (see report.txt)"
            master = masters[submission.homework]
            outcomes = [Outcome(e, "not graded", why) for e in [*master.tests, *master.manual]]
            results.append(Result(submission, outcomes, problem=why, blocked=True))

    results.sort(key=lambda r: (r.submission.student, r.submission.homework))
    tops = {(h, pid): pts for h, m in masters.items() for pid, pts in report.maxima(m).items()}
    manual, manual_problems = report.merge_manual(
        [row for r in results for row in r.manual], out / "manual.csv", tops
    )
    graded = {(m["student"], m["homework"], m["question"]): m["points"] for m in manual}
    rows = [row for r in results for row in report.rows(r, masters[r.submission.homework], graded)]
    report.write_csv(out / "grades.csv", rows, GRADE_COLUMNS)
    report.write_csv(out / "manual.csv", manual, MANUAL_COLUMNS)
    for r in results:
        if r.blocked:
            continue
        name = f"{r.submission.student}_{r.submission.homework}.md"
        text = report.feedback(r, masters[r.submission.homework], sandboxed=sandboxed)
        (out / "feedback" / name).write_text(text, encoding="utf-8")
    problems = other + manual_problems
    for r in results:
        where = str(r.submission.path.relative_to(submissions))
        if r.problem and not r.blocked:
            problems.append(f"{where}: {shown(r.problem)}")
        problems += report.crashes(r, where)
    lines = [
        f"control: {h}: the master's solutions {'earned full marks' if c.passed else 'FAILED'} "
        f"in {c.seconds:.1f} s"
        for h, c in controls.items()
    ]
    for homework in sorted(blocked):
        lines += _control_report(controls[homework])
    (out / "report.txt").write_text(
        report.header(sandbox_line, limits, bounds_line)
        + "".join(f"{line}\n" for line in lines)
        + f"{len(results) - sum(r.blocked for r in results)} submission(s) graded.\n"
        + "".join(f"- {p}\n" for p in problems),
        encoding="utf-8",
    )
    return results
