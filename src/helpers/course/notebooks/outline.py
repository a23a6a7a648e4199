"""The course's outline, kept in step with the lessons: ``python -m helpers outline``.

From each lesson's ``course`` metadata (day, title, device, minutes) it writes

* the navigation cell at the end of every lesson (previous, next, course map);
* the first code cell of every lesson, tagged ``bootstrap``: what starts the course in a cloud
  notebook (:func:`helpers.course.setup.bootstrap.first_cell`), its input collapsed and left out of
  the slides, since on the learner's own machine it does nothing;
* slide markers (``slideshow`` metadata on the title and section headings), so an instructor can
  present a lesson as slides in JupyterLab (jupyterlab-slideshow reads them);
* the course map in the README, between the ``course-map:start`` and ``course-map:end`` comments,
  with an "Open in Colab" link per lesson and a Kaggle line when pyproject.toml's ``[tool.course]``
  names a GitHub repository, and the same first cell between ``first-cell:start`` and
  ``first-cell:end``;
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

from helpers.course import paths
from helpers.course.notebooks.clean import clean
from helpers.course.setup import bootstrap

MAP_START, MAP_END = "<!-- course-map:start -->", "<!-- course-map:end -->"
CELL_START, CELL_END = "<!-- first-cell:start -->", "<!-- first-cell:end -->"
NAV_MARK = "<!-- navigation -->"
GITHUB = re.compile(r"https://github\.com/([\w.-]+)/([\w.-]+?)(?:\.git)?/?")


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


def first_cell(source: str, day: int | str):
    """The lesson's first code cell: collapsed, tagged, and no slide of its own."""
    cell = nbformat.v4.new_code_cell(source, id=f"bootstrap-day{paths.day_key(day)}")
    cell.metadata = {
        "tags": [bootstrap.TAG],
        "jupyter": {"source_hidden": True},
        "slideshow": {"slide_type": "skip"},
    }
    return cell


def _generated(cell) -> bool:
    return cell.source.startswith(NAV_MARK) or bootstrap.TAG in cell.metadata.get("tags", [])


def updated_lesson(nb, nav: str, minutes: int | None, first: str | None = None):
    """A copy of a lesson with its navigation cell, slide markers and minutes current, and with
    ``first`` (the source of the first cell) just after its title."""
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    nb.cells = [c for c in nb.cells if not _generated(c)]
    for index, cell in enumerate(nb.cells):
        kind = _slide_type(cell, index)
        if kind:
            cell.metadata["slideshow"] = {"slide_type": kind}
        else:
            cell.metadata.pop("slideshow", None)
    day = nb.metadata["course"]["day"]
    nb.cells.append(nbformat.v4.new_markdown_cell(nav, id=f"nav-day{paths.day_key(day)}"))
    if first is not None:
        nb.cells.insert(1, first_cell(first, day))
    if minutes is not None:
        nb.metadata["course"]["minutes"] = minutes
    return nb


def github_url(repository: str, branch: str, path: str) -> str | None:
    """A file's page on GitHub (None when the repository is not on GitHub).

    >>> github_url("https://github.com/o/r.git", "main", "notebooks/a.ipynb")
    'https://github.com/o/r/blob/main/notebooks/a.ipynb'
    >>> github_url("https://gitee.com/o/r", "main", "a.ipynb") is None
    True
    """
    found = GITHUB.fullmatch(repository)
    return found and f"https://github.com/{found[1]}/{found[2]}/blob/{branch}/{path}"


def colab_url(repository: str, branch: str, path: str) -> str | None:
    """The address that opens a notebook of a GitHub repository in Colab."""
    page = github_url(repository, branch, path)
    return page and page.replace("https://github.com/", "https://colab.research.google.com/github/")


