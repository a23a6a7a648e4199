"""Grading simulated submissions, the bad ones included, and checking every grade."""

import csv
import hashlib
import shutil

import nbformat
import pytest

from helpers import paths
from helpers.course import grading
from helpers.course.cli import main

LIMITS = grading.Limits(cell_seconds=8, notebook_seconds=240, memory_mb=4096)


def answered(day):
    """The student version of ``day`` with the master's answers typed in, as a learner would."""
    master = nbformat.read(paths.MASTERS / f"{day}_homework.ipynb", 4)
    student = nbformat.read(paths.HOMEWORK / f"{day}_homework.ipynb", 4)
    for mine, theirs in zip(student.cells, master.cells, strict=True):
        if mine.source.startswith(("# EXERCISE", "MANUAL")):
            mine.source = "\n".join(
                line for line in theirs.source.splitlines()
                if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION")
            )  # fmt: skip
    return student


def replace_answer(nb, exercise, source):
    for cell in nb.cells:
        if cell.source.startswith(f"# EXERCISE {exercise}"):
            cell.source = f"# EXERCISE {exercise}\n{source}"
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("submissions")
    out = tmp_path_factory.mktemp("grades")

    def save(name, nb):
        path = folder / name
        path.parent.mkdir(exist_ok=True)
        nbformat.write(nb, path)

    save("alice_day00_homework.ipynb", answered("day00"))
    save(
        "bob_day00_homework.ipynb",
        replace_answer(answered("day00"), "day00.device", "while True:\n    pass"),
    )
    save(
        "carol_day00_homework.ipynb",
        replace_answer(
            answered("day00"),
            "day00.count_parameters",
            "def count_parameters(model):\n    return sum(p.numel() for p in model.parameters())\n"
            "raise RuntimeError('oops')",
        ),
    )
    no_tests = answered("day00")
    no_tests.cells = [c for c in no_tests.cells if not c.source.startswith("# TEST")]
    save("dave_day00_homework.ipynb", no_tests)
    stripped = answered("day00")
    stripped.metadata = {"kernelspec": {"name": "my-own-kernel", "display_name": "mine",
                                        "language": "python"}}  # fmt: skip
    for cell in stripped.cells:
        cell.metadata = {}
        cell.id = "x" + cell.id
    save("erin_day00_homework.ipynb", stripped)
    save(
        "frank_day00_homework.ipynb",
        replace_answer(
            answered("day00"),
            "day00.device",
            "device = get_device()\nones = torch.zeros(2, 3, device=device)\n"
            "torch.all = lambda *args, **kwargs: torch.tensor(True)  # passes the hidden test here",
        ),
    )
    save(
        "grace_day00_homework.ipynb",
        replace_answer(
            answered("day00"),
            "day00.device",
            "device = get_device()\nones = torch.ones(2, 3, device=device)\n"
            "print('x' * 50_000_000)",
        ),
    )
    (folder / "henry_day00_homework.ipynb").write_text("{ this is not JSON")
    save("ivan_day00_homework.ipynb", answered("day01"))
    (folder / "judy_day00_homework.ipynb").write_bytes(b"")
    save("kim/day00_homework.ipynb", answered("day00"))
    (folder / "notes.txt").write_text("not a submission")
    shutil.copy(paths.HOMEWORK / "day00_homework.ipynb", folder / "leo_day99_homework.ipynb")

    hashes = {
        p: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }
    grading.grade(folder, out, jobs=2, limits=LIMITS, progress=False)
    after = {
        p: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*") if p.is_file()
    }
    with (out / "grades.csv").open() as file:
        rows = list(csv.DictReader(file))
    grades = {(r["student"], r["exercise"]): (r["points"], r["status"]) for r in rows}
    return {"folder": folder, "out": out, "grades": grades, "unchanged": hashes == after}


pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def test_submissions_are_never_modified(graded):
    assert graded["unchanged"]


