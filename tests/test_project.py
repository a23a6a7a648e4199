"""The repository's own rules: dependencies in step, clean notebooks, lint."""

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml
from IPython.core.inputtransformer2 import TransformerManager

from helpers.course.paths import day_key

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from helpers.config import TESTED_TORCH
from helpers.course.notebooks.clean import unclean
from helpers.course.setup import git
from helpers.paths import ROOT


def _notebooks():
    """The course's notebooks: those git tracks or would add (not .ipynb_checkpoints/ copies)."""
    if git.is_checkout():
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "notebooks",
             "instructor"], cwd=ROOT, capture_output=True, text=True, check=True, encoding="utf-8",
        ).stdout.splitlines()  # fmt: skip
        return sorted({ROOT / name for name in listed if name.endswith(".ipynb")})
    found = [*ROOT.glob("notebooks/**/*.ipynb"), *ROOT.glob("instructor/**/*.ipynb")]
    return sorted(p for p in found if not any(part.startswith(".") for part in p.parts))


NOTEBOOKS = _notebooks()
CONDA_NAMES = {"pytorch": "torch"}  # conda-forge name -> PyPI name


def _split(requirement):
    name, _, bound = re.match(r"([A-Za-z0-9_.-]+)\s*(>=\s*([\w.]+))?", requirement).groups()
    return name.lower(), bound


def test_environment_yml_agrees_with_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))

    wanted = dict(_split(r) for r in project["dependencies"])
    have = {}
    for dep in conda:
        name, bound = _split(dep)
        if name not in ("python", "pip"):
            have[CONDA_NAMES.get(name, name)] = bound
    assert have == wanted
    assert _split(next(d for d in conda if d.startswith("python")))[1] == (
        project["requires-python"].removeprefix(">=")
    )
    assert any(line.startswith("-e ") and ".[dev]" in line for line in pip)


def test_every_conda_dependency_says_which_day_needs_it():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    lines = text.split("\ndependencies:\n", 1)[1].splitlines()
    deps = [
        ln
        for ln in lines
        if re.match(r"\s+- [a-z]", ln) and not ln.strip()[2:].startswith(("python", "pip"))
    ]
    assert deps
    for line in deps:
        assert re.search(r"#.*\b(day|days|every day|make course|grading)\b", line), line


def test_makefile_pins_the_tested_torch():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"TORCH_SPEC ?= torch=={TESTED_TORCH}" in makefile


def test_ci_runs_the_readme_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test" in ci and "make course" in ci
    assert "make test" in readme and "make lab" in readme


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[str(p.relative_to(ROOT)) for p in NOTEBOOKS])
def test_notebook_is_committed_clean(path):
    """What git holds (the index: what the next commit takes), not the working copy, which may
    hold outputs: git's filter (`make install`) strips them on the way in."""
    text = git.committed(path)
    if text is None:  # not added yet, or not a git checkout: what would be committed as it is
        text = path.read_text(encoding="utf-8")
    nb = json.loads(text)
    assert text == nbformat.writes(nbformat.reads(text, as_version=4)) + "\n", (
        "not stored as nbformat writes it (plus a newline): write notebooks with nbformat"
    )
    assert nb["metadata"]["kernelspec"]["name"] == "python3"
    assert unclean(nb) == [], (
        "outputs or metadata beyond the allow-list in git: run `python -m helpers git-filter` "
        "(make install does) and `git add` the notebook again"
    )


def test_lessons_link_to_their_homework():
    for path in sorted((ROOT / "notebooks").glob("day*.ipynb")):
        homework = f"homework/{path.name.split('_')[0]}_homework.ipynb"
        if (ROOT / "notebooks" / homework).exists():
            assert f"]({homework})" in path.read_text(encoding="utf-8"), (
                f"{path.name} should link to {homework}"
            )


