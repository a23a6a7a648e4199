"""Student versions of the homework: ``python -m helpers release`` (``make student``).

Writes the student version of every master in ``instructor/homework/`` into ``notebooks/homework/``:
solutions replaced by a placeholder that raises ``NotImplementedError``, hidden tests removed,
model answers blanked, outputs cleared, metadata cut to the allow-list. The same master always
gives the same file, and a student notebook that holds someone's work is never overwritten without
``--force`` (which backs it up first).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from helpers.course import paths
from helpers.course.homework.markers import (
    BEGIN_HIDDEN,
    BEGIN_SOLUTION,
    END_HIDDEN,
    END_SOLUTION,
    MANUAL_PLACEHOLDER,
    PLACEHOLDER,
    Homework,
    parse,
    regions,
    replace_regions,
)
from helpers.course.notebooks.clean import clean

if TYPE_CHECKING:
    import nbformat


def student_version(master: Homework) -> nbformat.NotebookNode:
    """The student version of a parsed master (a new notebook; the master is left as it is)."""
    nb = clean(master.notebook)  # a master that was run and saved holds outputs and more
    for cell in nb.cells:
        lines = cell.source.splitlines()
        solutions = regions(lines, BEGIN_SOLUTION, END_SOLUTION, "cell")
        if cell.cell_type == "code":
            lines = replace_regions(lines, solutions, lambda indent: [indent + PLACEHOLDER])
            hidden = regions(lines, BEGIN_HIDDEN, END_HIDDEN, "cell")
            lines = replace_regions(lines, hidden, lambda indent: [])
        else:
            lines = replace_regions(lines, solutions, lambda indent: [MANUAL_PLACEHOLDER])
            cell.pop("attachments", None)
        cell.source = "\n".join(lines).rstrip("\n")
    return nb


def student_path(master_path: Path) -> Path:
    return paths.HOMEWORK / master_path.name


def holds_work(path: Path) -> bool:
    """Whether a student notebook holds someone's work: outputs, or an answer cell whose
    placeholder was replaced. Anything unreadable counts as work (never overwrite it)."""
    try:
        homework = parse(path)
    except Exception:  # noqa: BLE001 - unreadable or malformed: someone's, keep it
        return True
    cells = homework.notebook.cells
    if any(c.get("outputs") or c.get("execution_count") for c in cells if c.cell_type == "code"):
        return True
    exercises = [cells[p.cell].source for p in homework.exercises.values()]
    manual = [cells[p.cell].source for p in homework.manual.values()]
    return any(PLACEHOLDER not in s for s in exercises) or any(
        MANUAL_PLACEHOLDER not in s for s in manual
    )


def release_text(master_path: Path) -> str:
    """The exact text of a master's student version, as written to ``notebooks/homework/``."""
    import nbformat

    return nbformat.writes(student_version(parse(master_path))) + "\n"


def out_of_date(masters: list[Path] | None = None) -> list[Path]:
    """The student versions that are missing or differ from what :func:`release` would write."""
    masters = masters if masters is not None else paths.masters()
    return [
        student_path(m)
        for m in masters
        if not student_path(m).is_file()
        or student_path(m).read_text(encoding="utf-8") != release_text(m)
    ]


@dataclass
class Status:
    """Where one student version stands, and what to do about it."""

    path: Path
    state: str  # "current", "answered", "missing", "out of date" or "answered, out of date"
    advice: str = ""

    @property
    def ok(self) -> bool:
        return self.state in ("current", "answered")


def _answer_cells(nb) -> set[int]:
    from helpers.course.homework.markers import answer_cells

    exercises, manual = answer_cells(nb)
    return {*exercises.values(), *manual.values()}


def first_difference(answered, released) -> int | None:
    """The first cell (from 0) of ``released`` that ``answered`` does not hold unchanged, leaving
    the answer cells aside (matched by cell id; cells a learner added are ignored), or None."""
    answers = _answer_cells(released)
    theirs = {c.get("id"): c for c in answered.cells}
    for index, cell in enumerate(released.cells):
        mine = theirs.get(cell.get("id"))
        if mine is None or mine.cell_type != cell.cell_type:
            return index
        if index in answers:
            if mine.source.splitlines()[:1] != cell.source.splitlines()[:1]:  # its marker line
                return index
        elif mine.source != cell.source:
            return index
    return None


def status(master_path: Path) -> Status:
    """Whether the student version of ``master_path`` is current, answered or out of date."""
    import nbformat

    target = student_path(master_path)
    text = release_text(master_path)
    if not target.is_file():
        return Status(target, "missing", "run `make student` to write it")
    if target.read_text(encoding="utf-8") == text:
        return Status(target, "current")
    if not holds_work(target):
        return Status(target, "out of date", "run `make student` (it holds no answers to lose)")
    try:
        answered = nbformat.read(target, as_version=4)
    except Exception:  # noqa: BLE001 - unreadable: someone's work, never overwritten
        answered = nbformat.v4.new_notebook()
    cell = first_difference(answered, nbformat.reads(text, as_version=4))
    if cell is None:
        return Status(target, "answered", "holds your work on the current homework: nothing to do")
    return Status(
        target,
        "answered, out of date",
        f"holds your work, but its cell {cell + 1} is not the current homework's (the homework "
        "changed since it was written, or that cell was edited). Copy the notebook somewhere "
        "safe, run `python -m helpers release --force` (it keeps a backup in "
        "build/release-backup/), then copy your answers into the new version.",
    )


def statuses(masters: list[Path] | None = None) -> list[Status]:
    """:func:`status` of every master's student version."""
    masters = masters if masters is not None else paths.masters()
    return [status(m) for m in masters]


def release(masters: list[Path] | None = None, *, force: bool = False) -> list[Path]:
    """Write the student version of each master into ``notebooks/homework/``.

    A student notebook that already holds someone's work (outputs, or answers that differ from
    the placeholders) is left alone when its other cells are the current ones, and otherwise not
    overwritten unless ``force``; with ``force`` it is first copied to ``build/release-backup/``.
    Returns the paths written.
    """
    masters = masters if masters is not None else paths.masters()
    if not masters:
        raise FileNotFoundError(f"No masters (day*_homework.ipynb) in {paths.MASTERS}.")
    written = []
    for master_path in masters:
        text = release_text(master_path)
        target = student_path(master_path)
        if target.exists():
            state = status(master_path).state
            if state in ("current", "answered"):  # nothing new to write over the answers
                continue
            if state == "answered, out of date":
                if not force:
                    raise FileExistsError(
                        f"{target} holds answers or outputs; release would overwrite them. Copy "
                        "your work elsewhere, or run `python -m helpers release --force`, which "
                        "saves a backup in build/release-backup/ first."
                    )
                backup = paths.RELEASE_BACKUPS / time.strftime("%Y%m%d-%H%M%S")
                backup.mkdir(parents=True, exist_ok=True)
                shutil.copy2(target, backup / target.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        written.append(target)
    return written
