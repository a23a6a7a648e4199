"""Splitting a test cell so that no check is decided where answer code runs.

A test cell is a list of statements. Graded, each one goes where it must:

* a statement that mentions an *answer name* (a name an exercise cell defines) or a *tainted* name
  (one such a statement assigned, or an object it was handed and may have changed) runs only in
  the sandbox, beside the answers;
* every other statement runs in both processes, so each holds the same reference values;
* an ``assert`` is decided by the grader: the parts of its condition that involve answers are
  evaluated in the sandbox and come back as plain data; the rest (comparisons, ``torch.allclose``,
  ``isinstance``, references, literals, ``is True``/``is None``) is evaluated by the grader on that
  data. Its message is the grader's too: parts that involve answers are shown as written
  (``{found}``), never evaluated where answer code runs.

The grader sends a statement that runs in both processes to the sandbox only when a later
statement there needs what it binds or changes (see :func:`effects`), so references the grader
builds for itself (a model trained the right way) never exist beside the answers.

For example ``assert torch.allclose(mine.weight.grad, reference.weight.grad)`` after
``accumulate(mine, X, y, 4)`` sends ``mine.weight.grad`` to the sandbox and compares it, in the
grader, with the grader's own ``reference.weight.grad``.

>>> plan = Planner({"area"})
>>> [s.where for s in plan.steps("side = 3\\nresult = area(side)\\nassert result == 9", {})]
['both', 'sandbox', 'assert']
>>> plan.steps("assert area(2) == 4 and side > 0", {"side": 3})[0].captures
['area(2)']
>>> plan.steps("assert area(1) is True", {})[0].captures
['area(1)']
"""

from __future__ import annotations

import ast
import types
from dataclasses import dataclass, field

import torch

CAPTURE = "__answer_{}"
UNCHANGEABLE = (
    types.ModuleType,
    type,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    int,
    float,
    complex,
    str,
    bytes,
    bool,
    tuple,
    frozenset,
    type(None),
    torch.dtype,
    torch.device,
)
"""Values a statement cannot change in place: handing one to answer code does not taint it."""


def bound_names(tree: ast.AST) -> set[str]:
    """Names a piece of code binds at its top level (assignments, imports, defs, loop targets)."""
    found: set[str] = set()
    body = tree.body if isinstance(tree, ast.Module) else [tree]
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found |= {(a.asname or a.name).split(".")[0] for a in node.names}
            continue
        for child in _walk_scope(node):
            if isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store):
                found.add(child.id)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found.add(child.name)
            elif isinstance(child, ast.Import | ast.ImportFrom):
                found |= {(a.asname or a.name).split(".")[0] for a in child.names}
    return found


def _walk_scope(node: ast.AST):
    """Like ``ast.walk``, but not into nested functions, lambdas or comprehensions."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        for child in ast.iter_child_nodes(current):
            nested = (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.ClassDef,
                ast.Lambda,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            )
            if not isinstance(child, nested):
                todo.append(child)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                yield child


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def effects(node: ast.stmt, namespace: dict) -> set[str]:
    """Names whose values ``node`` may bind or change: what it assigns, the objects it assigns
    into (``a.b = ...``, ``a[0] = ...``) and the objects whose methods (or which themselves) it
    calls, modules aside. An object handed to a function as an argument is assumed unchanged
    (``loss(reference(X), y).backward()`` changes ``reference``, not ``X``): the grader's control
    run, the master's own solutions graded first, fails where a master breaks that assumption.

    >>> sorted(effects(ast.parse("mine.load_state_dict(reference.state_dict())").body[0], {}))
    ['mine', 'reference']
    """
    found = bound_names(node)
    for child in ast.walk(node):
        targets = []
        if isinstance(child, ast.Assign):
            targets = child.targets
        elif isinstance(child, ast.AugAssign | ast.AnnAssign):
            targets = [child.target]
        elif isinstance(child, ast.Call):
            targets = [child.func]
        for target in targets:
            while isinstance(target, ast.Attribute | ast.Subscript):
                target = target.value
            if isinstance(target, ast.Name):
                module = isinstance(namespace.get(target.id), types.ModuleType)
                if not (module and isinstance(child, ast.Call)):  # torch.manual_seed(0): no
                    found.add(target.id)
    return found


def names(node: ast.AST) -> set[str]:
    """Every name ``node`` mentions."""
    return _names(node)


def split_statements(source: str) -> list[ast.stmt]:
    """The cell's top-level statements; ``a, b = f(), g()`` becomes ``a = f()`` and ``b = g()``,
    so that a reference built beside an answer is not mistaken for the answer's."""
    statements = []
    for node in ast.parse(source).body:
        pairs = isinstance(node, ast.Assign) and len(node.targets) == 1
        pairs = (
            pairs and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple)
        )
        if pairs and len(node.targets[0].elts) == len(node.value.elts):
            no_starred = not any(isinstance(e, ast.Starred) for e in node.targets[0].elts)
            if no_starred:
                for target, value in zip(node.targets[0].elts, node.value.elts, strict=True):
                    single = ast.Assign(targets=[target], value=value, lineno=node.lineno)
                    statements.append(ast.fix_missing_locations(ast.copy_location(single, node)))
                continue
        statements.append(node)
    return statements


@dataclass
class Step:
    """One statement of a test cell and where it runs."""

    where: str  # "both", "sandbox" or "assert"
    source: str
    line: int
    captures: list[str] = field(default_factory=list)
    """For an assert: the expressions the sandbox evaluates, in order."""
    test: ast.expr | None = None
    """For an assert: its condition, with each captured expression replaced by a name."""
    message: ast.expr | None = None
    """For an assert: its message, to evaluate where the grader runs (see :func:`template`)."""
    text: str = ""
    """The statement as written in the cell, for reports."""