@pytest.mark.parametrize(
    ("student", "exercise", "expected"),
    [
        ("alice", "day00.device", ("2", "passed")),
        ("alice", "day00.count_parameters", ("2", "passed")),
        ("alice", "day00.why_get_device", ("", "manual")),
        ("bob", "day00.device", ("0", "timeout")),  # an infinite loop: 0 for that exercise...
        ("bob", "day00.count_parameters", ("2", "passed")),  # ...the rest is graded
        ("carol", "day00.count_parameters", ("0", "error")),
        ("carol", "day00.device", ("2", "passed")),
        ("dave", "day00.device", ("2", "passed")),  # deleted test cells: the master's are used
        ("dave", "day00.count_parameters", ("2", "passed")),
        ("erin", "day00.device", ("2", "passed")),  # no metadata, another kernel name
        ("frank", "day00.device", ("0", "failed")),  # monkeypatched torch.all does not help
        ("grace", "day00.device", ("2", "passed")),  # 50 MB of output, graded all the same
        ("henry", "day00.device", ("0", "invalid")),
        ("ivan", "day00.device", ("0", "wrong homework")),
        ("judy", "day00.count_parameters", ("0", "invalid")),
        ("kim", "day00.device", ("2", "passed")),  # the folder-per-student layout
    ],
)
def test_every_grade(graded, student, exercise, expected):
    assert graded["grades"][(student, exercise)] == expected


def test_report_names_what_was_not_graded(graded):
    report = (graded["out"] / "report.txt").read_text()
    assert "notes.txt: not a submission" in report
    assert "leo_day99_homework.ipynb: no master for day99_homework" in report
    assert "henry_day00_homework.ipynb: not a readable notebook" in report
    assert "judy_day00_homework.ipynb: the file is empty" in report
    assert (
        "ivan_day00_homework.ipynb: the file is named day00_homework but holds answers for day01"
        in report
    )


def test_feedback_says_why_without_revealing_hidden_tests(graded):
    frank = (graded["out"] / "feedback" / "frank_day00_homework.md").read_text()
    assert "day00.device: 0 of 2 points (failed)" in frank
    assert "hidden) checks did not pass" in frank
    assert "torch.all(ones == 1)" not in frank and "float32" not in frank  # hidden tests' text
    bob = (graded["out"] / "feedback" / "bob_day00_homework.md").read_text()
    assert "ran longer than 8 s" in bob
    carol = (graded["out"] / "feedback" / "carol_day00_homework.md").read_text()
    assert "RuntimeError: oops" in carol
    assert (graded["out"] / "feedback" / "grace_day00_homework.md").stat().st_size < 10_000


def test_manual_grades_survive_regrading_and_the_output_is_reproducible(graded):
    out, folder = graded["out"], graded["folder"]
    before = {p.name: p.read_text() for p in (out / "feedback").iterdir()}
    with (out / "manual.csv").open() as file:
        manual = list(csv.DictReader(file))
    assert {r["student"] for r in manual if r["answer"]} >= {"alice", "kim"}
    for row in manual:
        if row["student"] == "alice":
            row["points"], row["comment"] = "1", "clear and complete"
    with (out / "manual.csv").open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=grading.MANUAL_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(manual)
    edited = (out / "manual.csv").read_text()

    grading.grade(folder, out, jobs=2, limits=LIMITS, progress=False)
    assert (out / "manual.csv").read_text() == edited
    with (out / "grades.csv").open() as file:
        rows = {
            (r["student"], r["exercise"]): (r["points"], r["status"]) for r in csv.DictReader(file)
        }
    assert rows[("alice", "day00.why_get_device")] == ("1", "manual")
    changed = {k: v for k, v in rows.items() if graded["grades"][k] != v}
    assert changed == {("alice", "day00.why_get_device"): ("1", "manual")}
    assert {p.name: p.read_text() for p in (out / "feedback").iterdir()} == before


def test_cli_grade_reports_a_missing_folder(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 1
    assert "No submissions folder at" in capsys.readouterr().err


def test_submit_checks_and_writes_the_copy_to_hand_in(tmp_path, capsys):
    mine = tmp_path / "day00_homework.ipynb"
    nb = answered("day00")
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text="old output")]
    nb.cells[1].execution_count = 3
    nbformat.write(nb, mine)
    out = tmp_path / "to_hand_in"
    assert main(["submit", str(mine), "--student", "alice", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "day00.device" in printed and "passed" in printed
    copy = nbformat.read(out / "alice_day00_homework.ipynb", 4)
    assert all(not c.get("outputs") and not c.get("execution_count") for c in copy.cells
               if c.cell_type == "code")  # fmt: skip
    assert main(["submit", str(mine), "--student", "alice", "--out", str(out)]) == 1
    assert "exists already; pass --force" in capsys.readouterr().err
    assert main(["submit", str(mine), "--student", "al ice", "--out", str(out)]) == 1
    assert "use letters, digits" in capsys.readouterr().err
