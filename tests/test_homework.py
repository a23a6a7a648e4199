import os
import re
from contextlib import contextmanager, suppress

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from helpers import homework
from helpers.cli import main
from helpers.homework import (
    PLACEHOLDER,
    HomeworkFormatError,
    all_masters,
    check,
    parse,
    run_checks,
    student_path,
    student_version,
    visible_tests,
)

MASTERS = all_masters()
IDS = [m.name for m in MASTERS]


def test_there_is_a_master_for_day_0():
    assert "day00_homework.ipynb" in IDS


def test_day00_master_has_its_parts():
    hw = parse(MASTERS[IDS.index("day00_homework.ipynb")])
    assert list(hw.exercises) == ["day00.device", "day00.count_parameters"]
    assert {k: p.points for k, p in hw.tests.items()} == {
        "day00.device": 2,
        "day00.count_parameters": 2,
    }
    assert list(hw.manual) == ["day00.why_get_device"]
    assert hw.points == 5


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

    student = student_path(master)
    untouched = run_answers(nbformat.read(student, 4), student.parent)
    result = run_checks(exercise, untouched)
    assert not result.passed
    assert all(o.status != "passed" for o in result.outcomes), result.report()


@pytest.mark.parametrize("master", MASTERS, ids=IDS)
def test_committed_student_version_is_current(master):
    assert student_path(master).read_text() == homework.release_text(master), (
        f"{student_path(master)} is not what `python -m helpers release` writes from "
        f"{master.name}; run it (if you answered in that notebook, copy your work first)"
    )


@pytest.mark.parametrize("master", MASTERS, ids=IDS)
def test_student_version_has_no_solution_and_no_hidden_test(master):
    text = student_path(master).read_text()
    student = nbformat.reads(text, 4)
    hw = parse(master)
    secret, public = [], []
    for cell in hw.notebook.cells:
        lines = cell.source.splitlines()
        inside = set()
        for begin, end in (("### BEGIN SOLUTION", "### END SOLUTION"),
                           ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")):  # fmt: skip
            for a, b in homework._regions(lines, begin, end, "cell"):
                secret += [ln.strip() for ln in lines[a + 1 : b] if len(ln.strip()) > 8]
                inside.update(range(a, b + 1))
        public += [ln.strip() for i, ln in enumerate(lines) if i not in inside]
    assert secret, "the master should have solutions"
    sources = "\n".join(c.source for c in student.cells)
    lines = {line.strip() for line in sources.splitlines()}
    # A line may also stand in the question (e.g. the buggy code to fix): only the rest is secret.
    leaked = [s for s in secret if s in lines and s not in public]
    assert leaked == []
    assert "### BEGIN" not in sources and "### END" not in sources
    code = "\n".join(c.source for c in student.cells if c.cell_type == "code")
    text = "\n".join(c.source for c in student.cells if c.cell_type == "markdown")
    assert code.count(PLACEHOLDER) == len(hw.exercises)
    assert text.count(homework.MANUAL_PLACEHOLDER) == len(hw.manual)
    assert all(not c.get("outputs") for c in student.cells)


def test_release_is_deterministic_and_leaves_the_master_alone():
    master = MASTERS[0]
    before = master.read_bytes()
    hw = parse(master)
    assert nbformat.writes(student_version(hw)) == nbformat.writes(student_version(parse(master)))
    assert master.read_bytes() == before
    assert "### BEGIN SOLUTION" in "".join(c.source for c in hw.notebook.cells)


def test_release_check_command_agrees(capsys):
    assert main(["release", "--check"]) == 0
    assert "Student versions are current." in capsys.readouterr().out


def test_visible_tests_never_contain_hidden_ones_even_from_a_master():
    for master in MASTERS:
        for exercise in parse(master).exercises:
            code = visible_tests(exercise, master)
            assert "HIDDEN" not in code
            assert code == visible_tests(exercise)  # same as the student version's


def test_check_runs_in_the_caller_s_namespace_and_leaves_it_alone(capsys):
    namespace = {}
    exec(
        "import torch\nfrom torch import nn\nfrom helpers.homework import check\n"
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


# --- Bad masters ------------------------------------------------------------------------------

EXERCISE = "# EXERCISE day09.a\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"
TEST = "# TEST day09.a (1 point)\nassert x == 1"


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([EXERCISE], r"cell 1: exercise 'day09.a' has no test; add a cell starting '# TEST day09"),
        ([EXERCISE, TEST, "# TEST day09.b (1 point)\nassert 1"],
         r"cell 3: a test for 'day09.b', which is not an exercise here \(exercises: day09.a\)"),
        (["# EXERCISE day09.a\n### BEGIN SOLUTION\nx = 1", TEST],
         r"cell 1: '### BEGIN SOLUTION' on line 2 is never closed"),
        (["# EXERCISE day09.a\nx = 1\n### END SOLUTION", TEST],
         r"cell 1: '### END SOLUTION' on line 3 without a '### BEGIN SOLUTION'"),
        ([EXERCISE, "# TEST day09.a (1 point)\n### BEGIN HIDDEN TESTS\nassert x\n"
                    "### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS"],
         r"cell 2: '### BEGIN HIDDEN TESTS' on line 4 before the '### END HIDDEN TESTS'"),
        ([EXERCISE, TEST, EXERCISE], r"cell 3: duplicate id 'day09.a' \(already used by the "
                                     r"exercise in cell 1\)"),
        ([EXERCISE, TEST, TEST], r"cell 3: duplicate id 'day09.a'"),
        ([EXERCISE, TEST, ("md", "MANUAL day09.a (1 point)\n\nWhy?")],
         r"cell 1: the id 'day09.a' is also used by the MANUAL question in cell 3"),
        ([("md", "MANUAL day09.q (1 point)"), ("md", "MANUAL day09.q (2 points)")],
         r"cell 2: duplicate id 'day09.q'"),
        (["# TEST day09.a\nassert x"], r"cell 1: '# TEST day09.a' is not a valid marker"),
        (["# EXERCISE Day 9 a\nx = 1"], r"cell 1: '# EXERCISE Day 9 a' is not a valid marker"),
        ([("md", "MANUAL why (1 point)")], r"cell 1: 'MANUAL why \(1 point\)' is not a valid"),
        (["x = 1\n# EXERCISE day09.a"], r"cell 1: the marker '# EXERCISE day09.a' is on line 2"),
        ([TEST, EXERCISE], r"cell 1: the test for 'day09.a' comes before its exercise \(cell 2\)"),
    ],
)  # fmt: skip
def test_bad_masters_get_clear_errors_with_the_cell_number(tmp_path, cells, message):
    nb = new_notebook(
        cells=[new_markdown_cell(c[1]) if isinstance(c, tuple) else new_code_cell(c) for c in cells]
    )
    with pytest.raises(HomeworkFormatError, match=message):
        parse(nb)
    path = tmp_path / "day09_homework.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(HomeworkFormatError, match=re.escape(path.name)):
        parse(path)


