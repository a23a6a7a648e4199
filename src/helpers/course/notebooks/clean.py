"""A clean notebook: no outputs, no execution counts, metadata cut to the course's allow-list.

The one place that says what a committed notebook may hold. Release (student versions), submit
(the copy a learner hands in), outline and edition (lessons and translations written back) clean
with :func:`clean`, and the repository's rules (``tests/test_project.py``) check every notebook
with :func:`unclean`.

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(metadata={"widgets": {}})
>>> nb.cells = [nbformat.v4.new_code_cell("1 + 1", execution_count=3, metadata={"scrolled": True})]
>>> for problem in unclean(nb):
...     print(problem)
notebook metadata beyond the allow-list: widgets
cell 0: metadata beyond the allow-list: scrolled
cell 0: execution count 3
>>> unclean(clean(nb)), nb.cells[0].execution_count  # clean works on a copy
([], 3)
"""

from __future__ import annotations

import copy

import nbformat

CELL_METADATA = frozenset({"tags", "slideshow", "nbgrader", "jupyter"})
"""What a cell's metadata may hold (``jupyter``: only ``source_hidden``, a collapsed cell)."""
JUPYTER_METADATA = frozenset({"source_hidden"})
NOTEBOOK_METADATA = frozenset({"kernelspec", "language_info", "course"})
COURSE_METADATA = frozenset({"day", "title", "minutes", "device"})
"""A lesson's ``course`` metadata (see :mod:`.outline`)."""
LANGUAGE_INFO = ("name", "pygments_lexer")
"""What the course keeps of ``language_info`` (a run adds the Python version and more)."""

_NESTED = {"jupyter": JUPYTER_METADATA}
_NOTEBOOK_NESTED = {"course": COURSE_METADATA, "language_info": frozenset(LANGUAGE_INFO)}


def _cut(metadata: dict, allowed: frozenset, nested: dict) -> dict:
    kept = {k: copy.deepcopy(v) for k, v in metadata.items() if k in allowed}
    for key, inner in nested.items():
        if isinstance(kept.get(key), dict):
            kept[key] = {k: v for k, v in kept[key].items() if k in inner}
    return nbformat.from_dict(kept)


def clean(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` without outputs or execution counts, its metadata cut to the allow-list
    (``nb`` is left as it is)."""
    out = copy.deepcopy(nb)
    out.metadata = _cut(nb.metadata, NOTEBOOK_METADATA, _NOTEBOOK_NESTED)
    for cell in out.cells:
        cell.metadata = _cut(cell.metadata, CELL_METADATA, _NESTED)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return out


def _beyond(metadata: dict, allowed: frozenset, nested: dict) -> list[str]:
    extra = sorted(set(metadata) - allowed)
    extra += [
        f"{key}.{k}"
        for key, inner in nested.items()
        if isinstance(metadata.get(key), dict)
        for k in sorted(set(metadata[key]) - inner)
    ]
    return extra


def unclean(nb: dict) -> list[str]:
    """What keeps ``nb`` (a notebook, or its JSON as a dict) from being clean, one line each."""
    found = []
    if extra := _beyond(nb.get("metadata", {}), NOTEBOOK_METADATA, _NOTEBOOK_NESTED):
        found.append(f"notebook metadata beyond the allow-list: {', '.join(extra)}")
    for index, cell in enumerate(nb.get("cells", [])):
        if extra := _beyond(cell.get("metadata", {}), CELL_METADATA, _NESTED):
            found.append(f"cell {index}: metadata beyond the allow-list: {', '.join(extra)}")
        if cell.get("cell_type") == "code" and cell.get("outputs"):
            found.append(f"cell {index}: outputs")
        if cell.get("cell_type") == "code" and cell.get("execution_count") is not None:
            found.append(f"cell {index}: execution count {cell['execution_count']}")
    return found
