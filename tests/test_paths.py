"""The one paths module: how the course folder is found, and that nothing else builds paths."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import paths
from helpers.course import paths as course_paths

SRC = Path(paths.__file__).parent


def test_the_course_folder_holds_the_lessons_and_the_data():
    assert (paths.ROOT / "notebooks").is_dir() and paths.HEART_CSV.is_file()
    lessons, course = course_paths.lessons(), course_paths
    assert lessons[0].name == "day00_setup.ipynb" and course.NOTEBOOKS == paths.NOTEBOOKS
    assert course.master("day00_homework").is_file() and course.homework("day00_homework").is_file()


def test_the_lesson_layer_holds_no_tooling_path():
    """Homework masters, grading output, translations: the tooling's paths, not the lessons'."""
    for name in ["MASTERS", "GRADES", "LAB_CONFIG", "LOCK", "PYPROJECT", "I18N", "masters"]:
        assert not hasattr(paths, name) and hasattr(course_paths, name), name


def test_course_root_wins(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    monkeypatch.setenv("COURSE_ROOT", str(tmp_path))
    assert paths.find_root() == tmp_path.resolve()


def test_a_course_root_without_data_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("COURSE_ROOT", str(tmp_path))
    with pytest.raises(paths.CourseFolderNotFound, match="has no data/ folder"):
        paths.find_root()


def test_the_nearest_course_folder_above_the_current_one(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_ROOT", raising=False)
    copy = tmp_path / "my course copy"
    (copy / "notebooks" / "homework").mkdir(parents=True)
    (copy / "data").mkdir()
    assert paths.find_root(copy / "notebooks" / "homework") == copy.resolve()


def test_elsewhere_it_falls_back_to_the_package_s_own_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_ROOT", raising=False)
    assert paths.find_root(tmp_path) == paths.ROOT  # the editable install's folder


def test_a_copy_opened_from_elsewhere_finds_itself(tmp_path):
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "data").mkdir()
    code = "from helpers import paths; print(paths.ROOT)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path / "notebooks",
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert out.stdout.strip() == str(tmp_path.resolve()), out.stderr


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


LESSON_MODULES = sorted(p for p in SRC.glob("*.py") if p.name != "__main__.py")


@pytest.mark.parametrize("path", LESSON_MODULES, ids=[p.name for p in LESSON_MODULES])
def test_lesson_modules_never_import_the_tooling(path):
    assert not [m for m in _imports(path) if m.startswith("helpers.course")]


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_course_path_is_built_outside_the_paths_module(path):
    if path.name == "paths.py":
        return
    text = path.read_text(encoding="utf-8")
    joins = ['/ "notebooks"', '/ "instructor"', '/ "data"', '/ "build"', '/ "homework"']
    for pattern in ["Path(__file__)", "parents[", "ROOT /", *joins]:
        assert pattern not in text, f"{path.name} builds a course path: use helpers.paths"


def test_the_compile_cache_leaves_a_course_folder_whose_path_has_a_space(monkeypatch, tmp_path):
    """torch.compile passes its cache's paths to the C++ compiler unquoted (pytorch#191010)."""
    monkeypatch.setattr(paths, "BUILD", tmp_path / "course" / "build")
    assert paths._compile_cache() == tmp_path / "course" / "build" / "torch-compile-cache"
    monkeypatch.setattr(paths, "ROOT", tmp_path / "GPU 课程")
    monkeypatch.setattr(paths, "BUILD", tmp_path / "GPU 课程" / "build")
    elsewhere = paths._compile_cache()
    assert elsewhere.parent == Path.home() / ".cache" / "gpu-course"
    assert not any(c.isspace() for c in elsewhere.name)
