"""The homework format: markers in a notebook, parsed and checked.

The format (see CONVENTIONS.md) uses nbgrader's markers, so an instructor can move to nbgrader:

* an answer cell starts with ``# EXERCISE <id>`` (ids like ``day04.preprocessor``) and wraps the
  solution in ``### BEGIN SOLUTION`` / ``### END SOLUTION``;
* a test cell starts with ``# TEST <id> (<points> points)``; checks learners must not see sit
  between ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``;
* a free-text answer is a Markdown cell starting with ``MANUAL <id> (<points> points)``, its model
  answer between ``### BEGIN SOLUTION`` / ``### END SOLUTION``.

A test cell may read :data:`WALL_SECONDS`, the time its last statement took by the clock of
whoever runs the tests.

Student versions are made by :mod:`.release`; learners' self-checks are run by :mod:`.checks`;
grading by :mod:`helpers.course.grading.grader`.
"""

from __future__ import annotations

import ast
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from helpers.course.paths import DAY

if TYPE_CHECKING:  # nbformat takes seconds to import: only the functions that need it do
    import nbformat

ID = rf"{DAY}\.[a-z][a-z0-9_]*"
EXERCISE_RE = re.compile(rf"^# EXERCISE (?P<id>{ID})\s*$")
TEST_RE = re.compile(rf"^# TEST (?P<id>{ID}) \((?P<points>\d+(?:\.\d+)?) points?\)\s*$")
MANUAL_RE = re.compile(rf"^MANUAL (?P<id>{ID}) \((?P<points>\d+(?:\.\d+)?) points?\)\s*$")
MARKER_RE = re.compile(r"^\s*(# EXERCISE|# TEST|MANUAL)\b")

BEGIN_SOLUTION, END_SOLUTION = "### BEGIN SOLUTION", "### END SOLUTION"
BEGIN_HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
PLACEHOLDER = 'raise NotImplementedError("write your answer here")'
WALL_SECONDS = "wall_seconds"
"""A name every test cell can read: the wall-clock seconds its last statement (not an
``assert``) took, measured by the process that decides the checks. In grading that is the
examiner, outside the sandbox, so an answer cannot change it: a test that must know an answer
really waited (``assert wall_seconds > 0.5``) reads it instead of a record kept beside the
answer. In ``check()`` it is the learner's own kernel's clock."""
MANUAL_PLACEHOLDER = "*Write your answer here, in place of this line.*"
MANUAL_PLACEHOLDERS = {"en": MANUAL_PLACEHOLDER, "zh": "*在这里作答，替换这一行（可用中文作答）。*"}
"""The free-text answer's placeholder in each edition (the Chinese edition's student versions
carry their own, which says that an answer in Chinese is welcome); every one of them counts as
no answer."""


class HomeworkFormatError(ValueError):
    """A homework notebook breaks the format; the message names the cell (counting from 1)."""


@dataclass
class Part:
    """One marked cell: an exercise, its test, or a manual (free-text) question."""

    kind: str  # "exercise", "test" or "manual"
    id: str
    cell: int  # index in the notebook, from 0
    points: float = 0.0


@dataclass
class Homework:
    """A parsed homework notebook."""

    path: Path | None
    notebook: nbformat.NotebookNode
    exercises: dict[str, Part] = field(default_factory=dict)
    tests: dict[str, Part] = field(default_factory=dict)
    manual: dict[str, Part] = field(default_factory=dict)

    @property
    def points(self) -> float:
        return sum(p.points for p in [*self.tests.values(), *self.manual.values()])

    def source(self, part: Part) -> str:
        return self.notebook.cells[part.cell].source


