"""Where things are among the hunk view's screen lines: each line's hunk, headers, lost lines.

Built once per set of screen lines (``hunk_lines.py``), so moving the
cursor, jumping to a hunk or to the next lost line (g) is a lookup, and the
view can answer "which lines are hunk N" without scanning.  Pure functions
of the entries, the layout and the lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from workbench.analysis.display.folds import Fold, HunkHeader, RowRef, ViewEntry
from workbench.analysis.display.layout import FileLayout
from workbench.tui.widgets.hunk_lines import ScreenLine


@dataclass(frozen=True, slots=True)
class LineIndex:
    """Lookups over one set of screen lines."""

    line_hunk: tuple[int | None, ...] = ()
    """Screen line -> the hunk it belongs to (None: context or a fold)."""
    headers: Mapping[int, int] = field(default_factory=dict)
    """Hunk -> the screen line of its header."""
    lost_starts: tuple[int, ...] = ()
    """Screen lines where a run of lost lines starts (what g jumps to)."""
    first_lost: Mapping[int, int] = field(default_factory=dict)
    """Hunk -> its first lost screen line."""

    def hunk_at(self, line: int) -> int | None:
        return self.line_hunk[line] if 0 <= line < len(self.line_hunk) else None

    def hunk_lines(self, hunk: int) -> range:
        """The screen lines of ``hunk``, header included (empty when it is not shown)."""
        start = self.headers.get(hunk)
        if start is None:
            return range(0)
        end = start + 1
        while end < len(self.line_hunk) and self.line_hunk[end] == hunk:
            end += 1
        return range(start, end)

    def opening_line(self, hunk: int) -> int | None:
        """Where a hunk opens: its first lost line, else its header."""
        first = self.first_lost.get(hunk)
        return first if first is not None else self.headers.get(hunk)


def entry_hunks(entries: Sequence[ViewEntry], layout: FileLayout | None) -> list[int | None]:
    """Entry -> the hunk it belongs to (a header's or a row's; None for context and folds)."""
    rows = layout.rows if layout else ()
    return [
        e.hunk if isinstance(e, HunkHeader) else rows[e.index].hunk if isinstance(e, RowRef) else None
        for e in entries
    ]


def index_lines(lines: Sequence[ScreenLine], entries: Sequence[ViewEntry], entry_hunk: Sequence[int | None],
                lost: Mapping[str, frozenset[int]]) -> LineIndex:
    """The lookups for ``lines``; ``lost`` maps a side to the layout rows whose line the result lost."""
    line_hunk = tuple(entry_hunk[line.entry] for line in lines)
    headers: dict[int, int] = {}
    lost_starts: list[int] = []
    first_lost: dict[int, int] = {}
    before = False
    for i, line in enumerate(lines):
        entry = entries[line.entry]
        if isinstance(entry, HunkHeader):
            headers.setdefault(entry.hunk, i)
        is_lost = line_lost(line, entry, lost)
        hunk = line_hunk[i]
        if is_lost and not before:
            lost_starts.append(i)
        if is_lost and hunk is not None:
            first_lost.setdefault(hunk, i)
        before = is_lost
    return LineIndex(line_hunk, headers, tuple(lost_starts), first_lost)


def line_lost(line: ScreenLine, entry: ViewEntry, lost: Mapping[str, frozenset[int]]) -> bool:
    """Whether the screen line shows a line the result lost (inline: of its own side)."""
    if not isinstance(entry, RowRef) or not lost:
        return False
    if line.side is not None:
        return entry.index in lost.get(line.side, ())
    return any(entry.index in rows for rows in lost.values())


def line_of_entry(lines: Sequence[ScreenLine], entry: int) -> int:
    """The first screen line of entry ``entry`` (or of the next one shown)."""
    for i, line in enumerate(lines):
        if line.entry >= entry:
            return i
    return max(0, len(lines) - 1)


def layout_row_at(lines: Sequence[ScreenLine], entries: Sequence[ViewEntry], layout: FileLayout | None,
                  index: int) -> int | None:
    """The layout row screen line ``index`` stands for (a fold's first, a header's hunk's first)."""
    if not lines or index >= len(lines):
        return None
    entry = entries[lines[index].entry]
    if isinstance(entry, RowRef):
        return entry.index
    if isinstance(entry, Fold):
        return entry.start
    start, _end = layout.hunk_rows[entry.hunk] if layout else (0, 0)
    return start


def line_for_row(lines: Sequence[ScreenLine], entries: Sequence[ViewEntry], row: int) -> int:
    """The screen line showing layout row ``row`` (or the fold that hides it)."""
    for i, entry in enumerate(entries):
        if isinstance(entry, RowRef) and entry.index == row:
            return line_of_entry(lines, i)
        if isinstance(entry, Fold) and entry.start <= row < entry.end:
            return line_of_entry(lines, i)
    return 0
