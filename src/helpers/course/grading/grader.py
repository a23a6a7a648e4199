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
   runner (:mod:`.runner`) inside an OS sandbox (:mod:`.sandbox`); the examiner runs the
   course's own code, and decides every check on plain data the runner sends back (see
   :mod:`.probes` and :mod:`.plain`).
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

* records of an answer's behaviour: anything a test keeps in the runner beside the answer (a
  list of the calls it saw, a counter) is the answer's to rewrite, so the masters' tests keep
  none. They learn a behaviour from the answer's own result (a model whose prediction says
  whether autograd was on) or from the examiner's clock: ``wall_seconds`` is the time the test's
  last statement took, measured outside the sandbox, so an answer that reports a timing it never
  waited for fails (:mod:`helpers.course.homework.doubles`);
* grading again: the same folder graded twice gives the same files, byte for byte, whatever
  happened (a crash's last words included): what differs from run to run (memory addresses,
  the time the grading took, the time left when a limit ran out) is left out or written the
  same way.

Not defended: a runner whose answer code tampers with what it reports can report any plain value,
so it passes an ``assert`` only by reporting exactly what the assert expects, which for hidden tests
it has never seen; properties of an answer's own value (it raised, it is not ``None``) are as easy
to report as to have, so the masters' hidden tests compare answers with literals or with values the
examiner computes itself. An answer that reads the test's objects beside it (a pretend device's
queue) can imitate a behaviour's effects, waiting as long as a right answer would: that needs the
hidden test, and costs the time the right answer takes. The set-up and test cells of the master
are trusted, and so is the machine. An answer's own error messages are shown in feedback
(bounded): an answer that saw a hidden test's inputs can repeat them there. Outside its user
namespace the runner is still the grader's user (root when the grader runs as root): files the
sandbox binds are readable by it as by the grader. Processes and total memory per sandbox are
bounded by control groups where the machine lets the grader make them (:mod:`.bounds`, named in
``report.txt``); elsewhere a fork loop or many processes under the memory limit are not bounded.
Without bubblewrap (macOS, Windows, or not installed) there is no OS sandbox: ``grade`` refuses
unless told ``--no-sandbox``, and then says so in ``report.txt`` and on every feedback file.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tqdm.auto import tqdm

from helpers.course import paths
from helpers.course.grading import bounds, report, sandbox
from helpers.course.grading.collect import (  # noqa: F401 - part of this module's interface
    FILE_RE,
    STUDENT_RE,
    Submission,
    find_submissions,
)
from helpers.course.grading.escape import shown  # noqa: F401 - part of this module's interface
from helpers.course.grading.outcome import (  # noqa: F401 - part of this module's interface
    Control,
    Limits,
    Outcome,
    Result,
)
from helpers.course.grading.report import (  # noqa: F401 - part of this module's interface
    GRADE_COLUMNS,
    MANUAL_COLUMNS,
    NO_SANDBOX,
)
from helpers.course.grading.submission import every_outcome, grade_submission
from helpers.course.homework.markers import Homework, parse

CONTROL = "control"
"""The student name under which each master is graded before the class."""


class SandboxUnavailable(RuntimeError):
    """No OS sandbox here, and grading without one was not asked for."""


def _control(homework: str, limits: Limits, sandboxed: bool, cache: dict) -> Control:
    """Grade the master's own solutions as a submission, through the same sandbox and limits."""
    start = time.perf_counter()
    submission = Submission(CONTROL, homework, paths.master(homework))
    try:
        result = grade_submission(submission, limits, sandboxed=sandboxed, cache=cache)
    except Exception as err:  # noqa: BLE001 - reported as a failed control
        result = Result(submission)
        result.outcomes = [Outcome("(control)", "not graded", shown(str(err)))]
        return Control(result, 0.0)
    return Control(result, time.perf_counter() - start)


def _grade_one(submission: Submission, master: Homework, limits, sandboxed, cache) -> Result:
    """One submission's result, timed; a failure of the grader itself is that row's only."""
    start = time.perf_counter()
    try:
        result = grade_submission(submission, limits, sandboxed=sandboxed, cache=cache)
    except Exception as err:  # noqa: BLE001 - one submission never stops the class
        result = Result(submission, problem=f"the grader failed on it: {shown(str(err))}")
        result.outcomes = every_outcome(master, "not graded", result.problem)
    result.seconds = time.perf_counter() - start
    return result


def _sandbox_lines(limits: Limits, sandboxed: bool) -> tuple[str, str]:
    """``report.txt``'s lines on the sandbox and its bounds; raises when there is none."""
    if not sandboxed:
        return f"OFF. {NO_SANDBOX}", "none (no sandbox)"
    works, detail = sandbox.available()
    if not works:
        raise SandboxUnavailable(
            f"No OS sandbox for grading: {detail}. Grade on Linux with bubblewrap, or pass "
            "--no-sandbox to run answer code with your own rights (report.txt will say so)."
        )
    return f"on (bubblewrap: {detail})", bounds.describe(limits.memory_mb)


def _gradable(submissions: Path, masters: dict) -> tuple[list[Submission], list[str]]:
    """The submissions to grade, and why each of the others is not graded."""
    found, other = find_submissions(submissions)
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
    return [s for s in found if s.homework in masters and s.student != CONTROL], other


def _grade_all(found, masters, limits, sandboxed, jobs: int, progress: bool):
    """Every homework's control, then every submission whose control passed, ``jobs`` at a time;
    the others are ``blocked``. Returns the results and the controls."""
    cache: dict = {}
    homeworks = sorted({s.homework for s in found})
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = pool.map(lambda h: _control(h, limits, sandboxed, cache), homeworks)
        controls = dict(zip(homeworks, runs, strict=True))
        blocked = {h for h, c in controls.items() if not c.passed}
        todo = [s for s in found if s.homework not in blocked]
        bar = tqdm(total=len(todo), desc="grading", unit="submission", disable=not progress)
        results = []
        for result in pool.map(
            lambda s: _grade_one(s, masters[s.homework], limits, sandboxed, cache), todo
        ):
            results.append(result)
            bar.update()
        bar.close()
    for submission in [s for s in found if s.homework in blocked]:
        why = f"not graded: the control of {submission.homework} failed (see report.txt)"
        outcomes = every_outcome(masters[submission.homework], "not graded", why)
        results.append(Result(submission, outcomes, problem=why, blocked=True))
    results.sort(key=lambda r: (r.submission.student, r.submission.homework))
    return results, controls


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
    sandbox_line, bounds_line = _sandbox_lines(limits, sandboxed)
    masters = {p.stem: parse(p) for p in paths.masters()}
    found, other = _gradable(submissions, masters)
    out.mkdir(parents=True, exist_ok=True)
    results, controls = _grade_all(found, masters, limits, sandboxed, jobs, progress)
    problems = other + report.write_grades(out, results, masters, sandboxed)
    lines = report.report_lines(results, controls, submissions, problems)
    (out / "report.txt").write_text(
        report.header(sandbox_line, limits, bounds_line) + "".join(f"{x}\n" for x in lines),
        encoding="utf-8",
    )
    return results
