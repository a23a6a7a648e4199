import re

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from helpers.course import paths
from helpers.course.homework.markers import HomeworkFormatError, parse

MASTERS = paths.masters()
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


@pytest.mark.parametrize("master", MASTERS, ids=IDS)
def test_every_manual_question_has_a_rubric_that_adds_up(master):
    from helpers.course.homework.markers import rubric

    hw = parse(master)
    for qid, part in hw.manual.items():
        found = rubric(hw.source(part))
        assert found is not None, f"{qid} has no '**Rubric (N points)**' in its solution"
        assert found[1] == part.points, f"{qid}: criteria add up to {found[1]}, not {part.points}"
        student = paths.homework(master.stem).read_text(encoding="utf-8")
        assert "Rubric" not in student, "rubrics are for graders only"


def test_a_lettered_lesson_names_its_exercises_like_its_file(tmp_path):
    """Day 5's two lessons are ``day05a`` and ``day05b``: their homework ids carry the letter, and
    the grader collects their submissions by the same key."""
    from helpers.course.grading.collect import find_submissions

    nb = new_notebook(cells=[new_code_cell(EXERCISE.replace("day09", "day05a")),
                             new_code_cell(TEST.replace("day09", "day05a"))])  # fmt: skip
    path = tmp_path / "day05a_homework.ipynb"
    nbformat.write(nb, path)
    assert list(parse(path).exercises) == ["day05a.a"]
    (tmp_path / "ann_day05a_homework.ipynb").write_bytes(path.read_bytes())
    found, other = find_submissions(tmp_path)
    assert [(s.student, s.homework) for s in found] == [("ann", "day05a_homework")], other
    assert paths.day_key("5a") == "05a" and paths.day_key(7) == "07"
    with pytest.raises(ValueError, match="a number and a letter"):
        paths.day_key("five")
