"""Blame that looks through the sync's own commits, as ``git blame --ignore-revs`` does.

A line the sync last touched (the previous sync's black run, its hand
resolution) was written by someone else: the commit that named it is not
the side's intent.  Such a line is looked for in the sync commit's parents,
whitespace-blind and then layout-blind, nearest its own place first, and
blamed again from there; a line no parent holds stays the sync commit's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from workbench.analysis.blame import LineMapper, attribute
from workbench.analysis.risk.layout import flat
from workbench.analysis.risk.line_compare import meaningful, norm
from workbench.analysis.risk.sync_commits import SyncCommits
from workbench.git.types import SideHistory

LineReader = Callable[[str], Sequence[bytes]]
"""A blob's lines by id."""
DEPTH = 4
"""Sync commits looked through one after the other (a black run on top of a sync's resolution...)."""


def attribute_through(history: SideHistory, path: str, lines: Iterable[int], mapper: LineMapper,
                      sync: SyncCommits, read: LineReader) -> dict[int, str]:
    """0-based line of the tip's blob -> the commit that wrote it, looking through ``sync``'s commits."""
    wanted = list(lines)
    found = attribute(history, path, wanted, mapper)
    if not sync.reasons:
        return found
    tip_lines = _lines_of(history, path, history.tip, read)
    indexes: dict[str, _Index] = {}
    at: dict[int, tuple[str, int]] = {n: (sha, n) for n, sha in found.items() if sha in sync}
    for _ in range(DEPTH):
        if not at or tip_lines is None:
            break
        moved: dict[str, dict[int, int]] = {}
        for target, (sha, row) in at.items():
            text = tip_lines[target]
            for parent in history.parents.get(sha, ()):
                blob = history.blobs.get(path, {}).get(parent)
                if blob is None or not history.in_range(parent):
                    continue
                if blob not in indexes:
                    indexes[blob] = _Index(read(blob))
                hit = indexes[blob].find(text, row)
                if hit is not None:
                    moved.setdefault(parent, {})[target] = hit
                    break
        at = {}
        for parent, rows in moved.items():
            again = attribute(replace(history, tip=parent), path, sorted(set(rows.values())), mapper)
            for target, row in rows.items():
                writer = again.get(row)
                if writer is None:  # the parent's line predates the range: nobody on this side wrote it
                    found.pop(target, None)
                    continue
                found[target] = writer
                if writer in sync:
                    at[target] = (writer, row)
    return found


def _lines_of(history: SideHistory, path: str, sha: str, read: LineReader) -> Sequence[bytes] | None:
    blob = history.blobs.get(path, {}).get(sha)
    return read(blob) if blob is not None else None


class _Index:
    """A version's rows by their whitespace-blind text, and by their layout-blind text once asked."""

    def __init__(self, lines: Sequence[bytes]) -> None:
        self._lines = lines
        self._norm = _rows(lines, norm)
        self._flat: dict[bytes, list[int]] | None = None

    def find(self, text: bytes, near: int) -> int | None:
        """The row holding ``text``, nearest ``near`` (None: no row does, or the line says nothing)."""
        if not meaningful(text):
            return None
        rows = self._norm.get(norm(text))
        if not rows:
            if self._flat is None:
                self._flat = _rows(self._lines, lambda line: flat([line]))
            rows = self._flat.get(flat([text]))
        return min(rows, key=lambda n: abs(n - near)) if rows else None


def _rows(lines: Sequence[bytes], key: Callable[[bytes], bytes]) -> dict[bytes, list[int]]:
    found: dict[bytes, list[int]] = {}
    for n, line in enumerate(lines):
        found.setdefault(key(line), []).append(n)
    return found
