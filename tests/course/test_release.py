import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from helpers.course import paths
from helpers.course.cli import main
from helpers.course.homework import release
from helpers.course.homework.markers import (
    MANUAL_PLACEHOLDER,
    MANUAL_PLACEHOLDERS,
    PLACEHOLDER,
    parse,
    regions,
)
from helpers.course.homework.release import student_version
from helpers.course.setup import git

MASTERS = paths.masters()
IDS = [m.name for m in MASTERS]
EXERCISE = "# EXERCISE day09.a\n### BEGIN SOLUTION\nx = 1\n### END SOLUTION"
TEST = "# TEST day09.a (1 point)\nassert x == 1"


@pytest.mark.parametrize("master", MASTERS, ids=IDS)
def test_student_version_is_current_or_answered(master):
    """A learner's answered copy is fine (its questions and tests are the current ones); git's
    copy must then be current: it is what others get."""
    found = release.status(master)
    assert found.ok, f"{found.path}: {found.state}: {found.advice}"
    if found.state == "answered" and (held := git.committed(found.path)) is not None:
        assert held == release.release_text(master), f"git holds an old {found.path.name}"


@pytest.mark.parametrize("master", MASTERS, ids=IDS)
def test_student_version_has_no_solution_and_no_hidden_test(master):
    text = release.release_text(master)  # the working copy may hold a learner's answers
    student = nbformat.reads(text, 4)
    hw = parse(master)
    secret, public = [], []
    for cell in hw.notebook.cells:
        lines = cell.source.splitlines()
        inside = set()
        for begin, end in (("### BEGIN SOLUTION", "### END SOLUTION"),
                           ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")):  # fmt: skip
            for a, b in regions(lines, begin, end, "cell"):
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
    assert text.count(MANUAL_PLACEHOLDER) == len(hw.manual)
    assert all(not c.get("outputs") for c in student.cells)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_untouched_free_text_answer_counts_as_none_in_either_edition(lang):
    """The Chinese edition's placeholder (可用中文作答) is no answer to the grader either."""
    from helpers.course.grading.submission import _manual_answers
    from helpers.course.notebooks import edition

    released = nbformat.reads(release.release_text(paths.master("day00_homework")), 4)
    cells = parse(released).manual
    for part in cells.values():
        released.cells[part.cell].source = edition.manual_cell(
            released.cells[part.cell].source, lang
        )
    assert MANUAL_PLACEHOLDERS[lang] in released.cells[next(iter(cells.values())).cell].source
    found = _manual_answers(released, {qid: part.cell for qid, part in cells.items()})
    assert found and set(found.values()) == {""}


def test_release_is_deterministic_and_leaves_the_master_alone():
    master = MASTERS[0]
    before = master.read_bytes()
    hw = parse(master)
    assert nbformat.writes(student_version(hw)) == nbformat.writes(student_version(parse(master)))
    assert master.read_bytes() == before
    assert "### BEGIN SOLUTION" in "".join(c.source for c in hw.notebook.cells)


def test_release_check_command_agrees(capsys):
    assert main(["release", "--check"]) == 0
    assert "Student versions are current" in capsys.readouterr().out


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder with one master, and release writing into it."""
    masters, student = tmp_path / "instructor", tmp_path / "student"
    masters.mkdir()
    nb = new_notebook(cells=[new_code_cell(EXERCISE), new_code_cell(TEST)])
    nbformat.write(nb, masters / "day09_homework.ipynb")
    monkeypatch.setattr(paths, "MASTERS", masters)
    monkeypatch.setattr(paths, "HOMEWORK", student)
    monkeypatch.setattr(paths, "RELEASE_BACKUPS", tmp_path / "build" / "release-backup")
    return tmp_path


def test_release_writes_then_skips_current_copies(course):
    assert release.release() == [course / "student" / "day09_homework.ipynb"]
    assert release.release() == []
    assert release.out_of_date() == []


def test_release_refuses_to_overwrite_answers_and_backs_up_with_force(course):
    release.release()
    target = course / "student" / "day09_homework.ipynb"
    answered = target.read_text(encoding="utf-8").replace(PLACEHOLDER.replace('"', '\\"'), "x = 1")
    assert answered != target.read_text(encoding="utf-8")
    target.write_text(answered, encoding="utf-8")
    master = course / "instructor" / "day09_homework.ipynb"
    master.write_text(
        master.read_text(encoding="utf-8").replace("assert x == 1", "assert x == 1, 'x is 1'"),
        encoding="utf-8",
    )

    with pytest.raises(FileExistsError, match="holds answers or outputs"):
        release.release()  # the test cell changed under the answers
    assert target.read_text(encoding="utf-8") == answered

    release.release(force=True)
    backups = list((course / "build" / "release-backup").glob("*/day09_homework.ipynb"))
    assert [b.read_text(encoding="utf-8") for b in backups] == [answered]
    assert "x is 1" in target.read_text(encoding="utf-8")


def test_release_updates_an_unanswered_copy_when_the_master_changes(course):
    release.release()
    master = course / "instructor" / "day09_homework.ipynb"
    master.write_text(
        master.read_text(encoding="utf-8").replace("assert x == 1", "assert x == 1, 'x is 1'"),
        encoding="utf-8",
    )
    assert release.out_of_date() == [course / "student" / "day09_homework.ipynb"]
    assert release.release() == [course / "student" / "day09_homework.ipynb"]


def test_release_reports_a_bad_master(course, capsys):
    master = course / "instructor" / "day09_homework.ipynb"
    nbformat.write(new_notebook(cells=[new_code_cell(EXERCISE)]), master)
    assert main(["release"]) == 1
    assert "ERROR: day09_homework.ipynb, cell 1: exercise 'day09.a' has no test" in (
        capsys.readouterr().err
    )


def answer(target):
    """Type an answer into the student version at ``target``, as a learner would."""
    answered = target.read_text(encoding="utf-8").replace(PLACEHOLDER.replace('"', '\\"'), "x = 1")
    assert answered != target.read_text(encoding="utf-8")
    target.write_text(answered, encoding="utf-8")


def change_master(course):
    master = course / "instructor" / "day09_homework.ipynb"
    master.write_text(
        master.read_text(encoding="utf-8").replace("assert x == 1", "assert x == 1, 'x is 1'"),
        encoding="utf-8",
    )


def test_check_tells_an_answered_copy_from_an_out_of_date_one(course, capsys):
    release.release()
    target = course / "student" / "day09_homework.ipynb"
    answer(target)
    assert [s.state for s in release.statuses()] == ["answered"]
    assert main(["release", "--check"]) == 0
    out = capsys.readouterr().out
    assert "holds your work on the current homework: nothing to do" in out
    assert "make student" not in out

    change_master(course)  # the homework changed after the learner started
    (found,) = release.statuses()
    assert found.state == "answered, out of date"
    assert main(["release", "--check"]) == 1
    out = capsys.readouterr().out
    assert "its cell 2 is not the current homework's" in out
    assert "python -m helpers release --force" in out and "build/release-backup/" in out


def test_check_says_make_student_only_for_an_unanswered_copy(course, capsys):
    release.release()
    change_master(course)
    assert main(["release", "--check"]) == 1
    out = capsys.readouterr().out
    assert "out of date:" in out and "run `make student` (it holds no answers to lose)" in out
    (course / "student" / "day09_homework.ipynb").unlink()
    assert [s.state for s in release.statuses()] == ["missing"]


def test_an_answered_copy_may_have_extra_cells_and_outputs(course):
    import nbformat as nbf

    release.release()
    target = course / "student" / "day09_homework.ipynb"
    answer(target)
    nb = nbf.read(target, 4)
    nb.cells.insert(1, new_code_cell("print('trying something')"))
    nb.cells[0].outputs = [nbf.v4.new_output("stream", text="hi\n")]
    nbf.write(nb, target)
    assert [s.state for s in release.statuses()] == ["answered"]


def test_release_leaves_an_answered_copy_of_the_current_homework_alone(course):
    release.release()
    target = course / "student" / "day09_homework.ipynb"
    answer(target)
    answered = target.read_text(encoding="utf-8")
    assert release.release() == [] and release.release(force=True) == []
    assert target.read_text(encoding="utf-8") == answered
