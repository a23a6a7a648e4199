"""No lesson module imports a module that belongs only to a later day.

A module's day is the first lesson notebook that imports it (``notebooks/dayNN_*.ipynb``, its key
``NN`` with a letter where there is one: ``07b`` comes after ``07`` and before ``08``);
modules no lesson imports directly (``models``, ``crossover``...) are shared and have no day, and
so are the course's plumbing, which every day may use (:data:`SHARED`).
"""

import ast
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "src" / "helpers"
SHARED = {  # plumbing any day may use, whichever notebook imports it first
    "helpers.config": "fast mode and sizes",
    "helpers.device": "choosing the device",
    "helpers.i18n": "the course's language",
    "helpers.narration": "the sentences several days share (intervals, receipts)",
    "helpers.receipts": "a GPU's figures brought home (days 1, 2 and 5-8)",
    "helpers.paths": "where the course's files live",
    "helpers.show": "rendering numbers in prose",
    "helpers.timing": "the course's timer (day 0's training is timed with it)",
    "helpers.widgets": "knob panels",
}


def imported(tree: ast.AST) -> set[str]:
    """The ``helpers`` modules a piece of code imports (``from helpers import a`` counts ``a``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == "helpers":
            found |= {f"helpers.{a.name}" for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return {name for name in found if name.startswith("helpers.")}


def notebook_imports(path: Path) -> set[str]:
    cells = nbformat.read(path, as_version=4).cells
    code = [c.source for c in cells if c.cell_type == "code"]
    lines = [
        ln for src in code for ln in src.splitlines() if not ln.lstrip().startswith(("%", "!"))
    ]
    return imported(ast.parse("\n".join(lines)))


def days_of(notebooks: dict) -> dict:
    """Each module's day: the first day whose notebook imports it."""
    days: dict[str, int] = {}
    for day in sorted(notebooks):
        for name in notebooks[day] - set(SHARED):
            days.setdefault(name, day)
    return days


def later_imports(modules: dict[str, set[str]], days: dict[str, int]) -> list[str]:
    """``a (day 5) imports b (day 6)`` for every lesson module that imports a later day's."""
    return [
        f"{name} (day {days[name]}) imports {other} (day {days[other]})"
        for name, imports in sorted(modules.items())
        if name in days
        for other in sorted(imports)
        if other in days and days[other] > days[name]
    ]


def lesson_notebooks() -> dict[str, set[str]]:
    """Each lesson's imports, by its key (``"05"``, ``"07b"``: in teaching order as strings)."""
    found = {}
    for path in sorted((ROOT / "notebooks").glob("day*.ipynb")):
        found[re.match(r"day(\d\d[a-z]?)_", path.name).group(1)] = notebook_imports(path)
    return found


def lesson_modules() -> dict[str, set[str]]:
    return {
        f"helpers.{p.stem}": imported(ast.parse(p.read_text(encoding="utf-8")))
        for p in sorted(LESSONS.glob("*.py"))
        if p.stem not in ("__init__", "__main__")
    }


def test_the_rule_finds_a_later_days_import():
    notebooks = {5: {"helpers.loops", "helpers.work"}, 6: {"helpers.takeoff"}, 7: {"helpers.util"}}
    days = days_of(notebooks)
    assert days == {"helpers.loops": 5, "helpers.work": 5, "helpers.takeoff": 6, "helpers.util": 7}
    modules = {"helpers.util": {"helpers.takeoff"}, "helpers.loops": {"helpers.takeoff"}}
    assert later_imports(modules, days) == [
        "helpers.loops (day 5) imports helpers.takeoff (day 6)"
    ]  # day 7 may import day 6; a shared module (no notebook) has no day
    assert later_imports({"helpers.work": {"helpers.models"}}, days) == []
    assert "helpers.paths" not in days_of({5: {"helpers.paths"}})  # plumbing: no day


def test_the_work_counting_is_day_fives_and_takeoff_day_sixs():
    days = days_of(lesson_notebooks())
    assert days["helpers.work"] == "05b" and days["helpers.takeoff"] == "06"
    assert days["helpers.loops"] == "05a" and days["helpers.utilisation"] == "07"


def test_a_lettered_lesson_has_its_own_day_between_its_neighbours():
    days = days_of(lesson_notebooks())
    assert days["helpers.ladder"] == days["helpers.charlm"] == "07b"
    assert "07" < days["helpers.ladder"] < "08" and days["helpers.utilisation"] == "07"


def test_no_lesson_module_imports_a_later_days_module():
    assert later_imports(lesson_modules(), days_of(lesson_notebooks())) == []
