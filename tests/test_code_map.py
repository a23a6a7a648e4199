"""The README's code map and the lesson modules' docstrings stay true: every module of
src/helpers is in the map (and nothing else is), each day's narration module is there, and every
concept module names the lesson sections that teach it, sections that exist."""

import ast
import json
import re
from pathlib import Path

import pytest

from helpers.course.paths import day_key

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "src" / "helpers"
PLUMBING = {  # modules that teach nothing themselves: no lesson section to name
    "__init__", "__main__", "paths", "config", "i18n", "show", "narration", "widgets", "fonts",
    "ddp_io",
}  # fmt: skip
NARRATION = re.compile(r"day\d\d[a-z]?(_[a-z]+)?")
"""A day's narration modules: ``day05a``, and ``day05a_rules`` for a part of a long lesson."""
LESSON = re.compile(r"day\d\d[a-z]?")
"""A lesson's own narration module: ``day06``, ``day05a``."""
CITED = re.compile(r"\bday (\d+[a-z]?),\s+sections?\s+(\d+(?:(?:,\s*|\s+and\s+)\d+)*)")
"""``day 5a, section 8`` or ``day 8, sections 1, 2 and 7`` (a line may break inside)."""


def code_map() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## For maintainers", 1)[1].split("```", 2)[1]
    return block.split("src/helpers/course/", 1)[0].split("src/helpers/", 1)[1]


def modules() -> list[str]:
    return sorted(p.stem for p in LESSONS.glob("*.py"))


def sections(day: str) -> set[str]:
    """The numbers of a lesson's ``## N.`` headings (``day`` as the docstrings write it: 6, 5a)."""
    (path,) = (ROOT / "notebooks").glob(f"day{day_key(day)}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return set(re.findall(r"^## (\d+)\.", text, re.M))


def test_every_lesson_module_is_in_the_readmes_code_map_and_only_those():
    """The map names modules; its prose is in parentheses, its labels are ``every day``,
    ``narration`` and ``day N`` (``day 7b`` for a lettered lesson)."""
    text = re.sub(r"\([^)]*\)", "", code_map().split(":", 1)[1])
    names = re.findall(r"[a-z_][a-z0-9_]*", re.sub(r"\bday \d+[a-z]?\b", "day", text))
    labels = {"every", "day", "narration", "dayNN"}
    days = {m for m in modules() if LESSON.fullmatch(m)}  # all named by dayNN
    missing = [m for m in modules() if m not in {*names, *days, "__init__", "__main__"}]
    assert missing == [], f"add to the README's code map (For maintainers): {missing}"
    stale = sorted(set(names) - labels - set(modules()))
    assert stale == [], f"the README's code map names modules that do not exist: {stale}"


def test_every_day_has_its_narration_module_in_the_map():
    days = sorted(p.name.split("_")[0] for p in (ROOT / "notebooks").glob("day*.ipynb"))
    assert days == [m for m in modules() if LESSON.fullmatch(m)]
    parts = [m for m in modules() if NARRATION.fullmatch(m) and "_" in m]
    assert all(m.split("_")[0] in modules() for m in parts), parts  # a part beside its day
    assert "dayNN" in code_map()


@pytest.mark.parametrize(
    "name", [m for m in modules() if m not in PLUMBING and not NARRATION.fullmatch(m)]
)
def test_each_concept_module_names_the_lesson_sections_that_teach_it(name):
    doc = ast.get_docstring(ast.parse((LESSONS / f"{name}.py").read_text(encoding="utf-8")))
    cited = CITED.findall(doc or "")
    assert cited, f"helpers.{name}: its docstring names no lesson section, e.g. (day 6, section 2)"
    for day, numbers in cited:
        for number in re.findall(r"\d+", numbers):
            assert number in sections(day), f"helpers.{name}: day {day} has no section {number}"