def regions(lines: list[str], begin: str, end: str, where: str) -> list[tuple[int, int]]:
    """Line ranges ``(begin, end)`` of the marked regions; raises on unbalanced or nested ones."""
    found, start = [], None
    for number, line in enumerate(lines):
        text = line.strip()
        if text == begin:
            if start is not None:
                raise HomeworkFormatError(
                    f"{where}: '{begin}' on line {number + 1} before the '{end}' of the one on "
                    f"line {start + 1}; close each region before opening the next."
                )
            start = number
        elif text == end:
            if start is None:
                raise HomeworkFormatError(
                    f"{where}: '{end}' on line {number + 1} without a '{begin}' before it."
                )
            found.append((start, number))
            start = None
    if start is not None:
        raise HomeworkFormatError(
            f"{where}: '{begin}' on line {start + 1} is never closed by '{end}'."
        )
    return found


def parse(notebook: nbformat.NotebookNode | str | Path) -> Homework:
    """Read a homework notebook (a master or a student version) and check its format.

    Raises:
        HomeworkFormatError: a malformed marker, unbalanced ``BEGIN``/``END`` markers, a duplicate
            id, an exercise without a test, or a test for an unknown exercise, with the cell number.
    """
    path = None
    if isinstance(notebook, str | Path):
        import nbformat

        path = Path(notebook)
        if not path.is_file():
            raise FileNotFoundError(f"No homework notebook at {path}.")
        notebook = nbformat.read(path, as_version=4)
    homework = Homework(path, notebook)
    name = path.name if path else "notebook"
    for index, cell in enumerate(notebook.cells):
        _read_cell(homework, cell, index, f"{name}, cell {index + 1}")
    _check_pairs(homework, name)
    return homework


def _read_cell(homework: Homework, cell, index: int, where: str) -> None:
    """Add one cell's marker (if any) to ``homework``, checking the cell's markers and regions."""
    lines = cell.source.splitlines()
    first = lines[0].strip() if lines else ""
    for number, line in enumerate(lines[1:], start=2):
        if MARKER_RE.match(line) and (
            EXERCISE_RE.match(line) or TEST_RE.match(line) or MANUAL_RE.match(line)
        ):
            raise HomeworkFormatError(
                f"{where}: the marker {line.strip()!r} is on line {number}; it must be the "
                "first line of its own cell."
            )
    if cell.cell_type == "code":
        if match := EXERCISE_RE.match(first):
            _add(homework.exercises, Part("exercise", match["id"], index), where)
        elif match := TEST_RE.match(first):
            _add(homework.tests, Part("test", match["id"], index, float(match["points"])), where)
        elif first.startswith(("# EXERCISE", "# TEST")):
            raise HomeworkFormatError(
                f"{where}: {first!r} is not a valid marker; write '# EXERCISE day00.name' or "
                "'# TEST day00.name (2 points)' (ids: dayNN.lowercase_name; a lettered lesson's: "
                "dayNNa.lowercase_name)."
            )
        regions(lines, BEGIN_SOLUTION, END_SOLUTION, where)
        regions(lines, BEGIN_HIDDEN, END_HIDDEN, where)
    elif cell.cell_type == "markdown":
        if match := MANUAL_RE.match(first):
            _add(homework.manual, Part("manual", match["id"], index, float(match["points"])), where)
        elif first.startswith("MANUAL"):
            raise HomeworkFormatError(
                f"{where}: {first!r} is not a valid marker; write 'MANUAL day00.name (1 point)'."
            )
        regions(lines, BEGIN_SOLUTION, END_SOLUTION, where)


def _check_pairs(homework: Homework, name: str) -> None:
    """Every exercise has a test after it, every test an exercise, and no id is used twice."""
    for exercise_id, part in homework.exercises.items():
        if exercise_id in homework.manual:
            raise HomeworkFormatError(
                f"{name}, cell {part.cell + 1}: the id {exercise_id!r} is also used by the MANUAL "
                f"question in cell {homework.manual[exercise_id].cell + 1}; ids must be unique."
            )
        if exercise_id not in homework.tests:
            raise HomeworkFormatError(
                f"{name}, cell {part.cell + 1}: exercise {exercise_id!r} has no test; add a cell "
                f"starting '# TEST {exercise_id} (1 point)'."
            )
    for test_id, part in homework.tests.items():
        if test_id not in homework.exercises:
            known = ", ".join(homework.exercises) or "none"
            raise HomeworkFormatError(
                f"{name}, cell {part.cell + 1}: a test for {test_id!r}, which is not an exercise "
                f"here (exercises: {known})."
            )
        if part.cell < homework.exercises[test_id].cell:
            raise HomeworkFormatError(
                f"{name}, cell {part.cell + 1}: the test for {test_id!r} comes before its exercise "
                f"(cell {homework.exercises[test_id].cell + 1}); put it after."
            )