def cloud_lines(repository: str, branch: str, first: Path | None) -> list[str]:
    """What the README says under the map about cloud notebooks (Colab links, Kaggle)."""
    if not repository:
        return [
            "",
            '"Open in Colab" links and a line for Kaggle appear here once the course is '
            'published: set `repository = "https://github.com/<owner>/<name>"` under '
            "`[tool.course]` in pyproject.toml, then run `python -m helpers outline`.",
        ]
    page = first and github_url(repository, branch, f"notebooks/{first.name}")
    if not page:
        return [
            "",
            f"Colab and Kaggle open notebooks from GitHub; this course lives at {repository}: "
            "upload a lesson there and run its first cell.",
        ]
    return [
        "",
        f"**Kaggle:** [open day 0](https://kaggle.com/kernels/welcome?src={page}) (any lesson: "
        "`https://kaggle.com/kernels/welcome?src=` and its GitHub address), turn on Internet "
        "and a GPU in the notebook's settings, then run its first cell.",
    ]


def course_map(lessons: list[tuple[Path, dict]], repository: str = "", branch: str = "main") -> str:
    """The README's table of lessons, from their metadata, with Colab links when the course's
    repository is on GitHub."""
    colab = bool(repository) and GITHUB.fullmatch(repository) is not None
    rows = [
        "| day | lesson | run time (min, full mode) | device | homework |"
        + (" cloud |" if colab else ""),
        "| --- | --- | --- | --- | --- |" + (" --- |" if colab else ""),
    ]
    for path, course in lessons:
        homework = paths.homework(f"day{paths.day_key(course['day'])}_homework")
        link = (
            f"[day {paths.day_key(course['day'])}](notebooks/homework/{homework.name})"
            if homework.exists()
            else "none"
        )
        rows.append(
            f"| {course['day']} | [{course['title']}](notebooks/{path.name}) | "
            f"{course.get('minutes', '?')} | {course.get('device', 'any')} | {link} |"
            + (f" [Open in Colab]({colab_url(repository, branch, f'notebooks/{path.name}')}) |"
               if colab else "")
        )  # fmt: skip
    rows += cloud_lines(repository, branch, lessons[0][0] if lessons else None)
    return "\n".join(rows)


def _region(text: str, start: str, end: str, body: str) -> str:
    """``text`` with what lies between the markers ``start`` and ``end`` replaced by ``body``."""
    if start not in text or end not in text:
        raise ValueError(f"README.md needs the markers {start} and {end}")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{body}\n{end}{tail}"


def _text(nb) -> str:
    return nbformat.writes(nb) + "\n"


def _without_outputs(nb) -> str:
    """A notebook's text as committed (a run changes only outputs, counts and extra metadata)."""
    return _text(clean(nb))


def outline(timings: Path | None = None, *, check: bool = False) -> list[str]:
    """Bring navigation, slides, minutes and the README map up to date (or, with ``check``,
    only list what is out of date). Returns the files that change (or would)."""
    minutes: dict[str, int] = {}
    if timings is not None:
        data = json.loads(timings.read_text(encoding="utf-8"))
        if data.get("mode") != "full":
            raise ValueError(f"{timings} holds {data.get('mode')}-mode timings; run `make course`")
        for name, entry in data["notebooks"].items():
            if Path(name).parent == Path("notebooks"):  # the English lessons (not zh/, homework)
                minutes[Path(name).name] = max(1, math.ceil(entry["seconds"] / 60))
    repository, branch = bootstrap.settings(paths.PYPROJECT)
    cell = bootstrap.first_cell(repository)
    lessons = paths.lessons()
    notebooks = {p: nbformat.read(p, as_version=4) for p in lessons}
    info = [(p, _course(notebooks[p], p)) for p in lessons]
    changed = []
    for i, (path, _) in enumerate(info):
        nav = navigation(info[i - 1] if i else None, info[i + 1] if i + 1 < len(info) else None)
        new = updated_lesson(notebooks[path], nav, minutes.get(path.name), cell)
        if _without_outputs(new) != _without_outputs(notebooks[path]):
            changed.append(str(path.relative_to(paths.ROOT)))
            if not check:
                path.write_text(_text(new), encoding="utf-8")
        info[i] = (path, new.metadata["course"])
    readme = paths.README.read_text(encoding="utf-8")
    new_readme = _region(readme, MAP_START, MAP_END, course_map(info, repository, branch))
    new_readme = _region(new_readme, CELL_START, CELL_END, f"```python\n{cell}\n```")
    if new_readme != readme:
        changed.append("README.md")
        if not check:
            paths.README.write_text(new_readme, encoding="utf-8")
    return changed
