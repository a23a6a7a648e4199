"""What grading writes: ``grades.csv``, ``manual.csv``, the feedback files and ``report.txt``.

Everything in them that came from a submission or from a process that ran answer code is made
safe to show with :mod:`.escape`: :func:`~.escape.shown` escapes control characters and line
breaks (one line of the report cannot pose as another), :func:`~.escape.cell` keeps a spreadsheet
from reading a text as a formula, and a runner's error output appears only as an indented block
(:func:`~.escape.block`).
"""

from __future__ import annotations

import csv
import platform
import shlex
import subprocess
from pathlib import Path

from helpers.course import paths
from helpers.course.grading import sandbox
from helpers.course.grading.escape import block, cell, shown
from helpers.course.grading.outcome import Control, Limits, Result
from helpers.course.homework.markers import Homework

NO_SANDBOX = (
    "Graded WITHOUT an OS sandbox (--no-sandbox): answer code ran with the grader's own rights."
)


def score(value: float) -> str:
    return f"{value:g}"


def points(value: float) -> str:
    """``1 point``, ``2 points``, ``0.5 points``."""
    return f"{score(value)} point" + ("" if value == 1 else "s")


def maxima(master: Homework) -> dict[str, float]:
    return {pid: part.points for pid, part in [*master.tests.items(), *master.manual.items()]}


def rows(result: Result, master: Homework, graded: dict) -> list[dict]:
    """The ``grades.csv`` rows of one submission."""
    found = []
    top = maxima(master)
    for outcome in result.outcomes:
        earned: object = top[outcome.exercise] if outcome.status == "passed" else 0
        if outcome.status == "manual":
            key = (result.submission.student, result.submission.homework, outcome.exercise)
            earned = graded.get(key, "")
        found.append(
            {
                "student": result.submission.student,
                "homework": result.submission.homework,
                "exercise": outcome.exercise,
                "points": earned if earned == "" else score(float(earned)),
                "max_points": score(top[outcome.exercise]),
                "status": outcome.status,
                "reason": cell(shown(outcome.reason)),
            }
        )
    return found


def feedback(result: Result, master: Homework, *, sandboxed: bool = True) -> str:
    """The Markdown feedback for one submission: what failed and why, hidden tests counted only."""
    lines = [f"# {result.submission.homework}: feedback for {result.submission.student}\n"]
    if not sandboxed:
        lines.append(f"*{NO_SANDBOX}*\n")
    if result.problem:
        lines.append(f"**Not graded: {shown(result.problem)}**\n")
    top = maxima(master)
    for outcome in result.outcomes:
        if outcome.exercise in master.manual:
            state = "graded by hand" if outcome.status == "manual" else "no answer given"
            lines.append(
                f"\n## {outcome.exercise}: worth {points(top[outcome.exercise])}, {state}\n"
            )
            continue
        earned = top[outcome.exercise] if outcome.status == "passed" else 0
        lines.append(
            f"\n## {outcome.exercise}: {score(earned)} of "
            f"{points(top[outcome.exercise])} ({outcome.status})\n"
        )
        if outcome.reason:
            lines.append(f"- {shown(outcome.reason)}")
        if outcome.log:
            lines += ["", "The last lines the process wrote before it ended:", ""]
            lines += block(outcome.log, "    ")
            lines.append("")
        hidden = sum(c.hidden and c.status != "passed" for c in outcome.checks)
        for check in outcome.checks:
            if check.status != "passed" and not check.hidden:
                first = check.statement.splitlines()[0]
                why = f": {shown(check.reason)}" if check.reason else ""
                lines.append(f"- {check.status}: `{first}`{why}")
        if hidden:
            lines.append(
                f"- {hidden} of the grader's additional (hidden) checks did not pass; run "
                "`check()` and think about cases the visible tests do not try"
            )
    return "\n".join(lines) + "\n"


def crashes(result: Result, where: str) -> list[str]:
    """Report lines for the exercises whose process died, with its last words."""
    found = []
    for outcome in result.outcomes:
        if outcome.log:
            found.append(f"{where}: {outcome.exercise} {outcome.status}: {shown(outcome.reason)}")
            found += block(outcome.log)
    return found


