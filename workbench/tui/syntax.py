"""Syntax highlighting as per-line spans computed once per blob: Python with tree-sitter, others with Pygments.

A file is parsed in a worker when it is opened, and its spans are looked up
by line number while rendering, so scrolling never parses (Python's are
captured a chunk of lines at a time, on the first lookup).  Only a few capture
kinds are coloured (keywords, strings, comments, functions, numbers,
constants, types); everything else keeps the text colour, which keeps the
dev/main tints readable.  Very large files are not highlighted at all.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Mapping

import tree_sitter
import tree_sitter_python

from workbench.analysis.python.parse import parse_text, query
from workbench.tui.syntax_other import pygments_highlighter

Spans = tuple[tuple[int, int, str], ...]
"""(start column, end column, kind) of one line, columns in characters."""
SyntaxSpans = Mapping[int, Spans]
"""0-based line -> its spans (lines with none are absent)."""

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
    return PythonSpans(data)


CHUNK = 200
"""Lines captured at a time: about what a view shows, and a short tree-sitter query."""


class PythonSpans(Mapping[int, Spans]):
    """One Python text's spans: parsed at once, captured a chunk of lines at a time when first looked up.

    A file opened only when every line of its three versions was captured,
    which for a long file was most of ``git mergetool``'s wait for its hunk.  A view shows a few hundred of those lines; the rest are
    captured when scrolled to, or never.  A capture that spans chunks (a
    docstring) is met by each chunk's query and cut to that chunk's rows.
    Lookups may come from the worker and from the screen, so filling is locked.
    Its length, its truth and iterating over it capture every chunk: callers test ``is None``.
    """

    def __init__(self, data: bytes) -> None:
        self._lines = data.split(b"\n")
        self._tree = parse_text(data)
        self._spans: dict[int, Spans] = {}
        self._filled: set[int] = set()
        self._lock = threading.Lock()

    def __getitem__(self, row: int) -> Spans:
        if not isinstance(row, int) or not 0 <= row < len(self._lines):
            raise KeyError(row)
        self._fill(row // CHUNK)
        return self._spans[row]

    def __iter__(self) -> Iterator[int]:
        for chunk in range(len(self._lines) // CHUNK + 1):
            self._fill(chunk)
        return iter(sorted(self._spans))

    def __len__(self) -> int:
        return sum(1 for _row in self)

    def _fill(self, chunk: int) -> None:
        with self._lock:
            if chunk in self._filled:
                return
            first, last = chunk * CHUNK, min((chunk + 1) * CHUNK, len(self._lines))
            cursor = tree_sitter.QueryCursor(query(tree_sitter_python.HIGHLIGHTS_QUERY))
            cursor.set_point_range((first, 0), (last, 0))
            raw: dict[int, list[tuple[int, int, str]]] = {}
            for name, nodes in cursor.captures(self._tree.root_node).items():
                kind = _KINDS.get(name)
                if kind is None:
                    continue
                for node in nodes:
                    (r0, c0), (r1, c1) = node.start_point, node.end_point
                    for row in range(max(r0, first), min(r1 + 1, last)):
                        start = c0 if row == r0 else 0
                        end = c1 if row == r1 else len(self._lines[row])
                        if end > start:
                            raw.setdefault(row, []).append((start, end, kind))
            for row, found in raw.items():
                converted = _to_chars(self._lines[row], found)
                if converted:
                    self._spans[row] = converted
            self._filled.add(chunk)


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