def answer_cells(notebook: nbformat.NotebookNode) -> tuple[dict[str, int], dict[str, int]]:
    """Where a submitted notebook's answers are: ``({exercise id: cell}, {manual id: cell})``.

    Lenient, unlike :func:`parse`: only the first line of each cell counts, so a submission whose
    test cells were deleted or edited, or whose answers contain stray markers, is still read. When
    an id appears twice, the first cell wins.
    """
    exercises: dict[str, int] = {}
    manual: dict[str, int] = {}
    for index, cell in enumerate(notebook.cells):
        first = cell.source.splitlines()[0].strip() if cell.source.strip() else ""
        if cell.cell_type == "code" and (match := EXERCISE_RE.match(first)):
            exercises.setdefault(match["id"], index)
        elif cell.cell_type == "markdown" and (match := MANUAL_RE.match(first)):
            manual.setdefault(match["id"], index)
    return exercises, manual


def _add(parts: dict[str, Part], part: Part, where: str) -> None:
    if part.id in parts:
        raise HomeworkFormatError(
            f"{where}: duplicate id {part.id!r} (already used by the {part.kind} in cell "
            f"{parts[part.id].cell + 1})."
        )
    parts[part.id] = part


def replace_regions(lines: list[str], regions: list[tuple[int, int]], make) -> list[str]:
    """Replace each region (markers included) by ``make(indent)`` lines."""
    out, last = [], 0
    for begin, end in regions:
        out += lines[last:begin]
        indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
        out += make(indent)
        last = end + 1
    return out + lines[last:]


def strip_hidden(source: str) -> str:
    """A test cell's source without its hidden tests."""
    lines = source.splitlines()
    return "\n".join(
        replace_regions(lines, regions(lines, BEGIN_HIDDEN, END_HIDDEN, "cell"), lambda i: [])
    )


def hidden_lines(source: str) -> set[int]:
    """The line numbers (from 1) of a test cell inside hidden-test regions, markers included."""
    found = regions(source.splitlines(), BEGIN_HIDDEN, END_HIDDEN, "cell")
    return {n + 1 for begin, end in found for n in range(begin, end + 1)}


RUBRIC_RE = re.compile(r"^\*\*Rubric \((?P<points>\d+(?:\.\d+)?) points?\):?\*\*:?\s*$")
CRITERION_RE = re.compile(r"^- (?P<points>\d+(?:\.\d+)?) points?: .+")


def rubric(source: str) -> tuple[str, float] | None:
    r"""A MANUAL question's rubric from its master: the text from its ``**Rubric (N points)**``
    line to the end of the solution, and the sum of the criteria's points (``- 1 point: ...``).

    >>> rubric("MANUAL day09.q (1 point)\n### BEGIN SOLUTION\nModel answer.\n\n"
    ...        "**Rubric (1 point)**\n- 0.5 point: one idea.\n- 0.5 point: another.\n"
    ...        "### END SOLUTION")
    ('- 0.5 point: one idea. / - 0.5 point: another.', 1.0)
    """
    lines = source.splitlines()
    start = next((i for i, line in enumerate(lines) if RUBRIC_RE.match(line.strip())), None)
    if start is None:
        return None
    criteria: list[str] = []
    for line in lines[start + 1 :]:
        if line.strip() == END_SOLUTION:
            break
        if line.startswith((" ", "\t")) and criteria:  # a criterion wrapped onto the next line
            criteria[-1] += " " + line.strip()
        elif line.strip():
            criteria.append(line.strip())
    points = sum(float(m["points"]) for c in criteria if (m := CRITERION_RE.match(c)))
    return " / ".join(criteria), points


