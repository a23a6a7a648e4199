"""Finding the submissions in a folder: names checked whole, links and duplicates reported.

Submissions are files named ``<student>_dayNN_homework.ipynb`` or folders
``<student>/dayNN_homework.ipynb``. Anything else is reported, not graded: other names (a name
with a line break in it is not a student's), symbolic links (never followed: a link to the master
or to a private file would have the grader read it), and two submissions of one homework by one
student (neither is graded, so that no one's feedback overwrites another's).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from helpers.course.grading.escape import shown
from helpers.course.paths import DAY

FILE_RE = re.compile(
    rf"^(?P<student>[A-Za-z0-9][A-Za-z0-9_.-]*?)_(?P<homework>{DAY}_homework)\.ipynb$"
)
FOLDER_FILE_RE = re.compile(rf"^(?P<homework>{DAY}_homework)\.ipynb$")
STUDENT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass
class Submission:
    student: str
    homework: str  # e.g. "day00_homework"
    path: Path


def find_submissions(folder: Path) -> tuple[list[Submission], list[str]]:
    """The submissions in ``folder`` (files or per-student folders), and what else is there."""
    if not folder.is_dir():
        raise FileNotFoundError(f"No submissions folder at {folder}.")
    found, other = [], []
    link = "a symbolic link: links are not followed (hand in the file itself)"
    for path in sorted(folder.iterdir()):
        if path.name.startswith("."):
            continue
        if path.is_symlink():
            other.append(f"{shown(path.name)}: {link}")
        elif path.is_file() and (match := FILE_RE.fullmatch(path.name)):
            found.append(Submission(match["student"], match["homework"], path))
        elif path.is_dir() and STUDENT_RE.fullmatch(path.name):
            for inner in sorted(path.iterdir()):
                name = shown(f"{path.name}/{inner.name}")
                if inner.is_symlink():
                    other.append(f"{name}: {link}")
                elif inner.is_file() and (match := FOLDER_FILE_RE.fullmatch(inner.name)):
                    found.append(Submission(path.name, match["homework"], inner))
                elif not inner.name.startswith("."):
                    other.append(f"{name}: not named dayNN_homework.ipynb")
        else:
            other.append(
                f"{shown(path.name)}: not a submission (expected <student>_dayNN_homework.ipynb "
                "or a folder <student>/ holding dayNN_homework.ipynb)"
            )
    by_key: dict[tuple[str, str], list[Submission]] = {}
    for submission in found:
        by_key.setdefault((submission.student, submission.homework), []).append(submission)
    for (student, homework), same in by_key.items():
        if len(same) > 1:
            where = " and ".join(str(s.path.relative_to(folder)) for s in same)
            other.append(
                f"{student}: {len(same)} submissions of {homework} ({where}); none was graded: "
                "keep one and grade again"
            )
    found = [s for s in found if len(by_key[(s.student, s.homework)]) == 1]
    return found, other


def read_safely(path: Path) -> bytes:
    """The file's bytes, never through a symbolic link (``OSError`` for a link)."""
    handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(handle, "rb") as file:
        return file.read()
