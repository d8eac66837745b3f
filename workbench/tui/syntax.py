"""Syntax highlighting as per-line spans computed once per blob: Python with tree-sitter, others with Pygments.

The spans are computed in a worker when a file is opened and looked up by
line number while rendering, so scrolling never parses.  Only a few capture
kinds are coloured (keywords, strings, comments, functions, numbers,
constants, types); everything else keeps the text colour, which keeps the
dev/main tints readable.  Very large files are not highlighted at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import tree_sitter
import tree_sitter_python

from workbench.analysis.python.parse import parse_text, query
from workbench.tui.syntax_other import pygments_highlighter

SyntaxSpans = dict[int, tuple[tuple[int, int, str], ...]]
"""0-based line -> (start column, end column, kind), columns in characters."""

MAX_BYTES = 2_000_000
MAX_LINES = 40_000

_KINDS = {
    "keyword": "keyword",
    "string": "string",
    "escape": "string",
    "comment": "comment",
    "function": "function",
    "function.method": "function",
    "function.builtin": "function",
    "number": "number",
    "constant": "constant",
    "constant.builtin": "constant",
    "constructor": "type",
    "type": "type",
}
KINDS = tuple(sorted(set(_KINDS.values())))
_PRIORITY = {"comment": 0, "string": 1, "keyword": 2, "function": 3, "type": 4, "constant": 5, "number": 6}
_SHOWN_OTHERWISE = re.compile(rb"[\x00-\x0c\x0e-\x1f]")
"""Bytes displayed other than as themselves: tabs and control characters (a carriage return is dropped)."""

def highlighter_for(path: str) -> Callable[[bytes], SyntaxSpans] | None:
    """The highlighter for a path's language: Python, C++/CUDA, YAML, shell, TOML, Markdown; else None."""
    if path.endswith((".py", ".pyi")):
        return python_spans
    return pygments_highlighter(path, MAX_BYTES, MAX_LINES)


def python_spans(data: bytes) -> SyntaxSpans:
    """Highlight spans of a Python file; empty for files too big to be worth it."""
    if len(data) > MAX_BYTES or data.count(b"\n") > MAX_LINES:
        return {}
    tree = parse_text(data)
    captures = tree_sitter.QueryCursor(query(tree_sitter_python.HIGHLIGHTS_QUERY)).captures(tree.root_node)
    lines = data.split(b"\n")
    raw: dict[int, list[tuple[int, int, str]]] = {}
    for name, nodes in captures.items():
        kind = _KINDS.get(name)
        if kind is None:
            continue
        for node in nodes:
            (r0, c0), (r1, c1) = node.start_point, node.end_point
            for row in range(r0, r1 + 1):
                if row >= len(lines):
                    break
                start = c0 if row == r0 else 0
                end = c1 if row == r1 else len(lines[row])
                if end > start:
                    raw.setdefault(row, []).append((start, end, kind))
    spans: SyntaxSpans = {}
    for row, found in raw.items():
        converted = _to_chars(lines[row], found)
        if converted:
            spans[row] = converted
    return spans


def _to_chars(line: bytes, found: list[tuple[int, int, str]]) -> tuple[tuple[int, int, str], ...]:
    """Byte columns to character columns, keeping the highest-priority kind where spans overlap.

    Lines whose display differs from their text (tabs, control characters,
    undecodable bytes) are left plain rather than coloured at wrong places.
    """
    if _SHOWN_OTHERWISE.search(line):
        return ()
    ascii_line = line.isascii()
    if not ascii_line:
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            return ()
    taken = bytearray(len(line) + 1)
    out: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(found, key=lambda s: (_PRIORITY[s[2]], s[0])):
        end = min(end, len(line))
        if start >= end or taken.find(1, start, end) != -1:
            continue
        taken[start:end] = b"\x01" * (end - start)
        if ascii_line:
            out.append((start, end, kind))
        else:
            out.append((len(line[:start].decode("utf-8", "ignore")), len(line[:end].decode("utf-8", "ignore")), kind))
    out.sort()
    return tuple(out)
