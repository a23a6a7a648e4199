"""Self-checks: ``check("day00.device")`` in a homework notebook.

:func:`check` runs the *visible* tests of one exercise, one statement at a time, against the
learner's current answer, and prints which passed and why the others failed. Hidden tests are never
read: the tests come from the student version in ``notebooks/homework/``.

A failed assert says why in the test's own English (the master's message, which the grader
evaluates as written). In another language the report adds that message's translation beside it,
with the same values filled in (:func:`meaning`): the catalog holds a translation of every
visible assert's message, extracted from the masters (``markers.assert_messages``), so the
masters stay as they are and a new test message without a translation fails ``make test``.
"""

from __future__ import annotations

import ast
import inspect
import re
import time
from dataclasses import dataclass
from pathlib import Path

from helpers.course import paths
from helpers.course.grading.outcome import Check
from helpers.course.homework.markers import (
    ID,
    PLACEHOLDER,
    WALL_SECONDS,
    assert_messages,
    filled,
    parse,
    strip_hidden,
    values_in,
)
from helpers.i18n import N_, _, catalog, language


@dataclass
class CheckResult:
    """What :func:`run_checks` found for one exercise."""

    id: str
    outcomes: list[Check]

    @property
    def passed(self) -> bool:
        return bool(self.outcomes) and all(o.status == "passed" for o in self.outcomes)

    def report(self) -> str:
        tests = [o for o in self.outcomes if o.test]
        good = sum(o.status == "passed" for o in tests)
        head = _("{exercise}: {passed} of {total} checks passed").format(
            exercise=self.id, passed=good, total=len(tests)
        )
        head += _(" - well done!") if self.passed else ""
        marks = {
            "passed": _("PASS"),
            "failed": _("FAIL"),
            "error": _("ERROR"),
            "not answered": _("TODO"),
        }
        lines = [head]
        for o in self.outcomes:
            first = o.statement.splitlines()[0] + (" ..." if "\n" in o.statement else "")
            mark = marks.get(o.status, _("SKIP"))
            lines.append(f"  {mark:5} {first}")
            if o.reason:
                lines.append(f"        {o.reason}")
            if o.status == "failed" and (said := meaning(o.statement, o.reason)):
                lines.append("        " + _("That is: {meaning}").format(meaning=said))
        return "\n".join(lines)


def meaning(statement: str, reason: str, lang: str | None = None) -> str | None:
    """The translation of the message ``reason`` that an assert in ``statement`` raised, with the
    values it holds filled in; None in English, or for a message the catalog does not know.

    >>> meaning('assert n == 2, f"it has {n} rows"', "it has 3 rows", "zh") is None  # unknown
    True
    """
    lang = lang or language()
    if lang == "en" or not reason:
        return None
    for _line, template in assert_messages(statement):
        values = values_in(template, reason)
        translated = catalog(lang).gettext(template)
        if values is not None and translated != template:
            return filled(translated, values)
    return None


def _homework_for(exercise_id: str) -> Path:
    return paths.homework(f"{exercise_id.split('.')[0]}_homework")


def visible_tests(exercise_id: str, notebook: str | Path | None = None) -> str:
    """The visible test code of an exercise, from the student version (hidden tests never read)."""
    if not isinstance(exercise_id, str) or not re.fullmatch(ID, exercise_id):
        raise ValueError(
            _("{exercise!r} is not an exercise id; ids look like 'day00.device'.").format(
                exercise=exercise_id
            )
        )
    path = Path(notebook) if notebook is not None else _homework_for(exercise_id)
    homework = parse(path)
    if exercise_id not in homework.tests:
        known = ", ".join(homework.tests) or N_("none")
        raise ValueError(
            _(
                "No exercise {exercise!r} in {path}. Its exercises are: {known}. If "
                "you deleted its TEST cell, restore the notebook's test cells from the "
                "course repository."
            ).format(exercise=exercise_id, path=path, known=known)
        )
    return strip_hidden(homework.source(homework.tests[exercise_id]))


def _explain(err: BaseException, exercise_id: str) -> tuple[str, str]:
    if isinstance(err, NotImplementedError):
        return "not answered", _(
            "not answered yet: replace `{placeholder}` in the EXERCISE {exercise} "
            "cell, then run that cell"
        ).format(placeholder=PLACEHOLDER, exercise=exercise_id)
    if isinstance(err, NameError):
        return "error", _(
            "NameError: {error}. Did you run the EXERCISE {exercise} cell and the cells above?"
        ).format(error=err, exercise=exercise_id)
    return "error", f"{type(err).__name__}: {err}"


def run_checks(
    exercise_id: str, namespace: dict, notebook: str | Path | None = None
) -> CheckResult:
    """Run the visible tests of ``exercise_id`` against ``namespace`` (the learner's variables).

    Each top-level ``assert`` is one check; other statements are set-up and run silently unless
    they fail. The tests run on a shallow copy of ``namespace``, so they cannot change it.
    """
    source = visible_tests(exercise_id, notebook)
    return CheckResult(exercise_id, run_statements(source, dict(namespace), exercise_id))


