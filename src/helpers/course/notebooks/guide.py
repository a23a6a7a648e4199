"""The instructor guide's plan for each day, written from ``make course``'s executed lessons:
``python -m helpers guide``.

For every lesson it writes, between the ``day-plans:start`` and ``day-plans:end`` comments of
``instructor/GUIDE.md``:

* a 90-minute plan by section: 5 minutes to open, 10 to close (summary, glossary, homework), and
  the rest shared among the sections by how much there is to read, run and discuss in each (its
  words, its lines of code, its run time in the executed copy, its predict-then-run questions);
* discussion prompts: the lesson's own predict-then-run questions (cells tagged ``predict``);
* the results to expect: the first findings of each section as the executed copy printed them,
  all from one machine's run, named once above the plans (``timings.json`` says which machine ran
  each lesson; copies from several machines are refused), and, where the course has one, the GPU
  reference measured on a real GPU.

Nothing here is typed by hand: run ``make course`` on the room's machine, then this command.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat

from helpers.course import paths
from helpers.i18n import N_

START, END = "<!-- day-plans:start -->", "<!-- day-plans:end -->"
RESULTS_FROM = (
    "Every *result to expect* below comes from one run of `make course`, on **{machine}**: "
    "the room's machine prints its own.\n"
)
LESSON_MINUTES, OPENING, CLOSING = 90, 5, 10
CLOSING_HEADINGS = ("Summary", "Homework", "Glossary")


@dataclass
class Section:
    title: str
    words: int = 0
    code_lines: int = 0
    seconds: float = 0.0
    questions: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)

    @property
    def weight(self) -> float:
        """Minutes of teaching this section asks for, before scaling to the lesson's length."""
        return self.words / 120 + self.code_lines / 10 + self.seconds / 60 + 3 * len(self.questions)


def _seconds(cell) -> float:
    timing = cell.get("metadata", {}).get("execution", {})
    start, end = timing.get("iopub.execute_input"), timing.get("shell.execute_reply")
    if not (start and end):
        return 0.0
    parse = lambda t: datetime.fromisoformat(t.replace("Z", "+00:00"))  # noqa: E731
    return max(0.0, (parse(end) - parse(start)).total_seconds())


def _findings(cell) -> list[str]:
    found = []
    for output in cell.get("outputs", []):
        text = output.get("data", {}).get("text/markdown", "")
        text = " ".join(text.split())
        if text and not text.startswith(("No guess written", "You guessed")):
            found.append(text)
    return found


def sections(executed) -> list[Section]:
    """The lesson's ``##`` sections, with what each holds, from an executed copy."""
    found: list[Section] = []
    for cell in executed.cells:
        source = re.sub(r"^<a id=[^>]*></a>\s*", "", cell.source)
        if cell.cell_type == "markdown" and source.startswith("## "):
            title = source.splitlines()[0][3:].strip()
            if title.startswith(CLOSING_HEADINGS):
                break
            found.append(Section(title))
        if not found:
            continue
        current = found[-1]
        if cell.cell_type == "markdown":
            current.words += len(source.split())
            if "predict" in cell.metadata.get("tags", []):
                current.questions.append(" ".join(source.split()).removeprefix("**Predict.** "))
        elif cell.cell_type == "code":
            current.code_lines += len(cell.source.splitlines())
            current.seconds += _seconds(cell)
            current.findings += _findings(cell)
    return found


def plan(parts: list[Section]) -> list[tuple[int, int, str]]:
    """``(start, end, what)`` minutes for a 90-minute lesson, in 5-minute steps."""
    teaching = LESSON_MINUTES - OPENING - CLOSING
    total = sum(p.weight for p in parts) or 1
    minutes = [max(5, round(teaching * p.weight / total / 5) * 5) for p in parts]
    while sum(minutes) > teaching:  # rounding up can overshoot: take from the longest
        minutes[minutes.index(max(minutes))] -= 5
    while sum(minutes) < teaching:
        minutes[minutes.index(min(minutes))] += 5
    rows, clock = [(0, OPENING, "Open: what you will learn, the device everyone has")], OPENING
    for part, length in zip(parts, minutes, strict=True):
        rows.append((clock, clock + length, part.title))
        clock += length
    rows.append((clock, LESSON_MINUTES, "Close: summary, glossary, homework"))
    return rows


def day_plan(executed) -> str:
    """The guide's Markdown for one executed lesson."""
    course = executed.metadata["course"]
    parts = sections(executed)
    lines = [
        f"### Day {course['day']} · {course['title']}",
        "",
        "| minutes | section |",
        "| --- | --- |",
    ]
    lines += [f"| {a}-{b} | {what} |" for a, b, what in plan(parts)]
    questions = [q for p in parts for q in p.questions]
    if questions:
        lines += ["", "Discussion prompts (the lesson's predict-then-run questions):", ""]
        lines += [f"- {q}" for q in questions[:3]]
    lines += ["", "Results to expect:", ""]
    for part in parts:
        if part.findings:
            first = part.findings[0]
            first = first if len(first) <= 300 else first[:297].rsplit(" ", 1)[0] + "..."
            lines.append(f"- *{part.title}*: {first}")
    return "\n".join(lines) + "\n"


def guide(executed: Path | None = None, *, check: bool = False) -> list[str]:
    """Write (or, with ``check``, compare) the day plans in the instructor guide from the executed
    lessons in ``executed`` (default ``build/course``). Returns the files that change."""
    executed = executed or paths.EXECUTED
    timings = executed / "timings.json"
    if not timings.is_file():
        raise FileNotFoundError(f"No {timings}: run `make course` first (it executes the lessons).")
    info = json.loads(timings.read_text(encoding="utf-8"))
    if info.get("mode") != "full":
        raise ValueError(f"{timings} holds {info.get('mode')}-mode runs; run `make course`.")
    plans, ran = [], {}
    for lesson in paths.lessons():
        relative = lesson.relative_to(paths.ROOT)
        copy = executed / relative
        if not copy.is_file():
            raise FileNotFoundError(f"No executed copy of {lesson.name} in {executed}.")
        entry = info.get("notebooks", {}).get(relative.as_posix(), {})
        ran.setdefault(entry.get("machine", info.get("machine", N_("this machine"))), []).append(
            lesson.name
        )
        plans.append(day_plan(nbformat.read(copy, as_version=4)))
    if len(ran) > 1:
        where = "; ".join(f"{', '.join(names)} on {machine}" for machine, names in ran.items())
        raise ValueError(
            f"The executed lessons in {executed} come from {len(ran)} machines ({where}): the "
            "guide's results must be one machine's. Run `make course` on the room's machine "
            "(every lesson), then this command."
        )
    (machine,) = ran
    plans.insert(0, RESULTS_FROM.format(machine=machine))
    text = paths.GUIDE.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise ValueError(f"{paths.GUIDE} needs the markers {START} and {END}")
    head, rest = text.split(START, 1)
    _plans, tail = rest.split(END, 1)
    new = f"{head}{START}\n" + "\n".join(plans) + f"{END}{tail}"
    if new == text:
        return []
    if not check:
        paths.GUIDE.write_text(new, encoding="utf-8")
    return [str(paths.GUIDE.relative_to(paths.ROOT))]
