"""Grading submitted homework: ``python -m helpers grade SUBMISSIONS --out OUT``.

Submissions are either files named ``<student>_dayNN_homework.ipynb`` or folders
``<student>/dayNN_homework.ipynb``. Anything else in the folder is reported, not graded.

How one submission is graded:

1. Its bytes are hashed before and after: the submitted file is only ever read.
2. Its answer cells are found by their ``# EXERCISE <id>`` / ``MANUAL <id>`` markers (cell
   metadata, cell order and the kernel named in the file do not matter). Everything else comes
   from the master: set-up cells and the test cells, hidden tests included. A deleted or edited
   test cell changes nothing.
3. A fresh Python process (``helpers.grader_worker answers``) runs the master's set-up cells with
   the student's answer cells in their places, in a scratch folder, with a time limit per cell and
   for the whole run, a memory limit (POSIX), and printed output capped. It saves the objects each
   answer defines (the names the master's solution defines), with ``cloudpickle``.
4. For each exercise, another fresh process (``... tests``) runs the master's set-up cells, loads
   that exercise's saved answers and runs the master's test cell. An exercise earns its points when
   every check passes.
5. Free-text (MANUAL) answers go to ``manual.csv`` for the instructor; points typed there survive
   re-grading (as long as the answer is unchanged) and are merged into ``grades.csv``.

Threat model. This protects against: test cells edited or deleted in the submission; cell metadata
lost or forged; another kernel named in the file; answers that pass only because the student's
session was altered (monkeypatched ``torch.allclose``, ``numpy`` comparisons, ``assert`` helpers,
builtins), since the tests run in a clean interpreter that never ran the student's cells; infinite
loops and huge output in one cell (that exercise fails, the others are graded); files that are not
notebooks. It does not protect against: code in an answer that misbehaves *when the tests call it*
(a function that patches ``torch`` on its first call runs inside the test process, though only that
exercise's process); code that reads the master's hidden tests from disk (keep masters private, see
the README); malicious code in general: there is no sandbox for the file system or the network,
so grade on a machine or account that holds nothing else of value.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from tqdm.auto import tqdm

from helpers import paths
from helpers.course.markers import (
    MANUAL_PLACEHOLDER,
    Homework,
    answer_cells,
    hidden_lines,
    parse,
)

FILE_RE = re.compile(
    r"^(?P<student>[A-Za-z0-9][A-Za-z0-9_.-]*?)_(?P<homework>day\d\d_homework)\.ipynb$"
)
FOLDER_FILE_RE = re.compile(r"^(?P<homework>day\d\d_homework)\.ipynb$")
STUDENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


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
    rows: list[dict] = field(default_factory=list)  # for grades.csv
    manual: list[dict] = field(default_factory=list)  # for manual.csv
    feedback: str = ""
    problem: str | None = None  # why it could not be graded at all


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


def _defined_names(source: str) -> list[str]:
    """Top-level names an answer cell defines (assignments, functions, classes)."""
    names: list[str] = []
    for node in ast.parse(source).body:
        targets = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            targets = [node.name]
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                targets += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
        for name in targets:
            if name not in names:
                names.append(name)
    return names


def _setup_cells(master: Homework) -> list[str]:
    """The master's code cells that are neither answers, tests nor ``check(...)`` calls."""
    marked = {p.cell for p in [*master.exercises.values(), *master.tests.values()]}
    return [
        cell.source
        for index, cell in enumerate(master.notebook.cells)
        if cell.cell_type == "code" and index not in marked and not cell.source.startswith("check(")
    ]


def _worker(phase: str, job: dict, folder: Path, name: str, limits: Limits, timeout: float):
    """Run one worker process; return its result, or None if it was killed or timed out."""
    job_path = folder / f"{name}.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    env = {**os.environ, "COURSE_FAST": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}

    def limit_memory():  # in the child, before it starts Python
        import resource

        size = limits.memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    try:
        subprocess.run(
            [sys.executable, "-m", "helpers.course.grader_worker", phase, str(job_path)],
            cwd=folder,
            env=env,
            timeout=timeout,
            capture_output=True,
            preexec_fn=limit_memory if os.name == "posix" else None,
        )
    except subprocess.TimeoutExpired:
        return None
    result_path = folder / f"{name}.result.json"
    return json.loads(result_path.read_text()) if result_path.is_file() else None


def _manual_answers(notebook: nbformat.NotebookNode, cells: dict[str, int]) -> dict[str, str]:
    answers = {}
    for qid, index in cells.items():
        text = "\n".join(notebook.cells[index].source.splitlines()[1:]).strip()
        answers[qid] = "" if text in ("", MANUAL_PLACEHOLDER) else text
    return answers


