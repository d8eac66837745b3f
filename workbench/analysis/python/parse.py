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

TREE_CACHE_SOURCE_BYTES = 6 * 1024 * 1024
"""Source bytes whose trees are kept.  A tree costs tens of times its source in memory, so the bound is
on source bytes (a count of trees bounded nothing: a few hundred large files' trees fill gigabytes), set
to hold every tree the API audit parses on a real sync (docs/performance.md)."""


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


class _TreeCache:
    """Trees by blob id, the least recently used dropped beyond ``TREE_CACHE_SOURCE_BYTES`` of source."""

    def __init__(self) -> None:
        self._trees: OrderedDict[str, tuple[Tree, int]] = OrderedDict()
        self._bytes = 0

    def get(self, blob_id: str) -> Tree | None:
        found = self._trees.get(blob_id)
        if found is None:
            return None
        self._trees.move_to_end(blob_id)
        return found[0]

    def put(self, blob_id: str, tree: Tree, size: int) -> None:
        if blob_id in self._trees:
            return
        self._trees[blob_id] = (tree, size)
        self._bytes += size
        while self._bytes > TREE_CACHE_SOURCE_BYTES and len(self._trees) > 1:
            _, (_, dropped) = self._trees.popitem(last=False)
            self._bytes -= dropped

    def clear(self) -> None:
        self._trees.clear()
        self._bytes = 0


_TREES = _TreeCache()


def parse(blob_id: str, data: bytes) -> Tree:
    """The syntax tree of ``data`` (a blob whose id is ``blob_id``), cached."""
    tree = _TREES.get(blob_id)
    if tree is None:
        tree = _parser().parse(data)
        _TREES.put(blob_id, tree, len(data))
    return tree


def parse_content(data: bytes) -> Tree:
    """The syntax tree of a whole file's text: the cached tree of the blob git would store it as, if any.

    A side's file or a merge result is usually a blob the API audit parses
    too (by its id): the risk signals then reuse that tree.  One parsed here
    is not kept: the risk signals ask once per file, and kept, such trees
    were most of a large sync's growth during risk scoring.
    """
    return _TREES.get(git_blob_id(data)) or _parser().parse(data)


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
