"""The hunk view: dev and main side by side (base on a toggle), the whole file, context folded.

Rows come prepared (``workbench.analysis.display``): aligned cells with
their word changes, folds, hunk headers.  This widget only paints them, in
the theme's dev and main hues, with syntax colours looked up by line.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move the cursor |
| PgDn / PgUp | move a page |
| enter | open or close the fold under the cursor |
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.message import Message

from workbench.analysis.display.folds import Fold, HunkHeader, RowRef, ViewEntry
from workbench.analysis.display.layout import AlignedRow, Cell, FileLayout, Region
from workbench.analysis.model import Level
from workbench.tui.base_rows import BothDeleted
from workbench.tui.glyphs import DECIDED, MARKED, RISK_LETTER, RISK_WORD
from workbench.tui.keymap import Scope, bindings
from workbench.tui.lines import label_segments, number_segment, text_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.syntax import SyntaxSpans
from workbench.tui.widgets.line_view import LineView
from workbench.wording import plural

_CLEAN_TONE = {Region.DEV: ("dev",), Region.MAIN: ("main",), Region.BOTH: ("dev", "main")}


@dataclass(frozen=True, slots=True)
class HunkTitle:
    """What a hunk's header line says (prepared by the screen from the session)."""

    number: int
    total: int
    level: Level
    risk: int
    taken: str
    decision: str
    decided: bool
    marked: bool = False
    """Edited, but the text still holds conflict markers."""


