"""The course's outline, kept in step with the lessons: ``python -m helpers outline``.

From each lesson's ``course`` metadata (day, title, device, minutes) it writes

* the navigation cell at the end of every lesson (previous, next, course map);
* slide markers (``slideshow`` metadata on the title and section headings), so an instructor can
  present a lesson as slides in JupyterLab (jupyterlab-slideshow reads them);
* the course map in the README, between the ``course-map:start`` and ``course-map:end`` comments;
* with ``--timings build/course/timings.json`` (written by ``make course``), each lesson's minutes:
  its full-mode run time, rounded up.

``--check`` changes nothing and lists what is out of date (a test runs it). Outputs do not count:
a lesson that was run and saved is current when its cells and metadata are.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import nbformat

from helpers import paths

MAP_START, MAP_END = "<!-- course-map:start -->", "<!-- course-map:end -->"
NAV_MARK = "<!-- navigation -->"


def _course(nb, path: Path) -> dict:
    course = nb.get("metadata", {}).get("course")
    if not course or "day" not in course or "title" not in course:
        raise ValueError(f"{path.name} has no course metadata with a day and a title")
    return course


def _link(path: Path, course: dict) -> str:
    return f"[Day {course['day']} · {course['title']}]({path.name})"


def navigation(previous: tuple[Path, dict] | None, following: tuple[Path, dict] | None) -> str:
    """The last cell of a lesson: links to the previous and next lessons and the course map."""
    parts = []
    if previous:
        parts.append(f"**Previous:** {_link(*previous)}")
    if following:
        parts.append(f"**Next:** {_link(*following)}")
    parts.append("[Course map](../README.md#the-course)")
    return f"{NAV_MARK}\n---\n" + " · ".join(parts)


def _slide_type(cell, index: int) -> str | None:
    """A new slide for the title and each ``##`` section, a sub-slide for each ``###``."""
    if cell.cell_type != "markdown":
        return None
    source = re.sub(r"^<a id=[^>]*></a>\s*", "", cell.source)  # anchors the checklists link to
    if index == 0 or source.startswith("## "):
        return "slide"
    if source.startswith("### "):
        return "subslide"
    return None


def updated_lesson(nb, nav: str, minutes: int | None):
    """A copy of a lesson with its navigation cell, slide markers and minutes current."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    nb.cells = [c for c in nb.cells if not c.source.startswith(NAV_MARK)]
    for index, cell in enumerate(nb.cells):
        kind = _slide_type(cell, index)
        if kind:
            cell.metadata["slideshow"] = {"slide_type": kind}
        else:
            cell.metadata.pop("slideshow", None)
    day = nb.metadata["course"]["day"]
    nb.cells.append(nbformat.v4.new_markdown_cell(nav, id=f"nav-day{day:02d}"))
    if minutes is not None:
        nb.metadata["course"]["minutes"] = minutes
    return nb


def course_map(lessons: list[tuple[Path, dict]]) -> str:
    """The README's table of lessons, from their metadata."""
    rows = [
        "| day | lesson | run time (min, full mode) | device | homework |",
        "| --- | --- | --- | --- | --- |",
    ]
    for path, course in lessons:
        homework = paths.homework(f"day{course['day']:02d}_homework")
        link = (
            f"[day {course['day']:02d}](notebooks/homework/{homework.name})"
            if homework.exists()
            else "none"
        )
        rows.append(
            f"| {course['day']} | [{course['title']}](notebooks/{path.name}) | "
            f"{course.get('minutes', '?')} | {course.get('device', 'any')} | {link} |"
        )
    return "\n".join(rows)


def _text(nb) -> str:
    return nbformat.writes(nb) + "\n"


def _without_outputs(nb) -> str:
    """A notebook's text with outputs and execution counts left out (a run changes only those)."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return _text(nb)


def outline(timings: Path | None = None, *, check: bool = False) -> list[str]:
    """Bring navigation, slides, minutes and the README map up to date (or, with ``check``,
    only list what is out of date). Returns the files that change (or would)."""
    minutes: dict[str, int] = {}
    if timings is not None:
        data = json.loads(timings.read_text(encoding="utf-8"))
        if data.get("mode") != "full":
            raise ValueError(f"{timings} holds {data.get('mode')}-mode timings; run `make course`")
        for name, entry in data["notebooks"].items():
            minutes[Path(name).name] = max(1, math.ceil(entry["seconds"] / 60))
    lessons = paths.lessons()
    notebooks = {p: nbformat.read(p, as_version=4) for p in lessons}
    info = [(p, _course(notebooks[p], p)) for p in lessons]
    changed = []
    for i, (path, _) in enumerate(info):
        nav = navigation(info[i - 1] if i else None, info[i + 1] if i + 1 < len(info) else None)
        new = updated_lesson(notebooks[path], nav, minutes.get(path.name))
        if _without_outputs(new) != _without_outputs(notebooks[path]):
            changed.append(str(path.relative_to(paths.ROOT)))
            if not check:
                path.write_text(_text(new), encoding="utf-8")
        info[i] = (path, new.metadata["course"])
    readme = paths.README.read_text(encoding="utf-8")
    if MAP_START not in readme or MAP_END not in readme:
        raise ValueError(f"README.md needs the markers {MAP_START} and {MAP_END}")
    head, rest = readme.split(MAP_START, 1)
    _, tail = rest.split(MAP_END, 1)
    new_readme = f"{head}{MAP_START}\n{course_map(info)}\n{MAP_END}{tail}"
    if new_readme != readme:
        changed.append("README.md")
        if not check:
            paths.README.write_text(new_readme, encoding="utf-8")
    return changed
