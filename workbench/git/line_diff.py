"""libgit2's line diff of two versions of a file, with the lines both share at each end left out first.

Blame diffs every pair of consecutive versions of a file, and most commits
change a few lines of a long file: libgit2 hashes every line of both
versions before it looks for the change, which adds up over a long
file's history.  The common head and tail are found with a few C-level comparisons
instead, and only the middle is diffed, plus ``MARGIN`` shared lines on
each side so that the diff can still slide a change among repeated lines
as it would in the whole file.  The alignment is what blame needs (a
plausible one: libgit2's counts of frequent lines see only the middle),
never a merge's: git-exact scripts come from ``line_scripts``.
"""

from __future__ import annotations

import pygit2

from workbench.git.types import Edit, Script

MARGIN = 32
"""Shared lines kept on each side of the middle that is diffed."""


def line_changes(old: bytes, new: bytes) -> Script:
    """The changed runs from ``old`` to ``new`` as 0-based (start, count, start, count) edits."""
    head = _head(old, new)
    tail = _tail(old, new, head)
    lines_before = old.count(b"\n", 0, head)
    patch = pygit2.Patch.create_from(
        old[head:len(old) - tail], new[head:len(new) - tail], flag=pygit2.enums.DiffOption.FORCE_TEXT, context_lines=0,
    )
    return tuple(
        Edit(
            lines_before + (h.old_start if h.old_lines == 0 else h.old_start - 1),
            h.old_lines,
            lines_before + (h.new_start if h.new_lines == 0 else h.new_start - 1),
            h.new_lines,
        )
        for h in patch.hunks
    )


def _head(old: bytes, new: bytes) -> int:
    """Bytes of whole lines both start with, less ``MARGIN`` lines."""
    same = _common_prefix(old, new)
    at = old.rfind(b"\n", 0, same) + 1  # the shared part ends with a whole line
    for _ in range(MARGIN):
        if at == 0:
            break
        at = old.rfind(b"\n", 0, at - 1) + 1
    return at


def _tail(old: bytes, new: bytes, head: int) -> int:
    """Bytes of whole lines both end with (after ``head``), less ``MARGIN`` lines."""
    if not old.endswith(b"\n") or not new.endswith(b"\n"):
        return 0  # a missing final newline is a change of the last line: the end is left to libgit2
    same = _common_suffix(old, new, min(len(old), len(new)) - head)
    if same == 0:
        return 0
    at = old.find(b"\n", len(old) - same) + 1  # past the first line end inside: a line start in both
    for _ in range(MARGIN):
        if at >= len(old):
            break
        at = old.find(b"\n", at) + 1
    return len(old) - at


def _common_prefix(a: bytes, b: bytes) -> int:
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.startswith(b[:mid]):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    lo, hi = 0, max(0, limit)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a.endswith(b[len(b) - mid:]):
            lo = mid
        else:
            hi = mid - 1
    return lo