class Planner:
    """Decides, statement by statement, where each statement of the test cells runs."""

    def __init__(self, answers: set[str]) -> None:
        self.tainted = set(answers)

    def steps(self, source: str, namespace: dict) -> list[Step]:
        """Plan a whole cell (the grader plans statement by statement, see :meth:`step`)."""
        return [self.step(node, namespace) for node in split_statements(source)]

    def step(self, node: ast.stmt, namespace: dict) -> Step:
        """Where ``node`` runs; ``namespace`` is the grader's, as it is just before ``node``."""
        source = ast.unparse(node)
        if isinstance(node, ast.Assert):
            captures: list[str] = []
            test = self._rewrite(node.test, captures)
            message = None if node.msg is None else template(node.msg, self.tainted)
            return Step("assert", source, node.lineno, captures, test, message)
        loads = _names(node)
        stores = bound_names(node)
        if not loads & self.tainted:
            self.tainted -= stores
            return Step("both", source, node.lineno)
        handed = {n for n in loads if n in namespace and not isinstance(namespace[n], UNCHANGEABLE)}
        self.tainted |= stores | handed
        return Step("sandbox", source, node.lineno)

    def _capture(self, node: ast.expr, captures: list[str]) -> ast.expr:
        text = ast.unparse(node)
        captures.append(f"list({text})" if isinstance(node, ast.GeneratorExp) else text)
        return ast.Name(CAPTURE.format(len(captures) - 1), ast.Load())

    def _rewrite_identity(self, node: ast.Compare, captures: list[str]) -> ast.expr:
        """``x is True``, ``x is None``: the value comes here and the grader asks ``is`` (plain
        data keeps True, False and None themselves). ``a is b`` between two answer values: their
        ids come here, never the expression with a literal in it."""
        left, right = node.left, node.comparators[0]
        if isinstance(left, ast.Constant) or isinstance(right, ast.Constant):
            node.left = self._rewrite(left, captures)
            node.comparators = [self._rewrite(right, captures)]
        elif all(_names(side) & self.tainted for side in (left, right)):
            ids = [ast.Call(ast.Name("id", ast.Load()), [side], []) for side in (left, right)]
            node.left, node.comparators = (
                self._capture(ids[0], captures),
                [self._capture(ids[1], captures)],
            )
            node.ops = [ast.Eq() if isinstance(node.ops[0], ast.Is) else ast.NotEq()]
        else:
            return self._capture(node, captures)
        return node

    def _rewrite_comprehension(self, node: ast.expr, captures: list[str]) -> ast.expr:
        """Only the first iterable is evaluated outside the comprehension: when it alone involves
        answers, bring its value here and loop over it on the grader's side."""
        first, *others = node.generators
        loop = {n for g in node.generators for n in _names(g.target)}
        parts = [getattr(node, f) for f in ("elt", "key", "value") if hasattr(node, f)]
        parts += [c for g in node.generators for c in g.ifs] + [g.iter for g in others]
        if any((_names(p) - loop) & self.tainted for p in parts):
            return self._capture(node, captures)
        first.iter = self._rewrite(first.iter, captures)
        return node

    def _rewrite(self, node: ast.expr, captures: list[str]) -> ast.expr:
        """Replace the smallest parts of ``node`` that involve answers by captured names; keep
        comparisons and calls of the course's own functions on the grader's side."""
        if not _names(node) & self.tainted:
            return node
        again = lambda child: self._rewrite(child, captures)  # noqa: E731
        if isinstance(node, ast.BoolOp):
            node.values = [again(v) for v in node.values]
        elif isinstance(node, ast.BinOp):
            node.left, node.right = again(node.left), again(node.right)
        elif isinstance(node, ast.UnaryOp):
            node.operand = again(node.operand)
        elif isinstance(node, ast.Compare) and not any(
            isinstance(op, ast.Is | ast.IsNot) for op in node.ops
        ):
            node.left, node.comparators = again(node.left), [again(c) for c in node.comparators]
        elif isinstance(node, ast.Compare) and len(node.ops) == 1:
            return self._rewrite_identity(node, captures)
        elif isinstance(node, ast.Call) and not _names(node.func) & self.tainted:
            node.args = [
                ast.Starred(again(a.value), ast.Load()) if isinstance(a, ast.Starred) else again(a)
                for a in node.args
            ]
            for keyword in node.keywords:
                keyword.value = again(keyword.value)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            node.elts = [again(e) for e in node.elts]
        elif isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            return self._rewrite_comprehension(node, captures)
        elif isinstance(node, ast.Dict):
            node.keys = [None if k is None else again(k) for k in node.keys]
            node.values = [again(v) for v in node.values]
        else:
            return self._capture(node, captures)
        return node


def template(message: ast.expr, tainted: set[str]) -> ast.expr:
    """An assert's message as the grader shows it: evaluated by the grader, with every part that
    involves answers written out as in the test (``f"got {found}"`` reads "got {found}").

    >>> ast.unparse(template(ast.parse('f"got {found}, want {n}"').body[0].value, {"found"}))
    "f'got {{found}}, want {n}'"
    """
    if not _names(message) & tainted:
        return message
    if isinstance(message, ast.JoinedStr):
        parts = []
        for part in message.values:
            if isinstance(part, ast.FormattedValue) and _names(part) & tainted:
                part = ast.Constant("{" + ast.unparse(part.value) + "}")
            parts.append(part)
        return ast.JoinedStr(parts)
    return ast.Constant(ast.unparse(message))
