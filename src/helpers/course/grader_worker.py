"""The process that runs answer code for :mod:`helpers.course.grading`.

Two phases, each in a fresh interpreter started by the grader:

* ``answers``: run a submission's answer cells between the master's own set-up cells, each with a
  time limit, printed output capped, then save the objects each answer defines (``cloudpickle``).
* ``tests``: in another fresh interpreter, run the master's set-up cells, load one exercise's saved
  answers, and run the master's whole test cell (hidden tests included) statement by statement.

``JOB`` is a JSON file written by the grader; the result is written next to it as JSON.
"""

from __future__ import annotations

import contextlib
import json
import signal
import sys
import traceback
from pathlib import Path

import cloudpickle

OUTPUT_LIMIT = 20_000
"""Characters of printed output kept per run; the rest is counted and dropped."""


class CappedOutput:
    """A stand-in for stdout/stderr that keeps the first ``OUTPUT_LIMIT`` characters only."""

    def __init__(self) -> None:
        self.kept: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        room = OUTPUT_LIMIT - sum(len(t) for t in self.kept)
        if room > 0:
            self.kept.append(text[:room])
        self.size += len(text)
        return len(text)

    def flush(self) -> None:
        pass


class CellTimeout(BaseException):
    """Raised inside a cell that ran past its time limit (a BaseException, so that a student's
    ``except Exception`` cannot swallow it)."""


def _on_alarm(signum, frame):
    raise CellTimeout()


@contextlib.contextmanager
def time_limit(seconds: float):
    """Interrupt the block after ``seconds`` (POSIX; elsewhere only the grader's overall limit)."""
    if not hasattr(signal, "setitimer"):
        yield
        return
    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _short(err: BaseException) -> str:
    lines = traceback.format_exception_only(type(err), err)
    return "".join(lines).strip().splitlines()[-1][:500]


def run_answers(job: dict, folder: Path) -> dict:
    namespace: dict = {"__name__": "__main__"}
    output = CappedOutput()
    results: dict[str, dict] = {}
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        for cell in job["cells"]:
            exercise = cell.get("exercise")
            # Only answers are timed: the master's set-up (imports, data) may be slow on a busy
            # machine, and that is not the student's doing; the whole run has the grader's limit.
            limit = time_limit(job["cell_timeout"]) if exercise else contextlib.nullcontext()
            try:
                with limit:
                    exec(
                        compile(cell["source"], f"<cell {exercise or 'set-up'}>", "exec"), namespace
                    )
            except CellTimeout:
                if exercise:
                    results[exercise] = {
                        "status": "timeout",
                        "detail": f"ran longer than {job['cell_timeout']} s",
                    }
                continue
            except BaseException as err:  # noqa: BLE001 - the student's error, reported
                if exercise:
                    results[exercise] = {"status": "error", "detail": _short(err)}
                else:
                    results.setdefault("_setup", {"status": "error", "detail": _short(err)})
                continue
            if exercise:
                results[exercise] = {"status": "ran"}
    for exercise, names in job["names"].items():
        if results.get(exercise, {}).get("status") != "ran":
            continue
        missing = [n for n in names if n not in namespace]
        if missing:
            results[exercise] = {
                "status": "error",
                "detail": f"the answer does not define {', '.join(missing)}",
            }
            continue
        try:
            with open(folder / f"{exercise}.pkl", "wb") as file:
                cloudpickle.dump({n: namespace[n] for n in names}, file)
        except Exception as err:  # noqa: BLE001
            results[exercise] = {
                "status": "error",
                "detail": f"the answer could not be saved: {_short(err)}",
            }
    return {"exercises": results, "output_chars": output.size}


def run_tests(job: dict, folder: Path) -> dict:
    from helpers.course.checks import run_statements

    namespace: dict = {"__name__": "__main__"}
    output = CappedOutput()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        for source in job["setup"]:
            exec(compile(source, "<set-up>", "exec"), namespace)
        with open(folder / f"{job['exercise']}.pkl", "rb") as file:
            namespace.update(cloudpickle.load(file))
        try:
            with time_limit(job["timeout"]):
                outcomes = run_statements(
                    job["test"], namespace, job["exercise"], set(job["hidden"])
                )
        except CellTimeout:
            return {"status": "timeout", "outcomes": []}
    checks = [o for o in outcomes if o.test or o.status != "passed"]
    passed = bool(checks) and all(o.status == "passed" for o in checks)
    return {
        "status": "passed" if passed else "failed",
        "outcomes": [vars(o) for o in outcomes],
    }


def main() -> int:
    phase, job_path = sys.argv[1], Path(sys.argv[2])
    job = json.loads(job_path.read_text(encoding="utf-8"))
    run = {"answers": run_answers, "tests": run_tests}[phase]
    result = run(job, job_path.parent)
    (job_path.parent / f"{job_path.stem}.result.json").write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
