"""What grading found, as data: shared by the grading modules and the examining process.

:class:`Check` is one statement of a test cell and how it went; :class:`Outcome` is one exercise:
its status, the reason, and its checks. Both travel as JSON between processes. :class:`Limits`
bounds the grading of one submission, :class:`Result` is what grading it produced (its outcomes,
its rows for ``manual.csv``, why it was not graded) and :class:`Control` is a master graded as a
submission of its own solutions: :mod:`.submission` and :mod:`.grader` make them,
:mod:`.report` writes them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from helpers.course.grading.collect import Submission
from helpers.course.grading.escape import steady

STATUSES = {
    "passed": "every check passed",
    "failed": "a check failed",
    "error": "the answer raised an error (or was not answered)",
    "timeout": "the answer ran past its time limit",
    "memory": "the answer ran out of memory",
    "crashed": "the process running the answer died",
    "violation": "the process running the answer broke the grader's protocol",
    "missing": "no answer cell for this exercise",
    "changed": "the submitted file changed while it was graded",
    "invalid": "the file is not a readable notebook",
    "wrong homework": "the file holds another homework's answers",
    "not graded": "the grader could not grade it (see the reason)",
    "manual": "a free-text answer, graded by hand",
}
"""Every status an exercise can have, with what it means."""


@dataclass
class Check:
    """One statement of a test cell and how it went."""

    statement: str
    status: str  # "passed", "failed", "error", "not answered", "not run"
    reason: str = ""
    test: bool = True  # an assert (a check), not a set-up statement
    hidden: bool = False  # from a hidden-test region: never shown to learners


@dataclass
class Outcome:
    """How one exercise of one submission went."""

    exercise: str
    status: str
    reason: str = ""
    checks: list[Check] = field(default_factory=list)
    log: str = ""
    """For a crash: the last lines the runner wrote to its error output (bounded)."""

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}")

    def to_dict(self) -> dict:
        return asdict(self)

    def steadied(self) -> Outcome:
        """The same outcome with what differs from one grading run to the next (memory
        addresses in the answer's errors and the runner's last words) written the same way
        (:func:`.escape.steady`): grading a submission twice writes the same files."""
        checks = [replace(c, reason=steady(c.reason)) for c in self.checks]
        return replace(self, reason=steady(self.reason), checks=checks, log=steady(self.log))

    @classmethod
    def from_dict(cls, data: dict) -> Outcome:
        checks = [Check(**c) for c in data.get("checks", [])]
        reason, log = data.get("reason", ""), data.get("log", "")
        return cls(data["exercise"], data["status"], reason, checks, log)

    @classmethod
    def from_checks(cls, exercise: str, checks: list[Check]) -> Outcome:
        """Passed when there is at least one check and every statement passed."""
        tests = [c for c in checks if c.test or c.status != "passed"]
        passed = bool(tests) and all(c.status == "passed" for c in tests)
        return cls(exercise, "passed" if passed else "failed", "", checks)


@dataclass
class Limits:
    """Time and memory limits for grading one submission."""

    cell_seconds: float = 60.0
    notebook_seconds: float = 600.0
    memory_mb: int = 4096


@dataclass
class Result:
    """What grading one submission produced."""

    submission: Submission
    outcomes: list[Outcome] = field(default_factory=list)
    manual: list[dict] = field(default_factory=list)  # rows for manual.csv
    problem: str | None = None  # why it could not be graded, for report.txt
    blocked: bool = False  # its homework's control failed: nobody was graded for it
    seconds: float = 0.0


@dataclass
class Control:
    """A master graded as a submission of its own solutions, before the class."""

    result: Result
    seconds: float

    @property
    def passed(self) -> bool:
        return bool(self.result.outcomes) and all(
            o.status in ("passed", "manual") for o in self.result.outcomes
        )
