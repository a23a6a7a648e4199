"""Grading as instructors have it set up (24.1, 24.3): a control run that stops a broken set-up
before the class, and environments reached through links, outside the course folder, in the
system's temporary folder and under a path with spaces and Chinese characters."""

import csv
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import nbformat
import pytest

from helpers.course import paths
from helpers.course.cli import main
from helpers.course.grading import sandbox

from .test_grading import LIMITS, answered, replace_answer, require_sandbox

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _class(folder: Path) -> Path:
    """A correct and a wrong day-0 submission."""
    folder.mkdir(parents=True)
    nbformat.write(answered("day00"), folder / "alice_day00_homework.ipynb")
    wrong = replace_answer(
        answered("day00"), "day00.device", "def ones_on_device(rows, cols):\n    return None\n"
    )
    nbformat.write(wrong, folder / "bob_day00_homework.ipynb")
    return folder


def _grades(out: Path) -> dict:
    with (out / "grades.csv").open(encoding="utf-8") as file:
        return {
            (r["student"], r["exercise"]): (r["points"], r["status"]) for r in csv.DictReader(file)
        }


def test_a_broken_sandbox_stops_before_the_class_and_says_why(tmp_path, monkeypatch, capsys):
    require_sandbox()
    folder = _class(tmp_path / "in")
    nbformat.write(answered("day00"), folder / "control_day00_homework.ipynb")
    monkeypatch.setattr(sandbox, "python", lambda: "/nowhere/bin/python")
    out = tmp_path / "out"
    assert main(["grade", str(folder), "--out", str(out), "--cell-timeout", "20"]) == 1
    printed = capsys.readouterr().out
    assert "CONTROL FAILED for day00_homework" in printed
    assert "    | bwrap: execvp /nowhere/bin/python: No such file or directory" in printed
    assert "sandbox command: " in printed and "--unshare-user" in printed
    assert "likely fix: the runner could not start inside the sandbox" in printed
    assert "0 submission(s) graded." in printed
    assert "control_day00_homework.ipynb: the student name 'control' is the grader's own" in printed
    grades = _grades(out)
    assert grades[("alice", "day00.device")] == ("0", "not graded")
    assert not (out / "feedback" / "alice_day00_homework.md").exists()


def test_the_interpreter_is_started_by_a_path_that_exists_in_the_sandbox(tmp_path, monkeypatch):
    real = tmp_path / "real env"
    (real / "bin").mkdir(parents=True)
    (real / "bin" / "python").symlink_to(sys.executable)
    (tmp_path / "linked").symlink_to(real)
    monkeypatch.setattr(sys, "executable", str(tmp_path / "linked" / "bin" / "python"))
    assert sandbox.python() == str(real.resolve() / "bin" / "python")


def _outside_env(where: Path, course: Path) -> Path:
    """A virtual environment outside the course folder that uses this one's packages, with the
    course copy's ``src/`` first on its path."""
    base = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    subprocess.run([str(base), "-m", "venv", "--without-pip", str(where)], check=True)
    packages = sysconfig.get_paths()["purelib"]
    site = next((where / "lib").glob("python*/site-packages"))
    (site / "course.pth").write_text(
        f"{course / 'src'}\nimport site; site.addsitedir({packages!r})\n", encoding="utf-8"
    )
    return where


def test_grading_works_with_a_linked_environment_outside_a_course_under_an_odd_path(tmp_path):
    """One run covers the four set-ups: the course under the system's temporary folder, in a
    folder named with a space and Chinese characters, its ``.venv`` a symbolic link to an
    environment outside the course folder; the grader is started by the linked path."""
    require_sandbox()
    assert str(tmp_path).startswith(tempfile.gettempdir())
    course = tmp_path / "课程 GPU" / "course"
    for part in ("src", "data"):
        shutil.copytree(paths.ROOT / part, course / part, ignore=shutil.ignore_patterns("*.pyc"))
    (course / "notebooks").mkdir()
    (course / "instructor" / "homework").mkdir(parents=True)
    shutil.copy(paths.master("day00_homework"), course / "instructor" / "homework")
    env = _outside_env(tmp_path / "envs" / "real env", course)
    (course / ".venv").symlink_to(env, target_is_directory=True)
    folder = _class(tmp_path / "课程 GPU" / "submissions")
    out = tmp_path / "课程 GPU" / "grades"
    environment = {k: v for k, v in os.environ.items() if not k.startswith("COURSE_")}
    done = subprocess.run(
        [str(course / ".venv" / "bin" / "python"), "-m", "helpers", "grade", str(folder)]
        + ["--out", str(out), "--jobs", "2", "--cell-timeout", str(LIMITS.cell_seconds)],
        cwd=course,
        env=environment,
        capture_output=True,
        text=True,
        timeout=500,
        encoding="utf-8",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "control: day00_homework: the master's solutions earned full marks" in done.stdout
    grades = _grades(out)
    assert grades[("alice", "day00.device")] == ("2", "passed")
    assert grades[("alice", "day00.count_parameters")] == ("2", "passed")
    assert grades[("bob", "day00.device")] == ("0", "failed")
    assert grades[("bob", "day00.count_parameters")] == ("2", "passed")