def run_statements(
    source: str, env: dict, exercise_id: str, hidden: set[int] = frozenset()
) -> list[Check]:
    """Run a test cell's top-level statements one by one in ``env``.

    Each ``assert`` is one check; other statements are set-up and are reported only when they
    fail (then the remaining checks are marked "not run"). Statements starting on a line in
    ``hidden`` are marked hidden, so reports can leave their text out. After each statement that
    is not an ``assert``, ``env[WALL_SECONDS]`` holds the seconds it took (as the grader's
    examiner measures it from outside the sandbox).
    """
    outcomes: list[Check] = []
    tree = ast.parse(source)
    for position, node in enumerate(tree.body):
        statement = ast.get_source_segment(source, node) or ast.unparse(node)
        secret = node.lineno in hidden
        code = compile(ast.Module([node], type_ignores=[]), f"<test {exercise_id}>", "exec")
        start = time.perf_counter()
        try:
            exec(code, env)  # noqa: S102 - the course's own tests
        except AssertionError as err:
            reason = str(err) or _("the condition is False")
            outcomes.append(Check(statement, "failed", reason, hidden=secret))
            continue
        except Exception as err:  # noqa: BLE001 - any error is reported to the learner
            status, reason = _explain(err, exercise_id)
            is_check = isinstance(node, ast.Assert)
            outcomes.append(Check(statement, status, reason, is_check, hidden=secret))
            if not is_check:  # set-up failed: the rest cannot run
                rest = [n for n in tree.body[position + 1 :] if isinstance(n, ast.Assert)]
                outcomes += [
                    Check(ast.unparse(n), "not run", hidden=n.lineno in hidden) for n in rest
                ]
                break
            continue
        if isinstance(node, ast.Assert):
            outcomes.append(Check(statement, "passed", hidden=secret))
        else:
            env[WALL_SECONDS] = time.perf_counter() - start
    return outcomes


class WallClock(ast.NodeTransformer):
    """In a notebook, a test cell run as it is (Run All) reads :data:`WALL_SECONDS` as ``check()``
    and the grader give it: the seconds the statement before took. An IPython AST transformer,
    for cells that read the name only: each top-level statement but an ``assert`` is followed by
    ``wall_seconds = <its seconds>``."""

    def visit_Module(self, node: ast.Module) -> ast.Module:
        reads = any(
            isinstance(n, ast.Name) and n.id == WALL_SECONDS and isinstance(n.ctx, ast.Load)
            for n in ast.walk(node)
        )
        if not reads:
            return node
        timed = ast.parse(
            "_course_clock = __import__('time').perf_counter()\n"
            f"{WALL_SECONDS} = __import__('time').perf_counter() - _course_clock"
        ).body
        body = []
        for statement in node.body:
            if isinstance(statement, ast.Assert):
                body.append(statement)
            else:
                body += [timed[0], statement, timed[1]]
        node.body = body
        return ast.fix_missing_locations(node)


def install_wall_clock() -> None:
    """Register :class:`WallClock` with the running IPython, once (nothing outside IPython)."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - the course installs IPython
        return
    shell = get_ipython()
    if shell is not None and not any(isinstance(t, WallClock) for t in shell.ast_transformers):
        shell.ast_transformers.append(WallClock())


def check(exercise_id: str) -> None:
    """Check your answer to ``exercise_id`` and print what passed and what failed, and why.

    Runs only the tests you can see in the exercise's TEST cell; the grader runs more.
    """
    caller = inspect.currentframe().f_back  # type: ignore[union-attr]
    print(run_checks(exercise_id, caller.f_globals).report())


def borrowed(answer: object, modules: tuple[str, ...] = ("helpers",)) -> list[str]:
    """The names an answer (a function or a class) uses from ``modules``: homework tests call it
    where an exercise asks learners to write something the course or a library already has.

    It reads the names in the answer's code (nested functions and methods included) and where
    each comes from; an answer that imports a module by a string at run time is not seen.

    >>> import math
    >>> def area(r):
    ...     return math.pi * r**2
    >>> borrowed(area, ("math",)), borrowed(area)
    (['math'], [])
    """
    found = set()
    members = vars(answer).values() if isinstance(answer, type) else [answer]
    for member in members:
        member = getattr(member, "__func__", member)  # static and class methods
        codes = [member.__code__] if hasattr(member, "__code__") else []
        while codes:
            code = codes.pop()
            codes += [c for c in code.co_consts if hasattr(c, "co_names")]
            for name in code.co_names:
                value = member.__globals__.get(name)
                origin = getattr(value, "__module__", None) or getattr(value, "__name__", "")
                if isinstance(origin, str) and origin.startswith(modules):
                    found.add(name)
    return sorted(found)
