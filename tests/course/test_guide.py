"""The instructor guide's day plans, written from executed lessons."""

import json

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from helpers.course import paths
from helpers.course.notebooks import guide


def executed_lesson(day=3):
    finding = new_output("display_data", data={"text/markdown": "The loop took **12 ms**."})
    no_guess = new_output("display_data", data={"text/markdown": "No guess written: write one"})
    timed = new_code_cell("x = 1\n" * 12, outputs=[finding, no_guess])
    timed.metadata["execution"] = {
        "iopub.execute_input": "2026-12-03T10:00:00.000Z",
        "shell.execute_reply": "2026-12-03T10:01:00.000Z",
    }
    question = new_markdown_cell("**Predict.** How long will the loop take?")
    question.metadata["tags"] = ["predict"]
    cells = [
        new_markdown_cell("# Day 3 · Title\n\nwhat you will learn"),
        new_markdown_cell("## 1. First part\n\n" + "word " * 600),
        question,
        timed,
        new_markdown_cell("## 2. Second part\n\nshort"),
        new_code_cell("y = 2"),
        new_markdown_cell("## Summary\n\n- a summary"),
    ]
    nb = new_notebook(cells=cells)
    nb.metadata["course"] = {"day": day, "title": "Title"}
    return nb


def test_sections_hold_their_words_code_time_questions_and_findings():
    first, second = guide.sections(executed_lesson())
    assert first.title == "1. First part" and second.title == "2. Second part"
    assert first.seconds == 60 and first.code_lines == 12
    assert first.questions == ["How long will the loop take?"]
    assert first.findings == ["The loop took **12 ms**."]  # not the "no guess" line


def test_the_plan_fills_ninety_minutes_in_order():
    rows = guide.plan(guide.sections(executed_lesson()))
    assert rows[0][0] == 0 and rows[-1][1] == 90
    assert all(a[1] == b[0] for a, b in zip(rows, rows[1:], strict=False))
    minutes = {what: b - a for a, b, what in rows}
    assert minutes["1. First part"] > minutes["2. Second part"] >= 5
    assert all((b - a) % 5 == 0 for a, b, _ in rows)


def test_guide_writes_between_its_markers(tmp_path, monkeypatch):
    lessons, executed = tmp_path / "notebooks", tmp_path / "build" / "course"
    lessons.mkdir()
    (executed / "notebooks").mkdir(parents=True)
    nbformat.write(executed_lesson(), lessons / "day03_x.ipynb")
    nbformat.write(executed_lesson(), executed / "notebooks" / "day03_x.ipynb")
    (executed / "timings.json").write_text(
        json.dumps({"mode": "full", "machine": "a CPU"}), encoding="utf-8"
    )
    guide_file = tmp_path / "GUIDE.md"
    guide_file.write_text(f"intro\n{guide.START}\nold\n{guide.END}\nrest\n", encoding="utf-8")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "NOTEBOOKS", lessons)
    monkeypatch.setattr(paths, "GUIDE", guide_file)
    assert guide.guide(executed, check=True) == ["GUIDE.md"]
    assert guide.guide(executed) == ["GUIDE.md"]
    text = guide_file.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("rest\n") and "old" not in text
    assert "### Day 3 · Title" in text and "one run of `make course`, on **a CPU**" in text
    assert text.count("a CPU") == 1  # named once, above the plans
    assert "- How long will the loop take?" in text
    assert guide.guide(executed, check=True) == []


def test_guide_needs_a_full_mode_run(tmp_path):
    with pytest.raises(FileNotFoundError, match="run `make course` first"):
        guide.guide(tmp_path)
    (tmp_path / "timings.json").write_text(json.dumps({"mode": "fast"}), encoding="utf-8")
    with pytest.raises(ValueError, match="fast-mode runs"):
        guide.guide(tmp_path)


def test_results_from_two_machines_are_refused(tmp_path, monkeypatch):
    """timings.json names each lesson's machine: copies run on two machines make no guide."""
    lessons, executed = tmp_path / "notebooks", tmp_path / "build" / "course"
    lessons.mkdir()
    (executed / "notebooks").mkdir(parents=True)
    for day in (3, 4):
        nbformat.write(executed_lesson(day), lessons / f"day0{day}_x.ipynb")
        nbformat.write(executed_lesson(day), executed / "notebooks" / f"day0{day}_x.ipynb")
    ran = {"notebooks/day03_x.ipynb": {"machine": "Intel CPU"},
           "notebooks/day04_x.ipynb": {"machine": "AMD CPU"}}  # fmt: skip
    timings = {"mode": "full", "machine": "AMD CPU", "notebooks": ran}
    (executed / "timings.json").write_text(json.dumps(timings), encoding="utf-8")
    guide_file = tmp_path / "GUIDE.md"
    guide_file.write_text(f"intro\n{guide.START}\nold\n{guide.END}\n", encoding="utf-8")
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    monkeypatch.setattr(paths, "NOTEBOOKS", lessons)
    monkeypatch.setattr(paths, "GUIDE", guide_file)
    with pytest.raises(ValueError, match=r"2 machines \(day03_x.ipynb on Intel CPU; day04_x"):
        guide.guide(executed)
    assert "old" in guide_file.read_text(encoding="utf-8")  # left as it was
    ran["notebooks/day03_x.ipynb"]["machine"] = "AMD CPU"  # make course again, on one machine
    (executed / "timings.json").write_text(json.dumps(timings), encoding="utf-8")
    assert guide.guide(executed) == ["GUIDE.md"]
    assert "on **AMD CPU**" in guide_file.read_text(encoding="utf-8")
