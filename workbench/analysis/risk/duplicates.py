"""Names the merge defined twice: both sides added or moved one definition, and git kept both copies.

A dataclass field, a method, a module-level function, class or constant
defined twice in one scope of the result, where dev and main each define it
at most once there, is the merge's doing: git merges such a file "cleanly",
and the docs build or a test fails later.  Only the direct body of a module
or class counts (a definition under ``if``/``try`` is a variant, not a
duplicate), as do property setters and ``@overload`` stubs, which repeat a
name on purpose.  A line scan finds the files worth parsing; ``ast``
confirms, on the result and on each side.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from workbench.analysis.model import DuplicateDefinition

MODULE = "<module>"

_DEFINITION = re.compile(
    rb"^([ \t]*)(?:(?:async[ \t]+)?(def|class)[ \t]+(\w+)|(\w+)[ \t]*:[ \t]*[^\s=#]|([A-Z_][A-Z0-9_]*)[ \t]*=[^=])",
    re.MULTILINE,
)
_REPEATED_ON_PURPOSE = (".setter", ".getter", ".deleter")
_OVERLOAD = frozenset({"overload", "typing.overload", "typing_extensions.overload"})

Key = tuple[str, str]
"""(scope, name): a class's dotted name or ``<module>``, and the name defined."""


def worth_parsing(result: bytes) -> bool:
    """Whether a line scan of the result sees a name defined twice in what looks like one scope (cheap)."""
    stack: list[tuple[int, bytes, bytes]] = []
    seen: set[tuple[tuple[bytes, ...], bytes]] = set()
    for found in _DEFINITION.finditer(result):
        indent = len(found.group(1).expandtabs())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if found.group(5) and indent:
            continue  # an upper-case assignment inside a block: not a module constant
        keyword = found.group(2)
        name = found.group(3) or found.group(4) or found.group(5)
        in_function = bool(stack) and stack[-1][1] == b"def"
        key = (tuple(s[2] for s in stack), name)
        if keyword:
            stack.append((indent, keyword, name))
        if in_function:
            continue
        if key in seen:
            return True
        seen.add(key)
    return False


def definitions(text: bytes) -> dict[Key, list[int]] | None:
    """Each (scope, name) the text defines, with the first line of each definition (None: not valid Python)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out: dict[Key, list[int]] = {}
    _collect(tree.body, MODULE, out)
    return out


def _collect(body: Sequence[ast.stmt], scope: str, out: dict[Key, list[int]]) -> None:
    for node in body:
        name: str | None = None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            decorators = [ast.unparse(d) for d in node.decorator_list]
            if not any(d.endswith(_REPEATED_ON_PURPOSE) or d in _OVERLOAD for d in decorators):
                name = node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            if scope != MODULE or target.isupper():
                name = target
        if name is not None:
            start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            out.setdefault((scope, name), []).append(start)
        if isinstance(node, ast.ClassDef):
            _collect(node.body, node.name if scope == MODULE else f"{scope}.{node.name}", out)


def duplicates(path: str, dev: bytes | None, main: bytes | None, result: bytes | None) -> tuple[DuplicateDefinition, ...]:
    """The names ``result`` defines twice in one scope where dev and main each define them at most once."""
    if result is None or not worth_parsing(result):
        return ()
    found = definitions(result)
    ours = definitions(dev) if dev is not None else {}
    theirs = definitions(main) if main is not None else {}
    if not found or ours is None or theirs is None:
        return ()
    out = []
    for (scope, name), lines in found.items():
        if len(lines) >= 2 and len(ours.get((scope, name), ())) <= 1 and len(theirs.get((scope, name), ())) <= 1:
            out.append(DuplicateDefinition(
                path, scope, name, tuple(lines), _first(ours.get((scope, name))), _first(theirs.get((scope, name)))
            ))
    return tuple(out)


def _first(lines: list[int] | None) -> int | None:
    return lines[0] if lines else None
