"""Word-level changes inside a changed line: the highlighted spans of every view's rows.

The texts compared are display strings (``safe_text.display_text``).  The
refinement uses difflib, which is plenty for one line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

Span = tuple[int, int]
"""A 0-based half-open character range of a display text."""

_WORD = re.compile(r"\w+|\s+|[^\w\s]")
_WORD_DIFF_LIMIT = 2000
"""Lines longer than this are marked changed as a whole (difflib is quadratic)."""


def word_changes(a: str, b: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The character ranges of ``a`` and of ``b`` that differ, at word granularity."""
    if a == b:
        return (), ()
    if len(a) > _WORD_DIFF_LIMIT or len(b) > _WORD_DIFF_LIMIT:
        return ((0, len(a)),) if a else (), ((0, len(b)),) if b else ()
    ta, tb = _WORD.findall(a), _WORD.findall(b)
    oa, ob = _offsets(ta), _offsets(tb)
    spans_a: list[Span] = []
    spans_b: list[Span] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            _add_span(spans_a, oa[i1], oa[i2])
        if j2 > j1:
            _add_span(spans_b, ob[j1], ob[j2])
    return tuple(spans_a), tuple(spans_b)


def _offsets(tokens: Sequence[str]) -> list[int]:
    out = [0]
    for token in tokens:
        out.append(out[-1] + len(token))
    return out


def _add_span(spans: list[Span], start: int, end: int) -> None:
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))