# -- what a test's assert says, as a template ------------------------------------------------------


def message_template(node: ast.Assert, source: str) -> str | None:
    """The message of ``node`` (an ``assert`` in ``source``) as the test writes it: a literal as it
    is; an f-string with each ``{...}`` kept as written (``f"got {n!r}"``: ``"got {n!r}"``), so
    a translator sees what goes there. None for a message computed another way, or one whose
    placeholders ``str.format`` could not read.

    >>> code = 'assert n == 2, f"it has {n!r} rows, {{not}} 2"'
    >>> message_template(ast.parse(code).body[0], code)
    'it has {n!r} rows, {{not}} 2'
    """
    message = node.msg
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        parts = [message.value.replace("{", "{{").replace("}", "}}")]
    elif isinstance(message, ast.JoinedStr):
        parts = []
        for value in message.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
                continue
            spec = value.format_spec
            if spec is not None and not all(isinstance(v, ast.Constant) for v in spec.values):
                return None  # a computed format (f"{x:{width}}")
            expression = ast.get_source_segment(source, value.value) or ast.unparse(value.value)
            conversion = f"!{chr(value.conversion)}" if value.conversion > 0 else ""
            shown = ":" + "".join(str(v.value) for v in spec.values) if spec is not None else ""
            parts.append("{" + expression + conversion + shown + "}")
    else:
        return None
    template = "".join(parts)
    try:
        list(string.Formatter().parse(template))
    except ValueError:
        return None
    return template


def assert_messages(source: str) -> list[tuple[int, str]]:
    r"""``(line, template)`` of each assert with a message in a test cell's *visible* part (what
    :func:`helpers.course.homework.checks.check` can show), in order: the catalog holds their
    translations, and ``check()`` shows the translation beside the English.

    >>> assert_messages('x = 1\nassert x == 1, "x is one"\n### BEGIN HIDDEN TESTS\n'
    ...               'assert x, "secret"\n### END HIDDEN TESTS')
    [(2, 'x is one')]
    """
    visible = strip_hidden(source)
    try:
        tree = ast.parse(visible)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            template = message_template(node, visible)
            if template is not None:
                found.append((node.lineno, template))
    return sorted(found)


def _pieces(template: str) -> list[tuple[str, str | None]]:
    """``(literal text, placeholder as written)`` pairs of a template."""
    pieces = []
    for literal, name, spec, conversion in string.Formatter().parse(template):
        if name is None:
            pieces.append((literal, None))
            continue
        shown = name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
        pieces.append((literal, shown))
    return pieces


def values_in(template: str, message: str) -> dict[str, str] | None:
    """What each placeholder of ``template`` stands for in ``message`` (the English as the
    assert raised it), or None when ``message`` is not that template's.

    >>> values_in("it has {n!r} rows, not {m}", "it has 3 rows, not 2")
    {'n!r': '3', 'm': '2'}
    >>> values_in("it has {n} rows", "something else") is None
    True
    """
    pattern, names = "", []
    for literal, shown in _pieces(template):
        pattern += re.escape(literal)
        if shown is not None:
            pattern += "(.*?)"
            names.append(shown)
    found = re.fullmatch(pattern, message, flags=re.S)
    if found is None:
        return None
    values: dict[str, str] = {}
    for name, value in zip(names, found.groups(), strict=True):
        values.setdefault(name, value)
    return values


def filled(template: str, values: dict[str, str]) -> str:
    """``template`` (a translation) with its placeholders replaced by ``values``.

    >>> filled("{n!r} 行，不是 {m}", {"n!r": "3", "m": "2"})
    '3 行，不是 2'
    """
    return "".join(
        literal + (values.get(shown, "{" + shown + "}") if shown is not None else "")
        for literal, shown in _pieces(template)
    )