def _points(value: float) -> str:
    return f"{value:g}"


def grade_submission(
    submission: Submission, limits: Limits | None = None, reference: Path | None = None
) -> Result:
    """Grade one submission against its master (see the module's docstring).

    ``reference`` grades against another notebook of the same homework instead of the master:
    ``python -m helpers submit`` uses the student version, so learners run only visible tests.
    """
    limits = limits or Limits()
    result = Result(submission)
    master = parse(reference or paths.master(submission.homework))
    raw = submission.path.read_bytes()
    before = hashlib.sha256(raw).hexdigest()

    def everything(status: str, detail: str) -> Result:
        result.problem = detail
        for eid, test in master.tests.items():
            result.rows.append(_row(submission, eid, 0, test.points, status))
        for qid, part in master.manual.items():
            result.rows.append(_row(submission, qid, 0, part.points, status))
        result.feedback = _feedback_header(submission) + f"\n**Not graded: {detail}**\n"
        return result

    if not raw.strip():
        return everything("invalid", "the file is empty")
    try:
        notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
        exercises, manual_cells = answer_cells(notebook)
    except (ValueError, UnicodeDecodeError, KeyError, AttributeError, TypeError) as err:
        return everything("invalid", f"not a readable notebook ({str(err)[:200]})")
    day = submission.homework[:5]
    other_days = {eid.split(".")[0] for eid in [*exercises, *manual_cells]} - {day}
    if other_days:
        return everything(
            "wrong homework",
            f"the file is named {submission.homework} but holds answers for "
            f"{', '.join(sorted(other_days))}",
        )

    cells, names = [], {}
    for index, cell in enumerate(master.notebook.cells):
        if index in {p.cell for p in master.tests.values()} or cell.cell_type != "code":
            continue
        if cell.source.startswith("check("):
            continue
        exercise = next((e for e, p in master.exercises.items() if p.cell == index), None)
        if exercise is None:
            cells.append({"source": cell.source})
            continue
        names[exercise] = _defined_names(cell.source)
        if exercise in exercises:
            answer = notebook.cells[exercises[exercise]].source
            cells.append({"source": answer, "exercise": exercise})

    statuses: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="grading-") as scratch:
        folder = Path(scratch)
        job = {"cells": cells, "names": names, "cell_timeout": limits.cell_seconds}
        answers = _worker("answers", job, folder, "answers", limits, limits.notebook_seconds)
        ran = (answers or {}).get("exercises", {})
        setup = _setup_cells(master)
        for eid, test in master.tests.items():
            if eid not in exercises:
                statuses[eid] = {"status": "missing", "detail": "no `# EXERCISE` cell for it"}
            elif answers is None:
                statuses[eid] = {
                    "status": "timeout",
                    "detail": f"the notebook ran past {limits.notebook_seconds:g} s",
                }
            elif "_setup" in ran:  # the master's own set-up failed: not the student's doing
                detail = f"the course's set-up cells failed: {ran['_setup']['detail']}"
                statuses[eid] = {"status": "error", "detail": detail}
            elif ran.get(eid, {}).get("status") != "ran":
                statuses[eid] = ran.get(eid, {"status": "error", "detail": "the cell did not run"})
            else:
                source = master.source(test)
                job = {
                    "setup": setup,
                    "exercise": eid,
                    "test": source,
                    "hidden": sorted(hidden_lines(source)),
                    "timeout": limits.cell_seconds,
                }
                tested = _worker(
                    "tests", job, folder, f"tests-{eid}", limits, limits.cell_seconds + 120
                )
                statuses[eid] = tested or {
                    "status": "timeout",
                    "detail": f"the tests ran past {limits.cell_seconds:g} s",
                }

    for eid, test in master.tests.items():
        status = statuses[eid]["status"]
        earned = test.points if status == "passed" else 0
        result.rows.append(_row(submission, eid, earned, test.points, status))
    manual = _manual_answers(notebook, manual_cells)
    for qid, part in master.manual.items():
        answer = manual.get(qid, "")
        result.rows.append(
            _row(submission, qid, "", part.points, "manual" if answer else "missing")
        )
        result.manual.append(
            {
                "student": submission.student,
                "homework": submission.homework,
                "question": qid,
                "max_points": _points(part.points),
                "answer": answer,
                "points": "",
                "comment": "",
            }
        )
    result.feedback = _feedback(submission, master, statuses, manual)
    if hashlib.sha256(submission.path.read_bytes()).hexdigest() != before:
        raise RuntimeError(f"{submission.path} changed while it was graded")
    return result


def _row(submission: Submission, part: str, points, max_points: float, status: str) -> dict:
    return {
        "student": submission.student,
        "homework": submission.homework,
        "exercise": part,
        "points": points if points == "" else _points(points),
        "max_points": _points(max_points),
        "status": status,
    }


