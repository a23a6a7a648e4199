"""The grader's examiner: decides one submission's outcomes without ever running its code.

The grader starts :func:`run_job` in a fresh process once per submission (``python -m
helpers.course.grading.examiner FOLDER`` does the same by hand). It walks the master notebook cell
by cell:

* set-up cells run here *and* in the runner (:mod:`.runner`);
* answer cells (the submission's) run only in the runner, each with the per-cell time limit;
* test cells are split by :mod:`.probes`: statements that involve answers run in the
  runner, the rest here, and in the runner too when a later statement there needs what they bind
  (with this process's random-number state, so both draw the same numbers); every ``assert`` is
  decided here on plain data sent back, and its message is evaluated here. ``wall_seconds``
  (:data:`~helpers.course.homework.markers.WALL_SECONDS`) is the time the last statement took by
  this process's clock: a test that must know an answer waited reads it, not a record the answer
  could write.

This process never imports, unpickles or calls anything the submission defined: what crosses from
the runner is decoded by :mod:`.plain`. Limits are enforced from here: a command that
does not reply in time gets its runner killed (with every process it started) and a fresh runner
replays what came before, so that one exercise's timeout or crash stays in its own row.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import sys
import time
from pathlib import Path

import torch

from helpers.course.grading import bounds
from helpers.course.grading.outcome import Check, Outcome
from helpers.course.grading.runner import Runner, SandboxDied, rng_state, seed_everything
from helpers.course.homework.markers import WALL_SECONDS, hidden_lines

SEED = 0
MAX_RESTARTS = 4


def explain(error: dict, exercise: str) -> tuple[str, str]:
    """A check's status and reason from an error the runner reported."""
    kind, message = error.get("type", "Error"), error.get("message", "")
    if kind == "NotImplementedError":
        return "not answered", (
            f"not answered yet: replace the placeholder in the EXERCISE {exercise} cell"
        )
    if kind == "NameError":
        return "error", f"NameError: {message}. Does your EXERCISE {exercise} cell define it?"
    if kind == "NotData":
        return "error", (
            f"the answer's value is {message}, not plain data (numbers, strings, lists, dicts, "
            "arrays, tensors, DataFrames) the grader can check"
        )
    return "error", f"{kind}: {message}"


def _compiled(expression: ast.expr):
    return compile(ast.fix_missing_locations(ast.Expression(expression)), "<assert>", "eval")


class CourseError(Exception):
    """The course's own set-up or test code failed: not the submission's doing."""


def start_runner(job: dict) -> Runner:
    """A fresh runner for ``job``, in its own bounds (see :mod:`helpers.course.grading.bounds`)."""
    memory_mb = job["limits"]["memory_mb"]
    bound = bounds.make(memory_mb) if job["sandbox"] else None
    interpreter = job.get("python")  # the grader's choice (see sandbox.python)
    return Runner(
        sandboxed=job["sandbox"], memory_mb=memory_mb, bound=bound, interpreter=interpreter
    )


def died(exercise: str, error: SandboxDied, checks=(), reason: str = "") -> Outcome:
    """The outcome of an exercise whose runner died, with the runner's last words."""
    return Outcome(exercise, error.status, reason or error.reason, list(checks), error.log)


