"""Folding: what a view shows of a layout, hunks with context and the rest behind one line.

A separate step from the layout because it changes with the user's
choices (context size, folds opened) while the layout does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.display.layout import FileLayout, Region


@dataclass(frozen=True, slots=True)
class RowRef:
    """Show layout row ``index``."""

    index: int


@dataclass(frozen=True, slots=True)
class HunkHeader:
    """The title line above a hunk's rows."""

    hunk: int


@dataclass(frozen=True, slots=True)
class Fold:
    """Layout rows ``start``..``end`` (half-open) hidden behind one line."""

    start: int
    end: int
    dev_changes: int = 0
    """Clean dev-only change regions inside (merged without conflict)."""
    main_changes: int = 0
    both_changes: int = 0

    @property
    def lines(self) -> int:
        return self.end - self.start


ViewEntry = RowRef | HunkHeader | Fold


def fold_layout(
    layout: FileLayout, context: int = 3, expanded: frozenset[int] = frozenset(), expand_all: bool = False
) -> tuple[ViewEntry, ...]:
    """The lines a view shows: every hunk with ``context`` rows around it, the rest folded.

    A fold is identified by its ``start`` row; folds listed in ``expanded``
    (or all, with ``expand_all``) are shown in full.  A fold shorter than
    two rows is never made: hiding one line behind one line saves nothing.
    """
    starts = {start: index for index, (start, _end) in layout.hunk_rows.items()}
    keep = [expand_all] * len(layout.rows)
    for start, end in layout.hunk_rows.values():
        for i in range(max(0, start - context), min(len(layout.rows), end + context)):
            keep[i] = True
    entries: list[ViewEntry] = []
    i = 0
    total = len(layout.rows)
    while i < total:
        if i in starts:
            entries.append(HunkHeader(starts[i]))
        if keep[i]:
            entries.append(RowRef(i))
            i += 1
            continue
        j = i
        while j < total and not keep[j]:
            j += 1
        if j - i < 2 or i in expanded:
            entries.extend(RowRef(k) for k in range(i, j))
        else:
            entries.append(_fold(layout, i, j))
        i = j
    return tuple(entries)


def _fold(layout: FileLayout, start: int, end: int) -> Fold:
    counts = {Region.DEV: 0, Region.MAIN: 0, Region.BOTH: 0}
    previous: Region | None = None
    for row in layout.rows[start:end]:
        if row.region in counts and row.region is not previous:
            counts[row.region] += 1
        previous = row.region
    return Fold(start, end, counts[Region.DEV], counts[Region.MAIN], counts[Region.BOTH])
