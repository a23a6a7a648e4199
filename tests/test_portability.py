"""The course on other machines, imitated on this one.

Learners run the course on whatever they have. These tests stand in for what differs there:
another CPU (PyTorch's kernels at another dispatch level sum in another order), a Chinese Windows
(its default code page is GBK), a course folder whose path holds spaces and Chinese characters,
an environment reached through a symbolic link and kept outside the course folder, and processes
started with spawn (macOS, Windows) instead of fork.

The Chinese locale is made with Debian's ``locales`` (``localedef -i zh_CN -f GBK zh_CN.GBK``);
without it the locale's part is left out, unless ``COURSE_REQUIRE_CHINESE=1`` (CI, which makes
the locale) makes that a failure.
"""

from __future__ import annotations

import locale
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from helpers import paths
from helpers.course.notebooks.execute import problems
from helpers.course.setup import git
from tests.course.test_grading import answered

ROOT = paths.ROOT
GBK = "zh_CN.GBK"


def _gbk_available() -> bool:
    try:
        previous = locale.setlocale(locale.LC_CTYPE)
        locale.setlocale(locale.LC_CTYPE, GBK)
        locale.setlocale(locale.LC_CTYPE, previous)
        return True
    except locale.Error:
        return False


def chinese_windows() -> dict[str, str]:
    """The environment of a Chinese Windows as far as Python sees it: GBK by default."""
    if _gbk_available():
        return {"LC_ALL": GBK, "LANG": GBK, "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    if os.environ.get("COURSE_REQUIRE_CHINESE") == "1":
        pytest.fail(
            f"COURSE_REQUIRE_CHINESE=1 but the {GBK} locale is missing: localedef -i zh_CN -f GBK"
        )
    return {}


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COURSE_FAST", "PYTEST_XDIST_WORKER")}
    return {**env, "OMP_NUM_THREADS": "1", **extra}


# Left out of the pass: tests of outside programs that the course drives, each module with a test
# of its own for its locale case (run in every pass of make test), and the repository's rules,
# which read its files as the repository holds them, whatever the machine. Module: (what it
# tests, its locale case or None).
SAME_EVERYWHERE = {
    "tests/course/test_git.py": (
        "git and nbstripout",
        "test_a_filter_in_a_chinese_named_folder_is_found_under_a_gbk_locale",
    ),
    "tests/course/test_lab.py": (
        "JupyterLab's server",
        "test_jupyterlab_runs_as_a_module_of_this_python_not_through_a_script",
    ),
    "tests/course/test_bootstrap.py": (
        "pip and the set-up cell",
        "test_the_set_up_writes_utf_8_into_the_first_cells_pipe_whatever_the_locale",
    ),
    "tests/test_project.py": ("the repository's rules (every text file names its encoding)", None),
}


QUICK = "(not notebook and not slow and not browser) or other_machines"
"""The tests the pass runs: the quick ones, and the slow ones marked for it."""


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_quick_tests_pass_on_another_cpu_and_under_a_chinese_windows_locale():
    """The doctests and quick tests once more (but :data:`SAME_EVERYWHERE`), with PyTorch's CPU
    kernels at their most basic level (another summation order, as on another CPU) and, where
    the locale exists, GBK as the default encoding. A float compared exactly, or a file opened
    without an encoding, fails."""
    locale_env = chinese_windows()
    env = _environment(ATEN_CPU_CAPABILITY="default", **locale_env)
    left_out = [f"--ignore={name}" for name in SAME_EVERYWHERE]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-m", QUICK, "tests", "src/helpers", *left_out],
        cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8", errors="replace",
        timeout=560,
    )  # fmt: skip
    where = "ATEN_CPU_CAPABILITY=default" + (f", LC_ALL={GBK}, PYTHONUTF8=0" if locale_env else "")
    assert result.returncode == 0, f"under {where}:\n{result.stdout[-6000:]}{result.stderr[-2000:]}"
    assert " passed" in result.stdout.splitlines()[-1]


def test_what_the_other_machine_pass_leaves_out_has_its_own_locale_test():
    for name, (_what, locale_test) in SAME_EVERYWHERE.items():
        source = (ROOT / name).read_text(encoding="utf-8")
        assert locale_test is None or f"def {locale_test}(" in source, (name, locale_test)


def _copy_course(target: Path) -> Path:
    """The course's files as a fresh clone would have them, copied to ``target``."""
    if git.is_checkout():
        names = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True,
        ).stdout.decode("utf-8").split("\0")  # fmt: skip
        for name in filter(None, names):
            source = ROOT / name
            if source.is_file():
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / name)
    else:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(".venv", "build", ".git"))
    return target


@pytest.fixture(scope="module")
def far_course(tmp_path_factory):
    """The course under ``课程 GPU/``, with this environment reached through a symbolic link
    that lives outside the course folder. (Not under GBK: on Linux a non-UTF-8 locale also
    changes how file names are decoded, which Windows, whose file names are Unicode, never does.)"""
    base = tmp_path_factory.mktemp("far")
    course = _copy_course(base / "课程 GPU" / "my course")
    link = base / "环境 link"
    link.symlink_to(Path(sys.prefix), target_is_directory=True)
    python = link / ("Scripts" if os.name == "nt" else "bin") / Path(sys.executable).name
    env = _environment(PYTHONPATH=str(course / "src"))
    env.pop("COURSE_ROOT", None)

    def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(python), *args], cwd=course, env=env, capture_output=True, text=True,
            encoding="utf-8", errors="replace", timeout=timeout,
        )  # fmt: skip

    return course, run


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_course_runs_from_a_chinese_path_with_a_linked_environment(far_course):
    course, run = far_course
    where = run("-c", "from helpers import paths; import sys; print(paths.ROOT); print(sys.prefix)")
    assert where.returncode == 0, where.stderr
    assert where.stdout.splitlines()[0] == str(course)  # the copy, found from its own folder

    doctor = run("-m", "helpers", "doctor")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert re.search(r"\n  Heart data +ok\n", doctor.stdout), doctor.stdout

    student = course / "notebooks" / "homework" / "day00_homework.ipynb"
    expected = student.read_text(encoding="utf-8")
    student.unlink()
    released = run("-m", "helpers", "release")
    assert released.returncode == 0, released.stdout + released.stderr
    assert student.read_text(encoding="utf-8") == expected
    checked = run("-m", "helpers", "release", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr

    mine = course / "notebooks" / "homework" / "我的 day00.ipynb"  # every answer right
    nbformat.write(answered("day00"), mine)
    handed = run("-m", "helpers", "submit", str(mine), "--student", "li_lei", "--out", "交作业")
    assert handed.returncode == 0, handed.stdout + handed.stderr
    assert "failed" not in handed.stdout and "crashed" not in handed.stdout, handed.stdout
    assert (course / "交作业" / "li_lei_day00_homework.ipynb").is_file()

    out = course / "build" / "course"
    executed = run(
        "-m", "helpers", "course", "--fast", "--out", str(out), "notebooks/day00_setup.ipynb"
    )
    assert executed.returncode == 0, executed.stdout + executed.stderr
    nb = nbformat.read(out / "notebooks" / "day00_setup.ipynb", as_version=4)
    assert problems(nb) == []
    assert any(cell.get("outputs") for cell in nb.cells)


# Processes started with spawn under GBK, as on macOS and a Chinese Windows, are tested where they
# start: days 2, 7 and 8 run that way in tests/course/test_notebooks.py, and run_ranks (which day
# 8's homework uses to run a learner's function, pickled by value) in tests/test_distributed.py,
# whose spawn test the pass above runs too (marked other_machines).