class Examiner:
    def __init__(self, job: dict, runner: Runner | None = None) -> None:
        self.job = job
        self.cells: list[dict] = job["cells"]
        self.tests = [c["id"] for c in self.cells if c["kind"] == "test"]
        self.answers: dict[str, str] = job["answers"]
        self.cell_seconds = job["limits"]["cell_seconds"]
        self.deadline = time.monotonic() + job["limits"]["notebook_seconds"]
        self.namespace: dict = {"__name__": "__main__"}
        self.runner: Runner | None = runner
        self.log: list[tuple[dict, float]] = []  # commands that completed, to replay
        self.restarts = 0
        self.outcomes: dict[str, Outcome] = {}
        self.answer_errors: dict[str, Outcome] = {}
        self.pending: list[dict] = []  # statements run here, not yet in the runner

    # --- the runner --------------------------------------------------------------------------

    def _start(self) -> None:
        if self.restarts > MAX_RESTARTS:
            raise SandboxDied("crashed", "the sandbox died too often; the rest was not run")
        self.runner = start_runner(self.job)
        try:
            for command, seconds in self.log:  # bring a fresh runner to where the last one was
                self.runner.ask(command, seconds + self._left())
        except SandboxDied:
            self._lost()
            raise

    def _left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def _lost(self) -> None:
        if self.runner is not None:
            self.runner.kill()
        self.runner = None
        self.restarts += 1

    def send(self, command: dict) -> None:
        """Send a command to the runner (started, or restarted and replayed, when needed)."""
        if self.runner is None:
            self._start()
        self.runner.send(command)

    def wait(self, command: dict, seconds: float) -> dict:
        """The reply to ``command``; on a timeout or a crash the runner is gone and this raises."""
        if self._left() <= 0:
            self._lost()
            limit = self.job["limits"]["notebook_seconds"]
            raise SandboxDied("timeout", f"the notebook ran past its {limit:g} s limit")
        capped = seconds >= self._left()  # the notebook's limit comes first
        seconds = min(seconds, self._left())
        try:
            reply = self.runner.wait(seconds)
        except SandboxDied as died:
            self._lost()
            if died.status == "timeout" and capped:  # the same words, whatever time was left
                limit = self.job["limits"]["notebook_seconds"]
                raise SandboxDied(
                    "timeout", f"the notebook ran past its {limit:g} s limit"
                ) from None
            raise
        self.log.append((command, seconds))
        return reply

    def ask(self, command: dict, seconds: float) -> dict:
        self.send(command)
        return self.wait(command, seconds)

    # --- cells -------------------------------------------------------------------------------

    def run(self) -> list[Outcome]:
        try:
            if self.runner is None:
                self._start()  # Python and PyTorch start there while the set-up runs here
            for cell in self.cells:
                if cell["kind"] == "exercise":
                    self._answer(cell["id"])
                elif cell["kind"] == "test":
                    self._test(cell["id"], cell["source"])
                else:
                    self._setup(cell["source"])
        except CourseError as err:
            for exercise in self.tests:
                self.outcomes.setdefault(
                    exercise,
                    Outcome(exercise, "not graded", f"the course's own code failed: {err}"),
                )
        finally:
            if self.runner is not None:
                self.runner.kill()
        return [self.outcomes[e].steadied() for e in self.tests]

    def _setup(self, source: str) -> None:
        command = {"op": "cell", "source": source, "name": "<set-up>"}
        self._quietly(self.send, command)
        try:
            exec(compile(source, "<set-up>", "exec"), self.namespace)  # noqa: S102 - the master's
        except Exception as err:  # noqa: BLE001
            raise CourseError(f"{type(err).__name__}: {err}") from None
        self._quietly(self.wait, command, self._left())

    def _quietly(self, method, *args) -> dict | None:
        """A command whose failure belongs to no exercise (set-up in the runner)."""
        try:
            return method(*args)
        except SandboxDied as died:
            if self.restarts > MAX_RESTARTS or self._left() <= 0:
                raise CourseError(f"the sandbox kept dying ({died.reason})") from None
            return None

    def _answer(self, exercise: str) -> None:
        if exercise not in self.answers:
            self.outcomes[exercise] = Outcome(exercise, "missing", "no `# EXERCISE` cell for it")
            return
        command = {
            "op": "cell",
            "source": self.answers[exercise],
            "isolate": True,
            "name": f"<answer {exercise}>",
        }
        try:
            reply = self.ask(command, self.cell_seconds)
        except SandboxDied as error:
            reason = error.reason
            if error.status == "timeout" and "notebook" not in reason:
                reason = f"the answer cell ran past its {self.cell_seconds:g} s limit"
            self.outcomes[exercise] = died(exercise, error, reason=reason)
            return
        if not reply.get("ok"):
            error = reply.get("error", {})
            _, reason = explain(error, exercise)
            status = "memory" if error.get("type") == "MemoryError" else "error"
            self.answer_errors[exercise] = Outcome(exercise, status, f"the answer cell: {reason}")

    def _test(self, exercise: str, source: str) -> None:
        if exercise in self.outcomes:  # missing, or its cell timed out or crashed
            return
        if exercise in self.answer_errors:
            self.outcomes[exercise] = self.answer_errors[exercise]
            return
        seed_everything(SEED)
        self._quietly(self.ask, {"op": "seed", "seed": SEED}, 30)
        from helpers.course.grading.probes import Planner, split_statements

        hidden = hidden_lines(source)
        planner = Planner(self.answer_names())
        stop = time.monotonic() + self.cell_seconds
        checks: list[Check] = []
        statements = split_statements(source)
        texts = {id(n): ast.get_source_segment(source, n) for n in statements}
        try:
            for position, node in enumerate(statements):
                step = planner.step(node, self.namespace)
                step.text = texts.get(id(node)) or step.source
                secret = step.line in hidden
                check = self._statement(step, exercise, stop, secret)
                if check is None:
                    continue
                checks.append(check)
                if check.status not in ("passed", "failed") and not check.test:
                    rest = [n for n in statements[position + 1 :] if isinstance(n, ast.Assert)]
                    for later in rest:
                        text = texts.get(id(later)) or ast.unparse(later)
                        checks.append(Check(text, "not run", hidden=later.lineno in hidden))
                    break
        except SandboxDied as error:
            reason = error.reason
            if error.status == "timeout" and "notebook" not in reason:
                reason = f"the tests ran past their {self.cell_seconds:g} s limit"
            self.outcomes[exercise] = died(exercise, error, checks, reason)
            return
        self.outcomes[exercise] = Outcome.from_checks(exercise, checks)

    def answer_names(self) -> set[str]:
        from helpers.course.grading.probes import bound_names

        names: set[str] = set()
        sources = [cell["source"] for cell in self.cells if cell["kind"] == "exercise"]
        if self.job.get("answers_define_names"):
            sources += list(self.job["answers"].values())
        for source in sources:
            with contextlib.suppress(SyntaxError):  # a broken answer fails when it runs
                names |= bound_names(ast.parse(source))
        return names

    def _statement(self, step, exercise: str, stop: float, secret: bool) -> Check | None:
        from helpers.course.grading.probes import effects, names

        left = max(stop - time.monotonic(), 0.01)
        node = ast.parse(step.source).body[0]
        if step.where == "both":
            state = rng_state()
            start = time.perf_counter()
            try:
                exec(compile(step.source, "<test>", "exec"), self.namespace)  # noqa: S102
            except Exception as err:  # noqa: BLE001 - the course's test code failed
                raise CourseError(
                    f"in the test of {exercise}: {type(err).__name__}: {err}"
                ) from None
            self.namespace[WALL_SECONDS] = time.perf_counter() - start
            command = {"op": "exec", "source": step.source, "rng": state}
            changes = effects(node, self.namespace)
            self.pending.append({"command": command, "effects": changes, "loads": names(node)})
            return None
        needs = names(node) if step.where == "sandbox" else set()
        for capture in step.captures:
            needs |= names(ast.parse(capture, mode="eval"))
        failed = self._flush(needs, names(node) if step.where == "sandbox" else set(), left)
        if failed is not None:
            status, reason = explain(failed, exercise)
            return Check(step.text, status, reason, test=False, hidden=secret)
        if step.where == "sandbox":
            command = {"op": "exec", "source": step.source, "isolate": True}
            self.send(command)  # a runner that has to be started again is started before the clock
            start = time.perf_counter()
            reply = self.wait(command, left)
            # this process's clock, which no answer reaches: how long the statement really took
            self.namespace[WALL_SECONDS] = time.perf_counter() - start
            if reply.get("ok"):
                return None
            error = reply["error"]
            if error["type"] == "AssertionError":
                return Check(step.text, "failed", "the condition is False", hidden=secret)
            status, reason = explain(error, exercise)
            return Check(step.text, status, reason, test=False, hidden=secret)
        return self._assert(step, exercise, left, secret)

    def _flush(self, needs: set[str], changes: set[str], seconds: float) -> dict | None:
        """Send the runner the pending statements that bind or change what ``needs`` names
        (and what those read, and so on back), in their order; forget those that read what the
        next statement may change (``changes``): their values here no longer match the runner's.
        Returns the runner's error when one of them failed there."""
        chosen = set()
        for index in reversed(range(len(self.pending))):
            statement = self.pending[index]
            if statement["effects"] & needs:
                chosen.add(index)
                needs = needs | statement["loads"]
        sent, self.pending = self.pending, []
        failed = None
        for index, statement in enumerate(sent):
            if index in chosen:
                reply = self.ask(statement["command"], seconds)
                if not reply["ok"] and failed is None:
                    failed = reply["error"]
            elif not statement["loads"] & changes:
                self.pending.append(statement)
        return failed

    def _assert(self, step, exercise: str, left: float, secret: bool) -> Check:
        from helpers.course.grading.plain import decode
        from helpers.course.grading.probes import CAPTURE

        values: dict = {}
        if step.captures:
            reply = self.ask({"op": "capture", "expressions": step.captures}, left)
            if not reply["ok"]:
                status, reason = explain(reply["error"], exercise)
                return Check(step.text, status, reason, hidden=secret)
            try:
                if len(reply["values"]) != len(step.captures):
                    raise ValueError("not one value per expression")
                values = {CAPTURE.format(i): decode(v) for i, v in enumerate(reply["values"])}
            except Exception as err:  # noqa: BLE001 - whatever a forged reply makes decode raise
                why = f"unreadable data from the sandbox ({type(err).__name__})"
                return Check(step.text, "error", why, hidden=secret)
        scope = {**self.namespace, **values}
        try:
            held = eval(_compiled(step.test), scope)  # noqa: S307
            if held:
                return Check(step.text, "passed", hidden=secret)
            reason = "the condition is False"
            if step.message is not None:
                reason = str(eval(_compiled(step.message), dict(self.namespace)))  # noqa: S307
        except Exception as err:  # noqa: BLE001 - comparing the answer's data failed
            why = f"{type(err).__name__}: {str(err)[:200]}"
            return Check(step.text, "error", why, hidden=secret)
        return Check(step.text, "failed", reason[:500], hidden=secret)


EXAMINER_ENV = {"COURSE_FAST": "1", "OMP_NUM_THREADS": "1", "MPLBACKEND": "Agg"}


def run_job(folder: str) -> None:
    """Examine ``folder/job.json`` into ``folder/result.json`` (or the reason into ``error.txt``).

    The grader runs it in a fresh process forked from a server that has already imported PyTorch,
    so each submission's examiner starts at once and shares nothing with the others (spawned
    where there is no such server: :func:`.submission._examiners`).
    """
    os.chdir(folder)
    os.environ.update(EXAMINER_ENV)
    torch.set_num_threads(1)
    try:
        job = json.loads(Path("job.json").read_text(encoding="utf-8"))
        runner = start_runner(job)  # Python starts there while the examiner reads the master
        outcomes = Examiner(job, runner).run()
        Path("result.json").write_text(json.dumps([o.to_dict() for o in outcomes]), "utf-8")
    except Exception as err:  # noqa: BLE001 - reported to the grader, which reports it
        Path("error.txt").write_text(f"{type(err).__name__}: {err}"[:500], encoding="utf-8")
        raise SystemExit(1) from None


def main() -> int:
    run_job(sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
