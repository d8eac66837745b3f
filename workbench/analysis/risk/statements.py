"""Which statement a line of Python belongs to, so that a statement is read whole or not at all.

A statement that lost any line for real keeps all its lost lines (a
reviewer reads the statement): when black re-wrapped a call and the other
side also changed an argument, the re-wrapped lines are not "layout only".
The innermost statement holding a line is a simple statement (all its
lines), or the header of a compound one (``def``, ``class``, ``if``... up to
its body, decorators included); a comment inside a body belongs to none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tree_sitter import Node

from workbench.analysis.python.parse import parse

_COMPOUND_SUFFIXES = ("_statement", "_definition", "_clause")


def statement_starts(blob_id: str, data: bytes, lines: Sequence[bytes], rows: Iterable[int]) -> dict[int, int]:
    """For each 0-based row, the first row of the innermost statement holding it (the row itself when none does)."""
    root = parse(blob_id, data).root_node
    found: dict[int, int] = {}
    for row in rows:
        text = lines[row] if row < len(lines) else b""
        column = len(text) - len(text.lstrip())
        node: Node | None = root.descendant_for_point_range((row, column), (row, column))
        found[row] = row
        while node is not None:
            if node.type.endswith(_COMPOUND_SUFFIXES) or node.type == "decorated_definition":
                found[row] = _start_of(node, row)
                break
            node = node.parent
    return found


def _start_of(node: Node, row: int) -> int:
    """The statement's first row when ``row`` is in it (in a compound statement: in its header), else ``row``."""
    block = _body(node)
    start = node.start_point[0]
    if block is None:
        return _outer(node).start_point[0]
    header_end = max(start, block.start_point[0] - 1)
    return _outer(node).start_point[0] if start <= row <= header_end else row


def _body(node: Node) -> Node | None:
    if node.type == "decorated_definition":
        definition = node.child_by_field_name("definition")
        return _body(definition) if definition is not None else None
    return next((c for c in node.named_children if c.type == "block"), None)


def _outer(node: Node) -> Node:
    """A decorated definition starts at its first decorator."""
    parent = node.parent
    return parent if parent is not None and parent.type == "decorated_definition" else node