# --- Release never loses work -------------------------------------------------------------------


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder with one master, and release writing into it."""
    masters, student = tmp_path / "instructor", tmp_path / "student"
    masters.mkdir()
    nb = new_notebook(cells=[new_code_cell(EXERCISE), new_code_cell(TEST)])
    nbformat.write(nb, masters / "day09_homework.ipynb")
    monkeypatch.setattr(homework, "MASTERS", masters)
    monkeypatch.setattr(homework, "STUDENT", student)
    monkeypatch.setattr(homework, "ROOT", tmp_path)
    return tmp_path


def test_release_writes_then_skips_current_copies(course):
    assert homework.release() == [course / "student" / "day09_homework.ipynb"]
    assert homework.release() == []
    assert homework.out_of_date() == []


def test_release_refuses_to_overwrite_answers_and_backs_up_with_force(course):
    homework.release()
    target = course / "student" / "day09_homework.ipynb"
    answered = target.read_text().replace(PLACEHOLDER.replace('"', '\\"'), "x = 1")
    assert answered != target.read_text()
    target.write_text(answered)
    master = course / "instructor" / "day09_homework.ipynb"
    master.write_text(master.read_text().replace("assert x == 1", "assert x == 1, 'x is 1'"))

    with pytest.raises(FileExistsError, match="holds answers or outputs"):
        homework.release()
    assert target.read_text() == answered

    homework.release(force=True)
    backups = list((course / "build" / "release-backup").glob("*/day09_homework.ipynb"))
    assert [b.read_text() for b in backups] == [answered]
    assert "x is 1" in target.read_text()


def test_release_updates_an_unanswered_copy_when_the_master_changes(course):
    homework.release()
    master = course / "instructor" / "day09_homework.ipynb"
    master.write_text(master.read_text().replace("assert x == 1", "assert x == 1, 'x is 1'"))
    assert homework.out_of_date() == [course / "student" / "day09_homework.ipynb"]
    assert homework.release() == [course / "student" / "day09_homework.ipynb"]


def test_release_reports_a_bad_master(course, capsys):
    master = course / "instructor" / "day09_homework.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell(EXERCISE)]), master)
    assert main(["release"]) == 1
    assert "ERROR: day09_homework.ipynb, cell 1: exercise 'day09.a' has no test" in (
        capsys.readouterr().err
    )