def _feedback_header(submission: Submission) -> str:
    return f"# {submission.homework}: feedback for {submission.student}\n"


def _feedback(submission, master: Homework, statuses: dict, manual: dict) -> str:
    lines = [_feedback_header(submission)]
    for eid, test in master.tests.items():
        status = statuses[eid]
        earned = test.points if status["status"] == "passed" else 0
        lines.append(
            f"\n## {eid}: {_points(earned)} of {_points(test.points)} points ({status['status']})\n"
        )
        if status.get("detail"):
            lines.append(f"- {status['detail']}")
        hidden_failed = 0
        for outcome in status.get("outcomes", []):
            if outcome["status"] == "passed":
                continue
            if outcome["hidden"]:
                hidden_failed += 1
                continue
            first = outcome["statement"].splitlines()[0]
            lines.append(
                f"- {outcome['status']}: `{first}`"
                + (f": {outcome['reason']}" if outcome["reason"] else "")
            )
        if hidden_failed:
            lines.append(
                f"- {hidden_failed} of the grader's additional (hidden) checks did not "
                "pass; run `check()` and think about cases the visible tests do not try"
            )
    for qid, part in master.manual.items():
        state = "graded by hand" if manual.get(qid) else "no answer given"
        lines.append(f"\n## {qid}: {_points(part.points)} points, {state}\n")
    return "\n".join(lines) + "\n"


MANUAL_COLUMNS = ["student", "homework", "question", "max_points", "answer", "points", "comment"]
GRADE_COLUMNS = ["student", "homework", "exercise", "points", "max_points", "status"]


def _merge_manual(new: list[dict], path: Path) -> list[dict]:
    """Keep points and comments already typed into ``manual.csv`` for unchanged answers."""
    old = {}
    if path.is_file():
        with path.open(newline="", encoding="utf-8") as file:
            for row in csv.DictReader(file):
                old[(row["student"], row["homework"], row["question"])] = row
    for row in new:
        previous = old.get((row["student"], row["homework"], row["question"]))
        if previous and previous["answer"] == row["answer"]:
            row["points"], row["comment"] = previous.get("points", ""), previous.get("comment", "")
        elif previous and (previous.get("points") or previous.get("comment")):
            row["comment"] = "answer changed since it was graded; grade again"
    return new


def _write_csv(path: Path, rows: list[dict], columns: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def grade(
    submissions: Path,
    out: Path,
    *,
    jobs: int = 1,
    limits: Limits | None = None,
    progress: bool = True,
) -> list[Result]:
    """Grade every submission in ``submissions`` into ``out`` (see the module's docstring).

    Writes ``grades.csv``, ``manual.csv``, ``feedback/<student>_<homework>.md`` and
    ``report.txt`` (what was found besides submissions, and what could not be graded).
    """
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    found, other = find_submissions(submissions)
    masters = {p.stem for p in paths.MASTERS.glob("day*_homework.ipynb")}
    unknown = [s for s in found if s.homework not in masters]
    other += [f"{s.path.relative_to(submissions)}: no master for {s.homework}" for s in unknown]
    found = [s for s in found if s.homework in masters]
    out.mkdir(parents=True, exist_ok=True)
    (out / "feedback").mkdir(exist_ok=True)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(grade_submission, s, limits) for s in found]
        bar = tqdm(total=len(futures), desc="grading", unit="submission", disable=not progress)
        results = []
        for future in futures:
            results.append(future.result())
            bar.update()
        bar.close()

    results.sort(key=lambda r: (r.submission.student, r.submission.homework))
    rows = [row for r in results for row in r.rows]
    manual = _merge_manual([row for r in results for row in r.manual], out / "manual.csv")
    graded = {(m["student"], m["homework"], m["question"]): m["points"] for m in manual}
    for row in rows:
        key = (row["student"], row["homework"], row["exercise"])
        if row["status"] == "manual" and graded.get(key, "") != "":
            row["points"] = graded[key]
    _write_csv(out / "grades.csv", rows, GRADE_COLUMNS)
    _write_csv(out / "manual.csv", manual, MANUAL_COLUMNS)
    for r in results:
        name = f"{r.submission.student}_{r.submission.homework}.md"
        (out / "feedback" / name).write_text(r.feedback, encoding="utf-8")
    problems = other + [
        f"{r.submission.path.relative_to(submissions)}: {r.problem}" for r in results if r.problem
    ]
    (out / "report.txt").write_text(
        f"{len(results)} submission(s) graded.\n" + "".join(f"- {p}\n" for p in problems),
        encoding="utf-8",
    )
    return results