LESSONS = sorted((ROOT / "notebooks").glob("day*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_lessons_that_show_tables_use_the_one_table_setting(path):
    """helpers.show.readable_tables(): text in tables wraps and is never cut, in every lesson."""
    nb = nbformat.read(path, as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code"]
    tables = [i for i, c in enumerate(cells) if "pd." in c or ".to_frame()" in c]
    if not tables:
        return
    calls = [i for i, c in enumerate(cells) if "\nreadable_tables()\n" in f"\n{c}\n"]
    assert calls and calls[0] <= tables[0], "call readable_tables() before the first table"


def test_lessons_carry_their_day_and_title():
    for path in sorted((ROOT / "notebooks").glob("day*.ipynb")):
        course = json.loads(path.read_text(encoding="utf-8"))["metadata"]["course"]
        assert f"day{day_key(course['day'])}" == path.name.split("_")[0], path
        assert course["title"], path


def test_ruff_passes():
    paths = [
        p for p in ("src", "tests", "notebooks", "instructor", "benchmarks") if (ROOT / p).exists()
    ]
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", *paths],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_outline_is_current():
    """Navigation cells, slide markers and the README's course map follow the lessons' metadata:
    after editing a lesson, run `python -m helpers outline`."""
    from helpers.course.notebooks.outline import outline

    assert outline(check=True) == []


def test_every_lesson_has_a_measured_run_time():
    """Set by `python -m helpers outline --timings build/course/timings.json` (make course)."""
    for path in sorted((ROOT / "notebooks").glob("day*.ipynb")):
        minutes = json.loads(path.read_text(encoding="utf-8"))["metadata"]["course"].get("minutes")
        assert isinstance(minutes, int) and minutes >= 1, path.name


LESSONS = sorted((ROOT / "notebooks").glob("day*.ipynb"))


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_lesson_cells_are_short_and_findings_are_prose(path):
    """Learners read short cells and prose: no code cell over 30 lines, and findings rendered
    with helpers.show.say (or in a cell whose input is collapsed), not display(Markdown(...))."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        assert len(source.splitlines()) <= 30, f"cell {index} has {len(source.splitlines())} lines"
        hidden = cell["metadata"].get("jupyter", {}).get("source_hidden", False)
        assert hidden or "display(Markdown(" not in source, f"cell {index}: use say(...)"


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_every_lesson_asks_learners_to_predict_before_they_run(path):
    """At least three predict-then-run moments per lesson, each a Markdown cell tagged predict."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    questions = [c for c in cells if "predict" in c.get("metadata", {}).get("tags", [])]
    assert len(questions) >= 3, f"{len(questions)} predict-then-run moments"
    assert all(c["cell_type"] == "markdown" for c in questions)


def _calls_without_encoding(source):
    """(line, name) of each read_text/write_text/open call that opens text without an encoding,
    and of each subprocess call that decodes its output (``text=True``) without one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        func = getattr(node, "func", None)
        name = getattr(func, "attr", None) or getattr(func, "id", None)
        keywords = {k.arg: k.value for k in getattr(node, "keywords", [])}
        decodes = any(
            isinstance(keywords.get(k), ast.Constant) and keywords[k].value is True
            for k in ("text", "universal_newlines")
        )
        if decodes and "encoding" not in keywords:
            found.append((node.lineno, name))
            continue
        if name not in ("read_text", "write_text", "open") or not isinstance(node, ast.Call):
            continue
        owner = getattr(getattr(func, "value", None), "id", None)
        if owner in ("os", "Image", "webbrowser", "tarfile") or any(  # tarfile: archives
            k.arg == "encoding" for k in node.keywords
        ):
            continue
        positional = {"read_text": 1, "write_text": 2}.get(name)
        if positional and len(node.args) >= positional:  # encoding given by position
            continue
        mode = node.args[1 if isinstance(func, ast.Name) else 0 : 2][:1]
        mode += [k.value for k in node.keywords if k.arg == "mode"]
        if any(isinstance(m, ast.Constant) and "b" in str(m.value) for m in mode):
            continue  # binary: no encoding
        found.append((node.lineno, name))
    return found


def test_calls_without_encoding_are_found():
    source = "p.read_text()\nopen(f)\np.open('rb')\np.write_text(t, 'utf-8')\nopen(f, 'wb')\n"
    source += "subprocess.run(c, text=True)\nsubprocess.run(c, text=True, encoding='utf-8')\n"
    assert _calls_without_encoding(source) == [(1, "read_text"), (2, "open"), (6, "run")]


def test_every_text_file_names_its_encoding():
    """A learner on Chinese Windows reads with GBK by default: every text file names UTF-8."""
    missing = []
    sources = [
        *ROOT.glob("src/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("benchmarks/*.py"),
    ]
    for path in sources:
        missing += [(path, *c) for c in _calls_without_encoding(path.read_text(encoding="utf-8"))]
    python = TransformerManager().transform_cell  # IPython syntax (%time, !cmd) as Python
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                missing += [(path, *c) for c in _calls_without_encoding(python(cell.source))]
    assert not missing, missing


def test_make_test_keeps_each_xdist_group_on_one_worker(tmp_path):
    """make test runs `pytest -n 2 --dist loadgroup` so that one worker builds the graded class.
    Some pytest and pytest-xdist versions together stop grouping without a word
    (pytest-dev/pytest-xdist#1386): then each worker builds it again, and make test runs longer."""
    (tmp_path / "test_group.py").write_text(
        "import os\nimport pytest\n\npytestmark = pytest.mark.xdist_group('one')\n\n\n"
        "@pytest.mark.parametrize('i', range(8))\ndef test_where(i):\n"
        "    with open('workers.txt', 'a', encoding='utf-8') as file:\n"
        "        file.write(os.environ['PYTEST_XDIST_WORKER'] + '\\n')\n",
        encoding="utf-8",
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "loadgroup", "test_group.py"],
        cwd=tmp_path, capture_output=True, text=True, encoding="utf-8", errors="replace",
        timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    workers = set((tmp_path / "workers.txt").read_text(encoding="utf-8").split())
    assert len(workers) == 1, f"one xdist group ran on {sorted(workers)}: see the docstring"


def test_make_keeps_the_environment_out_of_a_folder_whose_path_has_a_space(tmp_path):
    """torch.compile cannot build under a path with a space (pytorch/pytorch#191010): in such a
    course folder `make` puts the environment elsewhere, one per folder; elsewhere it is .venv."""
    show = ["make", "-s", "--eval", 'print-venv: ; @echo "$(VENV)"', "print-venv"]
    found = {}
    for name in ("GPU 课程", "GPU 课程 2", "course"):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(ROOT / "Makefile", folder)
        done = subprocess.run(
            show, cwd=folder, capture_output=True, text=True, encoding="utf-8", errors="replace"
        )  # make's own words come in the locale's encoding
        assert done.returncode == 0, done.stderr
        found[name] = done.stdout.strip()
    if " " not in str(tmp_path):  # (in the other-machine pass, tmp_path itself has a space)
        assert found["course"] == ".venv"
    spaced = [found["GPU 课程"], found["GPU 课程 2"]]
    assert all(" " not in venv and Path(venv).is_absolute() for venv in spaced), spaced
    assert spaced[0] != spaced[1]  # each folder its own environment
