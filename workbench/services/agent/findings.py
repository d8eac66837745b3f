"""What a decision newly breaks in a Python file it changes: names read and no longer bound, and definitions the
file now makes twice in one scope (a method, a dataclass field) that it made once before.

Compared before and after the decision, so only what the decision itself
brings counts; the writer has already refused a file that does not parse.
"""

from __future__ import annotations

import ast
import warnings
from collections import Counter
from dataclasses import dataclass

from workbench.analysis.python.undefined import pyflakes_undefined


@dataclass(frozen=True, slots=True)
class Finding:
    """One new problem in a file the decision changed."""

    kind: str
    """``undefined-name`` or ``duplicate-definition``."""
    path: str
    name: str
    lines: tuple[int, ...]

    @property
    def detail(self) -> str:
        where = ", ".join(str(n) for n in self.lines)
        if self.kind == "undefined-name":
            return f"{self.path} reads `{self.name}` (line {where}), which nothing binds once the decision is written"
        return f"{self.path} defines `{self.name}` twice in one scope (lines {where}) once the decision is written"


def new_findings(path: str, before: bytes | None, after: bytes | None) -> list[Finding]:
    """The findings ``after`` has that ``before`` had not (Python files only)."""
    if not path.endswith(".py") or after is None:
        return []
    found: list[Finding] = []
    now = pyflakes_undefined(path, after) or {}
    then = (pyflakes_undefined(path, before) or {}) if before is not None else {}
    for name in sorted(set(now) - set(then)):
        found.append(Finding("undefined-name", path, name, tuple(now[name])))
    twice, was = duplicates(after), duplicates(before) if before is not None else {}
    for key in sorted(set(twice) - set(was)):
        found.append(Finding("duplicate-definition", path, key[1] if not key[0] else f"{key[0]}.{key[1]}", twice[key]))
    return found


def duplicates(data: bytes) -> dict[tuple[str, str], tuple[int, ...]]:
    """(scope, name) -> lines, for names a module or class body defines more than once (def, class, an annotated
    field); a definition under ``if``/``try`` counts as a variant, not a second one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return {}
    found: dict[tuple[str, str], tuple[int, ...]] = {}
    scopes: list[tuple[str, list[ast.stmt]]] = [("", tree.body)]
    while scopes:
        scope, body = scopes.pop()
        lines: dict[str, list[int]] = {}
        for node in body:
            name = _defined(node)
            if name is not None and not _overload(node):
                lines.setdefault(name, []).append(node.lineno)
            if isinstance(node, ast.ClassDef):
                scopes.append((f"{scope}.{node.name}" if scope else node.name, node.body))
        counts = Counter({name: len(at) for name, at in lines.items()})
        for name, n in counts.items():
            if n > 1:
                found[(scope, name)] = tuple(lines[name])
    return found


def _defined(node: ast.stmt) -> str | None:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id
    return None


_VARIANTS = frozenset({"overload", "setter", "getter", "deleter", "register"})


def _overload(node: ast.stmt) -> bool:
    """A definition decorated as a variant of another (``overload``, a property's setter/deleter, ``register``)."""
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else ""
        if name in _VARIANTS:
            return True
    return False
