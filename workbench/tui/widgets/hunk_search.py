"""Searching the hunk view's text (``/``, then ``n``/``N``): where a pattern occurs, and which screen line shows it.

The search covers the whole file, folded context included (going to a match
in a fold opens it), on the sides the view shows: dev, main, and the base
when its column is on.  A line the sides share is searched once, on the side
that shows it inline, so ``n`` never stops twice on one line of text.  The
pattern is plain text, not a regular expression (the text is code, full of
``(``, ``[`` and ``.``), and case is ignored unless it holds a capital
(vim's ``smartcase``).  Pure functions of the layout and the screen lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from workbench.analysis.display.folds import Fold, RowRef, ViewEntry
from workbench.analysis.display.layout import Cell, FileLayout
from workbench.analysis.display.word_diff import Span
from workbench.tui.widgets.hunk_lines import ScreenLine

SIDES = ("dev", "main", "base")
"""The order a row's sides are searched in (dev first: inline shows a shared line as dev's)."""


@dataclass(frozen=True, slots=True, order=True)
class Match:
    """One occurrence: layout row, side, and the characters ``start``..``stop`` of that side's line."""

    row: int
    side_order: int
    start: int
    stop: int

    @property
    def side(self) -> str:
        return SIDES[self.side_order]


@dataclass(frozen=True, slots=True)
class Found:
    """A pattern's matches in one file, in reading order, and the one the view is on."""

    pattern: str
    matches: tuple[Match, ...] = ()
    current: int | None = None
    marks: dict[str, dict[int, tuple[Span, ...]]] = field(default_factory=dict)
    """Side -> layout row -> the spans to highlight there."""

    @property
    def count(self) -> int:
        return len(self.matches)

    @property
    def match(self) -> Match | None:
        return self.matches[self.current] if self.current is not None else None

    def at(self, current: int | None) -> Found:
        return Found(self.pattern, self.matches, current, self.marks)

    def where(self) -> str:
        """``3 of 12``, ``no match``: what the search field says beside the pattern."""
        if not self.pattern:
            return ""
        if not self.matches:
            return "no match"
        return f"{(self.current or 0) + 1} of {self.count}"


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Literal text; case ignored unless the pattern holds a capital."""
    flags = 0 if any(char.isupper() for char in pattern) else re.IGNORECASE
    return re.compile(re.escape(pattern), flags)


def find(layout: FileLayout | None, pattern: str, show_base: bool) -> Found:
    """Every occurrence of ``pattern`` in the file's shown sides, in reading order."""
    if layout is None or not pattern:
        return Found(pattern)
    regex = compile_pattern(pattern)
    matches: list[Match] = []
    marks: dict[str, dict[int, tuple[Span, ...]]] = {}
    for index, row in enumerate(layout.rows):
        searched: list[str] = []
        for order, side in enumerate(SIDES):
            if side == "base" and not show_base:
                continue
            cell: Cell | None = getattr(row, side)
            if cell is None:
                continue
            spans = tuple(found.span() for found in regex.finditer(cell.text) if found.end() > found.start())
            if not spans:
                continue
            marks.setdefault(side, {})[index] = spans
            if cell.text in searched:
                continue  # the same text on another side of this row: highlighted, not a stop of its own
            searched.append(cell.text)
            matches.extend(Match(index, order, start, stop) for start, stop in spans)
    return Found(pattern, tuple(matches), None, marks)


def first_from(found: Found, row: int) -> int | None:
    """The first match at or after layout row ``row``, wrapping around to the first."""
    for i, match in enumerate(found.matches):
        if match.row >= row:
            return i
    return 0 if found.matches else None


def step(found: Found, row: int | None, direction: int) -> tuple[int | None, bool]:
    """The match ``n`` (+1) or ``N`` (-1) goes to, and whether it wrapped around the file.

    From the current match when the cursor is still on its row, else from the
    cursor's row (``row``), as vim searches from the cursor."""
    matches = found.matches
    if not matches:
        return None, False
    current = found.match
    if current is not None and (row is None or current.row == row):
        target = found.current + direction  # type: ignore[operator]
    elif row is None:
        target = 0 if direction > 0 else len(matches) - 1
    elif direction > 0:
        target = next((i for i, match in enumerate(matches) if match.row > row), len(matches))
    else:
        target = next((i for i in range(len(matches) - 1, -1, -1) if matches[i].row < row), -1)
    return target % len(matches), not 0 <= target < len(matches)


def fold_hiding(entries: Sequence[ViewEntry], row: int) -> Fold | None:
    """The fold that hides layout row ``row`` (None: the row is shown)."""
    for entry in entries:
        if isinstance(entry, Fold) and entry.start <= row < entry.end:
            return entry
        if isinstance(entry, RowRef) and entry.index == row:
            return None
    return None


def line_of_match(lines: Sequence[ScreenLine], entries: Sequence[ViewEntry], match: Match,
                  room: int | None) -> int | None:
    """The screen line that shows ``match``: its row's line on its side (inline), the wrapped piece holding its
    start (``room``: characters per piece when wrapping)."""
    best: int | None = None
    for i, line in enumerate(lines):  # (inline, a row's dev and main lines are apart: a run's dev lines come first)
        entry = entries[line.entry]
        if not isinstance(entry, RowRef) or entry.index != match.row or line.side not in (None, match.side):
            continue
        if best is None or (room is not None and line.part * room <= match.start):
            best = i
    return best