class HunkView(LineView):
    """A file's merge, row by row."""

    BINDINGS = [*bindings(Scope.VIEW), Binding("enter", "toggle_fold", "Open fold", show=False)]

    class CursorMoved(Message):
        """The cursor entered another hunk (``hunk`` None: it is in context)."""

        def __init__(self, view: HunkView, hunk: int | None) -> None:
            super().__init__()
            self.view = view
            self.hunk = hunk

        @property
        def control(self) -> HunkView:
            return self.view

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, HunkView.CursorMoved)

    class FoldToggled(Message):
        """The user asked to open the fold starting at layout row ``start``."""

        def __init__(self, view: HunkView, start: int) -> None:
            super().__init__()
            self.view = view
            self.start = start

        @property
        def control(self) -> HunkView:
            return self.view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._layout: FileLayout | None = None
        self._entries: tuple[ViewEntry, ...] = ()
        self._syntax: dict[str, SyntaxSpans] = {}
        self._titles: dict[int, HunkTitle] = {}
        self._entry_hunk: list[int | None] = []
        self._headers: dict[int, int] = {}
        self._gutter = 4
        self._cursor_hunk: int | None = None
        self.show_base = False
        """Show the base (merge ancestor) column."""
        self.current: int | None = None
        """The hunk decisions act on; its rows carry a bar on the left."""
        self.header_lines = 1
        self._sides: dict[str, str] = {"base": "base", "dev": "dev", "main": "main"}

    def set_sides(self, labels: dict[str, str]) -> None:
        """Column titles, e.g. {"dev": "dev 33f45187a5 · ours"}."""
        self._sides = dict(labels)
        self.refresh()

    # -- data in (attributes down) ---------------------------------------------------------

    def show(
        self,
        layout: FileLayout,
        entries: tuple[ViewEntry, ...],
        syntax: dict[str, SyntaxSpans],
        titles: dict[int, HunkTitle],
    ) -> None:
        """A new file: rows, folds, syntax spans and hunk titles."""
        self._layout = layout
        self._syntax = syntax
        self._titles = titles
        last = max((c.no for r in layout.rows for c in (r.base, r.dev, r.main) if c is not None), default=1)
        self._gutter = len(str(last)) + 1
        self._cursor_hunk = None
        self.x_offset = 0
        self.current = None
        self._set_entries(entries)
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)

    @property
    def entries(self) -> tuple[ViewEntry, ...]:
        """What the view shows, row by row (hunk headers, rows, folds)."""
        return self._entries

    def clear(self) -> None:
        self._layout = None
        self._set_entries(())

    def refold(self, entries: tuple[ViewEntry, ...]) -> None:
        """Folds opened or closed: keep the cursor on the same layout row (or the fold that hides it)."""
        anchor = self._layout_row(self.cursor)
        self._set_entries(entries)
        if anchor is not None:
            self.move_cursor(self._entry_for_row(anchor))

    def set_titles(self, titles: dict[int, HunkTitle]) -> None:
        self._titles = titles
        self.refresh_rows()

    def set_current(self, hunk: int | None) -> None:
        self.current = hunk
        self.refresh_rows()

    def set_show_base(self, show: bool) -> None:
        self.show_base = show
        self.refresh_rows()

    def go_to_hunk(self, hunk: int) -> None:
        """Cursor on the hunk's header, the header two lines from the top."""
        index = self._headers.get(hunk)
        if index is not None:
            self.current = hunk
            self._cursor_hunk = hunk
            self._cache.clear()
            self.move_cursor(index, top_margin=2)
            self.refresh()

    def _set_entries(self, entries: tuple[ViewEntry, ...]) -> None:
        self._entries = entries
        rows = self._layout.rows if self._layout else ()
        self._entry_hunk = [
            e.hunk if isinstance(e, HunkHeader) else rows[e.index].hunk if isinstance(e, RowRef) else None
            for e in entries
        ]
        self._headers = {e.hunk: i for i, e in enumerate(entries) if isinstance(e, HunkHeader)}
        self.refresh_rows()

    def _layout_row(self, index: int) -> int | None:
        if not self._entries or index >= len(self._entries):
            return None
        entry = self._entries[index]
        if isinstance(entry, RowRef):
            return entry.index
        if isinstance(entry, Fold):
            return entry.start
        start, _end = self._layout.hunk_rows[entry.hunk] if self._layout else (0, 0)
        return start

    def _entry_for_row(self, row: int) -> int:
        for i, entry in enumerate(self._entries):
            if isinstance(entry, RowRef) and entry.index == row:
                return i
            if isinstance(entry, Fold) and entry.start <= row < entry.end:
                return i
        return 0

    # -- the cursor (messages up) ------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        hunk = self._entry_hunk[new] if 0 <= new < len(self._entry_hunk) else None
        if hunk != self._cursor_hunk:
            self._cursor_hunk = hunk
            self.post_message(self.CursorMoved(self, hunk))

    def action_toggle_fold(self) -> None:
        if 0 <= self.cursor < len(self._entries):
            entry = self._entries[self.cursor]
            if isinstance(entry, BothDeleted):
                self.notify("Both sides deleted these base lines: a shows the base column.")
            elif isinstance(entry, Fold):
                self.post_message(self.FoldToggled(self, entry.start))

    def on_click(self, event: Click) -> None:
        super().on_click(event)
        if event.chain == 2:
            self.action_toggle_fold()

    # -- painting ----------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._entries)

    def row_key(self, index: int) -> tuple[object, ...]:
        return (self.show_base, self._entry_hunk[index] == self.current and self.current is not None)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        entry = self._entries[index]
        current = self.current is not None and self._entry_hunk[index] == self.current
        if isinstance(entry, HunkHeader):
            return self._header(entry.hunk, width, palette, current, at_cursor)
        if isinstance(entry, Fold):
            return self._fold(entry, width, palette, at_cursor)
        assert self._layout is not None
        return self._row(self._layout.rows[entry.index], width, palette, current, at_cursor)

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        segments = [Segment(" ", palette.header)]
        for k, (side, column_width) in enumerate(self._columns(width)):
            if k:
                segments.append(Segment("│", combine(palette.header, palette.separator.without_color)))
            title = " " * self._gutter + self._sides.get(side, side)
            segments.extend(label_segments([(title, combine(palette.header, palette.hue[side]))], column_width, palette.header))
        return segments

    def _marker(self, palette: Palette, current: bool, at_cursor: bool) -> Segment:
        if at_cursor:
            return Segment("▶", combine(palette.text, palette.cursor))
        if current:
            return Segment("▌", palette.bar)
        return Segment(" ", palette.text)

    def _columns(self, width: int) -> list[tuple[str, int]]:
        sides = ["base", "dev", "main"] if self.show_base else ["dev", "main"]
        available = max(0, width - 1 - (len(sides) - 1))
        each = available // len(sides)
        widths = [each] * len(sides)
        widths[-1] += available - each * len(sides)
        return list(zip(sides, widths))

    def _row(self, row: AlignedRow, width: int, palette: Palette, current: bool, at_cursor: bool) -> list[Segment]:
        segments = [self._marker(palette, current, at_cursor)]
        columns = self._columns(width)
        for k, (side, column_width) in enumerate(columns):
            if k:
                segments.append(Segment("│", palette.separator))
            cell: Cell | None = getattr(row, side)
            segments.extend(self._cell(row, side, cell, column_width, palette, at_cursor))
        return segments

    def _cell(self, row: AlignedRow, side: str, cell: Cell | None, width: int, palette: Palette,
              at_cursor: bool) -> list[Segment]:
        gutter = min(self._gutter, max(0, width - 1))
        if cell is None:
            return [Segment(" " * width, palette.filler)]
        tinted = row.region is Region.HUNK or side in _CLEAN_TONE.get(row.region, ())
        if row.region is Region.HUNK and side == "base":
            tinted = bool(cell.vs_base)
        style = combine(palette.text, palette.line[side]) if tinted else palette.text
        number_style = combine(palette.muted, palette.cursor) if at_cursor else (
            combine(palette.muted, palette.line[side]) if tinted else palette.muted
        )
        if row.region is Region.SAME:
            words: tuple[tuple[int, int], ...] = ()
        elif side == "base":
            words = cell.vs_base
        else:
            words = cell.vs_base if self.show_base else cell.vs_other
        syntax = self._syntax.get(side, {}).get(cell.no - 1, ())
        return [
            number_segment(cell.no, gutter, number_style),
            *text_segments(cell.text, width - gutter, palette, style, words, palette.word[side] if tinted else None,
                           syntax, self.x_offset),
        ]

    def _header(self, hunk: int, width: int, palette: Palette, current: bool, at_cursor: bool) -> list[Segment]:
        title = self._titles.get(hunk)
        base = palette.header_current if current else palette.header
        if title is None:
            return label_segments([(f" hunk {hunk + 1}", base)], width, base)
        risk_style = combine(base, Style(color=palette.risk[title.level].color, bold=True)) if not current else base
        mark = "▶" if at_cursor else ("▌" if current else " ")
        flag = f"{MARKED} " if title.marked else f"{DECIDED} " if title.decided else ""
        marked_style = combine(base, Style(color=palette.risk[Level.HIGH].color, bold=True)) if not current else base
        parts = [
            (f"{mark}hunk {title.number}/{title.total}  ", base),
            (f"{RISK_LETTER[title.level]} {title.risk:>3} {RISK_WORD[title.level]}", risk_style),
            (f"  ·  {title.taken}  ·  ", base),
            (flag + title.decision, marked_style if title.marked else base),
        ]
        return label_segments(parts, width, base)

    def _fold(self, fold: Fold, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        style = combine(palette.fold, palette.cursor) if at_cursor else palette.fold
        if isinstance(fold, BothDeleted):
            text = f"{'▶' if at_cursor else ' '} ⋯ {plural(fold.end - fold.start, 'base line')} deleted on both sides  (a shows the base)"
            return label_segments([(text, style)], width, style)
        changes = []
        if fold.dev_changes:
            changes.append(f"{plural(fold.dev_changes, 'clean change')} from dev")
        if fold.main_changes:
            changes.append(f"{fold.main_changes} from main")
        if fold.both_changes:
            changes.append(f"{fold.both_changes} made on both sides")
        detail = ", ".join(changes) if changes else "the same on both sides"
        style = combine(palette.fold, palette.cursor) if at_cursor else palette.fold
        text = f"{'▶' if at_cursor else ' '} ⋯ {fold.lines} lines: {detail}  (enter shows them, z shows all)"
        return label_segments([(text, style)], width, style)
