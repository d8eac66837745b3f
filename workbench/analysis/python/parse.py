"""Parsing Python with tree-sitter: the one parser of the workbench, trees cached by blob id.

tree-sitter rather than ``ast`` because a sync leaves half-merged files
(conflict markers, a hunk cut mid-statement): tree-sitter still parses the
rest of the file, ``ast`` refuses the whole of it.  Blobs never change, so a
tree parsed once per blob id serves every stage and every re-run in the app.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import cache

import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor, Tree

from workbench.analysis.readers import git_blob_id

TREE_CACHE_SIZE = 256
"""Parsed trees kept (a tree costs about ten times its source in memory)."""


@cache
def language() -> Language:
    return Language(tree_sitter_python.language())


@cache
def _parser() -> Parser:
    return Parser(language())


@cache
def query(source: str) -> Query:
    """A compiled query (compiling costs more than running it)."""
    return Query(language(), source)


_TREES: OrderedDict[str, Tree] = OrderedDict()


def parse(blob_id: str, data: bytes) -> Tree:
    """The syntax tree of ``data`` (a blob whose id is ``blob_id``), cached."""
    tree = _TREES.get(blob_id)
    if tree is not None:
        _TREES.move_to_end(blob_id)
        return tree
    tree = _parser().parse(data)
    _TREES[blob_id] = tree
    if len(_TREES) > TREE_CACHE_SIZE:
        _TREES.popitem(last=False)
    return tree


def parse_content(data: bytes) -> Tree:
    """The syntax tree of a whole file's text, cached under the blob id git gives that text.

    A side's file or a merge result is usually a blob the API audit parses
    too (by its id): the risk signals then reuse that tree.
    """
    return parse(git_blob_id(data), data)


def parse_text(data: bytes) -> Tree:
    """The syntax tree of text that is not (or not yet) a blob: an edited hunk, a spliced file (not cached)."""
    return _parser().parse(data)


def captures(source: str, node: Node, rows: tuple[int, int] | None = None) -> dict[str, list[Node]]:
    """Run a query under ``node``, optionally only on 0-based rows ``[first, last)``: each capture's
    nodes in document order.

    py-tree-sitter's own order is neither that nor the same from run to run
    (on a half-merged file the audit's "first use" of a name, and so the
    line and hunk of its finding, changed between two runs).
    """
    cursor = QueryCursor(query(source))
    if rows is not None:
        cursor.set_point_range((rows[0], 0), (rows[1], 0))
    return {name: sorted(nodes, key=_document_order) for name, nodes in cursor.captures(node).items()}


def _document_order(node: Node) -> tuple[int, int, str]:
    """Earlier first; of two starting together, the enclosing one first (as a walk of the tree meets them)."""
    return node.start_byte, -node.end_byte, node.type


def text(node: Node | None) -> str:
    """A node's source text (undecodable bytes kept visible, never raising)."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", "replace")


def line(node: Node) -> int:
    """1-based line where ``node`` starts."""
    return node.start_point[0] + 1


def dotted(node: Node | None) -> str | None:
    """``a.b.c`` for a chain of plain attribute accesses on a name, else None."""
    parts: list[str] = []
    while node is not None and node.type == "attribute":
        attr = node.child_by_field_name("attribute")
        if attr is None:
            return None
        parts.append(text(attr))
        node = node.child_by_field_name("object")
    if node is None or node.type != "identifier":
        return None
    parts.append(text(node))
    return ".".join(reversed(parts))


def matches(source: str, node: Node, rows: tuple[int, int] | None = None) -> list[dict[str, Node]]:
    """Each match of a query under ``node`` as {capture: node} (first node per capture)."""
    cursor = QueryCursor(query(source))
    if rows is not None:
        cursor.set_point_range((rows[0], 0), (rows[1], 0))
    return [{name: nodes[0] for name, nodes in groups.items() if nodes} for _, groups in cursor.matches(node)]