def merge_manual(new: list[dict], path: Path, tops: dict) -> tuple[list[dict], list[str]]:
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
        where = shown(f"manual.csv line {line} ({'/'.join(str(k) for k in key)})")
        if key not in current:
            problems.append(f"{where}: no such answer in this grading; the row was dropped")
            continue
        target = current[key]
        text = (row.get("points") or "").strip()
        top = tops.get((key[1], key[2]))
        if text:
            try:
                value = float(text)
            except ValueError:
                problems.append(f"{where}: points {shown(repr(text))} is not a number; not merged")
                continue
            if not 0 <= value <= top:
                problems.append(
                    f"{where}: points {shown(text)} is outside 0 to {score(top)}; not merged"
                )
                continue
        if row.get("answer") == target["answer"]:
            target["points"], target["comment"] = text, row.get("comment", "")
        elif text or row.get("comment"):
            target["comment"] = "answer changed since it was graded; grade again"
    return new, problems


def write_csv(path: Path, rows: list[dict], columns: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def commit() -> str:
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


def header(sandbox_line: str, limits: Limits, bounds_line: str) -> str:
    """The first lines of ``report.txt``: what graded, with which sandbox and limits."""
    import torch

    return (
        f"grader: commit {commit()}; Python {platform.python_version()}; torch "
        f"{torch.__version__}; 1 thread per process (OMP_NUM_THREADS=1); seed 0 before each test\n"
        f"sandbox: {sandbox_line}\n"
        f"limits: {limits.cell_seconds:g} s per cell, {limits.notebook_seconds:g} s per notebook, "
        f"{limits.memory_mb} MB per process\n"
        f"bounds per sandbox: {bounds_line}\n"
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
    lines += block(log)
    lines.append(f"  sandbox command: {shown(shlex.join(sandbox.command()), 2000)}")
    lines.append(f"  likely fix: {_fix(control)}")
    return lines


def write_grades(out: Path, results: list[Result], masters: dict, sandboxed: bool) -> list[str]:
    """``grades.csv``, ``manual.csv`` (typed points merged) and the feedback files; returns the
    problems found in ``manual.csv``."""
    (out / "feedback").mkdir(parents=True, exist_ok=True)
    tops = {(h, pid): pts for h, m in masters.items() for pid, pts in maxima(m).items()}
    manual, manual_problems = merge_manual(
        [row for r in results for row in r.manual], out / "manual.csv", tops
    )
    graded = {(m["student"], m["homework"], m["question"]): m["points"] for m in manual}
    grade_rows = [row for r in results for row in rows(r, masters[r.submission.homework], graded)]
    write_csv(out / "grades.csv", grade_rows, GRADE_COLUMNS)
    write_csv(out / "manual.csv", manual, MANUAL_COLUMNS)
    for r in results:
        if not r.blocked:
            name = f"{r.submission.student}_{r.submission.homework}.md"
            text = feedback(r, masters[r.submission.homework], sandboxed=sandboxed)
            (out / "feedback" / name).write_text(text, encoding="utf-8")
    return manual_problems


def report_lines(results: list[Result], controls: dict, submissions: Path, problems: list[str]):
    """``report.txt``'s lines after its header: controls, the count graded, every problem."""
    lines = [  # no times: grading the same folder again writes the same report
        f"control: {h}: the master's solutions {'earned full marks' if c.passed else 'FAILED'}"
        for h, c in controls.items()
    ]
    for homework in sorted(h for h, c in controls.items() if not c.passed):
        lines += _control_report(controls[homework])
    lines.append(f"{len(results) - sum(r.blocked for r in results)} submission(s) graded.")
    for r in results:
        where = str(r.submission.path.relative_to(submissions))
        if r.problem and not r.blocked:
            problems.append(f"{where}: {shown(r.problem)}")
        problems += crashes(r, where)
    return lines + [f"- {p}" for p in problems]
