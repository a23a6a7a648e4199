"""No import circles among the package's modules.

The graph is read from the source (``ast``), not from what Python imports at run time. An edge
``a -> b`` means that module ``a`` holds an import of module ``b``:

* ``import b`` and ``import b as c`` (``import helpers.x.y`` names ``helpers.x.y``);
* ``from b import name`` and relative ``from . import name`` / ``from .b import name``:
  ``b.name`` when that is a module of the package, else ``b``;
* wherever the statement is: at module level, inside a function or method, under
  ``if TYPE_CHECKING:``, in ``try``. An import moved into a function still makes the two modules
  depend on each other: it only hides the circle from Python until the function runs.

Not counted: the parent packages that Python initialises on the way (``import helpers.x.y``
runs ``helpers/x/__init__.py`` too; a package that re-exports its own submodules would otherwise
always be a circle), ``importlib.import_module`` with a computed name, and modules outside
``src/helpers``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import paths

SRC = paths.ROOT / "src"


def modules(src: Path, package: str = "helpers") -> dict[str, Path]:
    """Every module of ``package`` under ``src``, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted((src / package).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The modules among ``known`` that module ``name`` (at ``path``) imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")
                elif base in known:
                    found.add(base)
    return found - {name}


def graph(src: Path, package: str = "helpers") -> dict[str, set[str]]:
    known = modules(src, package)
    return {name: imports_of(name, path, known) for name, path in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that import each other (a strongly connected
    component of more than one module), as ``[a, b, ..., a]``, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the package is far from recursion's limit
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(_circle_in(group, edges) for group in groups)


def _circle_in(group: set[str], edges: dict[str, set[str]]) -> list[str]:
    """The shortest circle from the group's first module (by name) back to it."""
    start = min(group)
    paths_from = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for other in sorted(edges[node] & group):
                if other == start:
                    return [*paths_from[node], start]
                if other not in paths_from:
                    paths_from[other] = [*paths_from[node], other]
                    following.append(other)
        frontier = following
    raise AssertionError(f"no circle in {sorted(group)}")  # a component always has one


def test_the_package_has_no_import_circle():
    found = circles(graph(SRC))
    assert found == [], "import circles: " + "; ".join(" -> ".join(c) for c in found)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, source in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return tmp_path


def test_a_circle_through_a_function_or_type_checking_import_is_found(tmp_path):
    src = _package(
        tmp_path,
        {
            "__init__.py": "from pkg import a\n",  # a package re-exporting: not a circle
            "a.py": "from pkg.b import thing\n",
            "b.py": "def f():\n    from pkg import c\n",
            "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
            "d.py": "import pkg.a\nimport os\n",
            "sub/__init__.py": "",
            "sub/e.py": "from ..d import x\nfrom .. import a\n",
        },
    )
    edges = graph(src, "pkg")
    assert edges == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg.c"},
        "pkg.c": {"pkg.a"},
        "pkg.d": {"pkg.a"},
        "pkg.sub": set(),
        "pkg.sub.e": {"pkg.d", "pkg.a"},
    }
    assert circles(edges) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_two_separate_circles_are_both_named():
    edges = {"x": {"y"}, "y": {"x", "z"}, "z": set(), "p": {"q"}, "q": {"r"}, "r": {"p", "q"}}
    assert circles(edges) == [["p", "q", "r", "p"], ["x", "y", "x"]]
