import os
from contextlib import contextmanager, suppress

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from helpers import takeoff
from helpers.course import borrowed, paths
from helpers.course.homework import checks
from helpers.course.homework.checks import check, run_checks, visible_tests
from helpers.course.homework.markers import assert_messages, parse
from helpers.course.homework.release import release_text, student_path
from helpers.i18n import catalog
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
    assert "1 of 3 checks passed" in out
    assert "FAIL  assert isinstance(count_parameters(nn.Linear(3, 1)), int)" in out
    assert "return a plain Python int" in out


def wrong_device_answer(namespace):
    """day00.device answered with the wrong shape: the test's f-string message fails."""
    exec(
        "import torch\nfrom helpers.device import get_device\nfrom helpers.course import check\n"
        "def ones_on_device(rows, cols):\n    return torch.ones(cols, rows, device=get_device())\n",
        namespace,
    )


def test_a_failing_check_in_the_chinese_edition_explains_itself_in_chinese(capsys, monkeypatch):
    """The test's English, as it raised, and beside it its translation with the same values."""
    monkeypatch.setenv("COURSE_LANG", "zh")
    namespace = {}
    wrong_device_answer(namespace)
    exec("check('day00.device')", namespace)
    out = capsys.readouterr().out
    assert out.startswith("day00.device：3 项检查通过了 2 项\n")
    assert "        ones_on_device(2, 3) has shape (3, 2)\n" in out  # the English, as raised
    assert "        意思是：ones_on_device(2, 3) 的形状是 (3, 2)，应为 (2, 3)\n" in out


def test_in_english_the_report_holds_the_tests_message_only(capsys, monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "en")
    namespace = {}
    wrong_device_answer(namespace)
    exec("check('day00.device')", namespace)
    out = capsys.readouterr().out
    assert "ones_on_device(2, 3) has shape (3, 2)" in out and "That is:" not in out


def test_a_messages_values_go_into_its_translation():
    """Every kind of placeholder a test message uses: an expression, a conversion, a format."""
    cases = [
        ('assert x, f"{seconds:.3f} s for 0.1 s of work: the 0.4 s of work queued before it was '
         'counted too"', "0.501 s for 0.1 s of work: the 0.4 s of work queued before it was "
         "counted too", "0.1 s 的工作测出了 0.501 s：排在它之前的 0.4 s 工作也被算进去了"),
        ('assert x, f"got {share!r}, not 0.6: from 0.2 s to 0.4 s two kernels ran at once, and '
         'the GPU was busy once, not twice: overlapping kernels count once"', "got 0.8, not 0.6: "
         "from 0.2 s to 0.4 s two kernels ran at once, and the GPU was busy once, not twice: "
         "overlapping kernels count once", "得到的是 0.8，不是 0.6：从 0.2 s 到 0.4 s 有两个核函数"
         "同时运行，GPU 只是忙了一份时间，而不是两份：重叠的核函数只算一次"),
        ('assert x, "return a float"', "return a float", "请返回 float"),
    ]  # fmt: skip
    for statement, english, chinese in cases:
        assert checks.meaning(statement, english, "zh") == chinese
        assert checks.meaning(statement, english, "en") is None
    assert checks.meaning('assert x, "return a float"', "something else", "zh") is None


def test_every_visible_test_message_has_a_translation():
    """check() can show the Chinese of every message a learner can meet (the catalog test names
    one without a translation; this one says that each reaches the learner)."""
    for master in MASTERS:
        homework = parse(master)
        for test in homework.tests.values():
            source = homework.source(test)
            for _line, template in assert_messages(source):
                assert catalog("zh").gettext(template) != template, (master.name, template)


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


def test_a_test_cell_run_as_it_is_reads_wall_seconds_as_check_gives_it():
    """Run All on a homework runs its TEST cells too: a cell that reads wall_seconds gets the
    seconds the statement before took, as check() and the grader give it."""
    from IPython.core.interactiveshell import InteractiveShell

    from helpers.course.homework.checks import WallClock

    shell = InteractiveShell()  # not .instance(): a global shell would make say() display later
    shell.ast_transformers.append(WallClock())
    try:
        result = shell.run_cell(
            "import time\ntime.sleep(0.05)\nassert wall_seconds >= 0.04, wall_seconds\n"
            "x = 1\nassert wall_seconds < 0.04, wall_seconds"
        )
        assert result.success, result.error_in_exec
        assert shell.run_cell("y = 2").success  # a cell without the name is left as it is
        assert "_course_clock" not in shell.user_ns or shell.user_ns["y"] == 2
    finally:
        shell.ast_transformers[:] = [
            t for t in shell.ast_transformers if not isinstance(t, WallClock)
        ]
