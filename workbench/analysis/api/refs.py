"""The calls and attribute uses on given lines of a parsed file.

Only the lines one side brought into the result are read (a query cursor
restricted to those rows), so a 4,000-line file with a ten-line hunk costs
ten lines of work.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tree_sitter import Node

from workbench.analysis.api.calls import Arguments, arguments
from workbench.analysis.python.parse import captures, dotted, line

_REFS = """
(call function: [(identifier) (attribute)] @fn arguments: [(argument_list) (generator_expression)] @args) @call
(attribute object: [(identifier) (attribute)] attribute: (identifier)) @attr
"""
_GAP = 3
"""Rows between two runs of wanted lines that are queried anyway (fewer cursors)."""


@dataclass(frozen=True, slots=True)
class Reference:
    """``a.b.c`` used at ``line``, called with ``args`` when it is a call."""

    chain: tuple[str, ...]
    line: int
    args: Arguments | None = None

    @property
    def text(self) -> str:
        return ".".join(self.chain) + ("(…)" if self.args is not None else "")


def runs(lines: Iterable[int]) -> list[tuple[int, int]]:
    """1-based line numbers as 0-based row ranges ``[first, last)``, close runs joined."""
    found: list[tuple[int, int]] = []
    for n in sorted(set(lines)):
        row = n - 1
        if found and row <= found[-1][1] + _GAP:
            found[-1] = (found[-1][0], row + 1)
        else:
            found.append((row, row + 1))
    return found


def references(root: Node, lines: set[int], heads: frozenset[str]) -> list[Reference]:
    """Calls and outermost attribute chains whose name sits on one of ``lines``.

    Only chains starting with one of ``heads`` (names the file imports or
    defines, ``self``, ``cls``) are kept: a local variable's type is unknown.
    """
    seen: set[tuple[tuple[str, ...], int, bool]] = set()
    found: list[Reference] = []
    for rows in runs(lines):
        groups = captures(_REFS, root, rows)
        calls = {id_: node for id_, node in ((c.id, c) for c in groups.get("call", ()))}
        for call in calls.values():
            fn = call.child_by_field_name("function")
            args_node = call.child_by_field_name("arguments")
            chain = dotted(fn)
            if fn is None or chain is None or args_node is None or chain.split(".", 1)[0] not in heads:
                continue
            at = _name_line(fn)
            key = (tuple(chain.split(".")), at, True)
            if at in lines and key not in seen:
                seen.add(key)
                found.append(Reference(key[0], at, arguments(args_node)))
        for attr in groups.get("attr", ()):
            if _inner(attr) or _assigned(attr) or _called(attr):
                continue
            chain = dotted(attr)
            if chain is None or chain.split(".", 1)[0] not in heads:
                continue
            at = _name_line(attr)
            key = (tuple(chain.split(".")), at, False)
            if at in lines and key not in seen:
                seen.add(key)
                found.append(Reference(key[0], at))
    return found


def _name_line(node: Node) -> int:
    """The line of a chain's last name (``.group_commit`` may sit below ``off_interface``)."""
    attr = node.child_by_field_name("attribute") if node.type == "attribute" else None
    return line(attr if attr is not None else node)


def _inner(node: Node) -> bool:
    """Part of a longer chain (``a.b`` inside ``a.b.c``): the outer one is checked."""
    parent = node.parent
    return parent is not None and parent.type == "attribute" and parent.child_by_field_name("object") == node


def _called(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "call" and parent.child_by_field_name("function") == node


def _assigned(node: Node) -> bool:
    """``self.x = ...`` defines ``x``; ``del a.b`` removes it: neither is a use."""
    parent = node.parent
    while parent is not None and parent.type in ("pattern_list", "tuple_pattern", "expression_list"):
        node, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type in ("assignment", "augmented_assignment"):
        return parent.child_by_field_name("left") == node
    return parent.type == "delete_statement"
