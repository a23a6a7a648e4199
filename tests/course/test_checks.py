import os
from contextlib import contextmanager, suppress

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from helpers import takeoff
from helpers.course import borrowed, paths
from helpers.course.homework.checks import check, run_checks, visible_tests
from helpers.course.homework.markers import parse
from helpers.course.homework.release import release_text, student_path
from helpers.takeoff import flops_per_step

MASTERS = paths.masters()


@contextmanager
def chdir(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def run_answers(nb, folder):
    """Run a notebook's code cells in-process as a learner would, except TEST and check cells."""
    namespace = {"__name__": "__main__"}
    with chdir(folder):
        for cell in nb.cells:
            if cell.cell_type != "code" or cell.source.startswith(("# TEST", "check(")):
                continue
            with suppress(NotImplementedError):  # an unanswered exercise in a student version
                exec(cell.source, namespace)
    return namespace


EXERCISES = [(m, e) for m in MASTERS for e in parse(m).exercises]


@pytest.mark.parametrize(("master", "exercise"), EXERCISES, ids=[e for _, e in EXERCISES])
def test_check_passes_on_the_master_and_fails_on_the_student_version(master, exercise):
    solved = run_answers(nbformat.read(master, 4), master.parent)
    assert run_checks(exercise, solved).passed, run_checks(exercise, solved).report()

    student = student_path(master)  # as released: the working copy may hold a learner's answers
    untouched = run_answers(nbformat.reads(release_text(master), 4), student.parent)
    result = run_checks(exercise, untouched)
    assert not result.passed
    assert all(o.status != "passed" for o in result.outcomes), result.report()


def test_visible_tests_never_contain_hidden_ones_even_from_a_master():
    for master in MASTERS:
        for exercise in parse(master).exercises:
            code = visible_tests(exercise, master)
            assert "HIDDEN" not in code
            assert code == visible_tests(exercise)  # same as the student version's


def test_check_runs_in_the_caller_s_namespace_and_leaves_it_alone(capsys):
    namespace = {}
    exec(
        "import torch\nfrom torch import nn\nfrom helpers.course import check\n"
        "def count_parameters(model):\n    return 6.0\n",
        namespace,
    )
    before = dict(namespace)
    exec("check('day00.count_parameters')", namespace)
    assert namespace == before
    out = capsys.readouterr().out
    assert "1 of 2 checks passed" in out
    assert "FAIL  assert isinstance(count_parameters(nn.Linear(3, 1)), int)" in out
    assert "return a plain Python int" in out


def test_a_failing_set_up_statement_stops_the_checks(tmp_path):
    nb = new_notebook(
        cells=[
            new_code_cell("# EXERCISE day09.thing\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"),
            new_code_cell("# TEST day09.thing (1 point)\ny = 1 / x\nassert y == 1\nassert x"),
        ]
    )
    path = tmp_path / "day09_homework.ipynb"
    nbformat.write(nb, path)
    result = run_checks("day09.thing", {"x": 0}, notebook=path)
    assert [o.status for o in result.outcomes] == ["error", "not run", "not run"]
    assert "ZeroDivisionError" in result.outcomes[0].reason
    assert "0 of 2 checks passed" in result.report()


@pytest.mark.parametrize(
    ("exercise_id", "message"),
    [
        ("day00.nothing", r"No exercise 'day00.nothing' in .*day00_homework.ipynb\. Its exercises"),
        ("device", r"'device' is not an exercise id; ids look like 'day00.device'"),
    ],
)
def test_check_with_an_unknown_id(exercise_id, message):
    with pytest.raises(ValueError, match=message):
        check(exercise_id)


# Answers as a notebook holds them: module-level functions and a class, reaching the course's code
# by an imported name, through its module, from a nested function, or not at all.
def _direct(widths, rows):
    return flops_per_step(widths, rows)


def _through_the_module(widths, rows):
    return takeoff.flops_per_step(widths, rows)


def _nested(widths, rows):
    return (lambda: flops_per_step(widths, rows))()


def _own(widths, rows):
    return rows * sum(a * b for a, b in zip(widths[:-1], widths[1:], strict=True))


class _Methods:
    def __call__(self, widths, rows):
        return flops_per_step(widths, rows)

    @staticmethod
    def helper():
        return takeoff.MODELS


def test_borrowed_finds_course_and_library_names_however_they_are_reached():
    assert borrowed(_direct) == borrowed(_nested) == ["flops_per_step"]
    assert "takeoff" in borrowed(_through_the_module)
    assert borrowed(_own) == []
    assert borrowed(_Methods) == ["flops_per_step", "takeoff"]
    assert borrowed(_direct, ("sklearn",)) == []
