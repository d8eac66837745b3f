"""The hunk view: dev and main side by side or inline (base on a toggle), the whole file, context folded.

Rows come prepared (``workbench.analysis.display``): aligned cells with
their word changes, folds, hunk headers; ``hunk_lines.py`` turns them into
screen lines (side by side, or inline like a unified diff, soft-wrapped or
not).  This widget only paints them, in the theme's dev and main hues, with
syntax colours looked up by line.  The layout fits the width by default:
inline when a side would get fewer than ``MIN_SPLIT_TEXT`` characters.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move the cursor |
| PgDn / PgUp | move a page |
| enter | open or close the fold under the cursor |
| g | the next line the result lost (marked ✗) |

Lines the result lost (``Hunk.lost_lines``) carry ✗ in the number gutter
and the theme's high-risk tint; a hunk opens on its first lost line.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from workbench.tui.glyphs import DECIDED, LOST, MARKED, RISK_LETTER, RISK_WORD
from workbench.tui.keymap import Scope, bindings
from workbench.tui.lines import label_segments, number_segment, text_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.syntax import SyntaxSpans
from workbench.tui.widgets.hunk_lines import (
    Layout,
    ScreenLine,
    cut_kinds,
    cut_spans,
    first_difference,
    resolved_layout,
    screen_lines,
    shared_cell,
    split_columns,
)
from workbench.tui.widgets.line_view import LineView
from workbench.wording import plural

_CLEAN_TONE = {Region.DEV: ("dev",), Region.MAIN: ("main",), Region.BOTH: ("dev", "main")}
_INLINE_TAG = {"base": "b ", "dev": "d ", "main": "m ", None: "  "}
"""Inline, the two cells before a line's text say whose line it is (never colour alone)."""


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
        self.layout_mode = Layout.AUTO
        """Side by side, inline, or whichever fits the width (``AUTO``)."""
        self.wrap = False
        """Soft-wrap long lines instead of cutting them (← → pan when off)."""
        self._lines: list[ScreenLine] = []
        self._line_hunk: list[int | None] = []
        self._lines_key: tuple[object, ...] | None = None
        self._lost: Mapping[str, frozenset[int]] = {}
        """Side -> layout rows whose line of that side the result lost."""
        self._lost_starts: list[int] = []
        """Screen lines where a run of lost lines starts (what g jumps to)."""
        self._first_lost: dict[int, int] = {}
        """Hunk -> its first lost screen line."""

    @property
    def inline(self) -> bool:
        """Whether the sides are shown inline now (the layout resolved for the current width)."""
        width = self.scrollable_content_region.width or self.size.width
        return resolved_layout(self.layout_mode, width, self._gutter, self.show_base) is Layout.INLINE

    def set_layout(self, mode: Layout) -> None:
        self.layout_mode = mode
        self.refresh_rows()

    def set_wrap(self, wrap: bool) -> None:
        self.wrap = wrap
        self.x_offset = 0
        self.refresh_rows()

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
        lost: Mapping[str, frozenset[int]] | None = None,
    ) -> None:
        """A new file: rows, folds, syntax spans, hunk titles and the rows that lost lines (``lost_rows``)."""
        self._layout = layout
        self._lost = lost or {}
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
        self._lost = {}
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

    # -- screen lines ------------------------------------------------------------------------

    def refresh_rows(self) -> None:
        """Rebuild the screen lines when what they depend on changed, keeping the cursor's entry."""
        width = self.scrollable_content_region.width
        inline = self.inline
        key = (id(self._entries), len(self._entries), width, inline, self.wrap, self.show_base)
        if key != self._lines_key:
            anchor = self._lines[self.cursor].entry if 0 <= self.cursor < len(self._lines) else None
            self._lines_key = key
            self._lines = screen_lines(self._entries, self._layout, inline, self.show_base,
                                       self._wrap_width(width, inline), self._split_text_widths(width))
            self._line_hunk = [self._entry_hunk[line.entry] for line in self._lines]
            self._headers = {}
            for i, line in enumerate(self._lines):
                entry = self._entries[line.entry]
                if isinstance(entry, HunkHeader):
                    self._headers.setdefault(entry.hunk, i)
            self._index_lost()
            if anchor is not None:
                self.cursor = self._line_of_entry(anchor)
        super().refresh_rows()

    def _index_lost(self) -> None:
        """Where the lost lines are on screen: each run's first line, each hunk's first one."""
        self._lost_starts = []
        self._first_lost = {}
        before = False
        for i, line in enumerate(self._lines):
            lost = self._line_lost(line)
            hunk = self._line_hunk[i]
            if lost and not before:
                self._lost_starts.append(i)
            if lost and hunk is not None:
                self._first_lost.setdefault(hunk, i)
            before = lost

    def _line_lost(self, line: ScreenLine) -> bool:
        entry = self._entries[line.entry]
        if not isinstance(entry, RowRef) or not self._lost:
            return False
        if line.side is not None:
            return entry.index in self._lost.get(line.side, ())
        return any(entry.index in rows for rows in self._lost.values())

    def _wrap_width(self, width: int, inline: bool) -> int | None:
        if not self.wrap:
            return None
        return max(1, width - 1 - self._gutter - 2) if inline else 1

    def _split_text_widths(self, width: int) -> dict[str, int]:
        return {side: max(1, w - self._gutter) for side, w in split_columns(width, self.show_base)}

    def _line_of_entry(self, entry: int) -> int:
        for i, line in enumerate(self._lines):
            if line.entry >= entry:
                return i
        return max(0, len(self._lines) - 1)

    @property
    def cursor_entry(self) -> int | None:
        """The entry (``folds.py``) under the cursor."""
        return self._lines[self.cursor].entry if 0 <= self.cursor < len(self._lines) else None

    def opening_line(self, hunk: int) -> int | None:
        """Where ``go_to_hunk`` puts the cursor: the hunk's first lost line, else its header."""
        first = self._first_lost.get(hunk)
        return first if first is not None else self._headers.get(hunk)

    def go_to_hunk(self, hunk: int) -> None:
        """Cursor on the hunk's first lost line (else its header), the header two lines from the top when both fit."""
        index = self._headers.get(hunk)
        target = self.opening_line(hunk)
        if index is not None and target is not None:
            self.current = hunk
            self._cursor_hunk = hunk
            self._cache.clear()
            fits = target - index + 2 < self.page_height
            self.move_cursor(target, top_margin=target - index + 2 if fits else 2)
            self.refresh()

    def action_next_lost(self) -> None:
        """The next run of lost lines in the file (wrapping around to the first)."""
        if not self._lost_starts:
            self.notify("The result lost no lines of this file.")
            return
        later = [i for i in self._lost_starts if i > self.cursor]
        if not later:
            self.notify("Back to the file's first lost line.")
        self.move_cursor(later[0] if later else self._lost_starts[0], top_margin=2)

    def _set_entries(self, entries: tuple[ViewEntry, ...]) -> None:
        self._entries = entries
        rows = self._layout.rows if self._layout else ()
        self._entry_hunk = [
            e.hunk if isinstance(e, HunkHeader) else rows[e.index].hunk if isinstance(e, RowRef) else None
            for e in entries
        ]
        self._lines_key = None
        self.refresh_rows()

    def _layout_row(self, index: int) -> int | None:
        if not self._lines or index >= len(self._lines):
            return None
        entry = self._entries[self._lines[index].entry]
        if isinstance(entry, RowRef):
            return entry.index
        if isinstance(entry, Fold):
            return entry.start
        start, _end = self._layout.hunk_rows[entry.hunk] if self._layout else (0, 0)
        return start

    def _entry_for_row(self, row: int) -> int:
        """The screen line showing layout row ``row`` (or the fold that hides it)."""
        for i, entry in enumerate(self._entries):
            if isinstance(entry, RowRef) and entry.index == row:
                return self._line_of_entry(i)
            if isinstance(entry, Fold) and entry.start <= row < entry.end:
                return self._line_of_entry(i)
        return 0

    # -- the cursor (messages up) ------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        hunk = self._line_hunk[new] if 0 <= new < len(self._line_hunk) else None
        if hunk != self._cursor_hunk:
            self._cursor_hunk = hunk
            self.post_message(self.CursorMoved(self, hunk))

    def action_toggle_fold(self) -> None:
        if self.cursor_entry is not None:
            entry = self._entries[self.cursor_entry]
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
        return len(self._lines)

    def row_key(self, index: int) -> tuple[object, ...]:
        current = self._line_hunk[index] == self.current and self.current is not None
        return (self.show_base, current, self._lines_key)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        line = self._lines[index]
        entry = self._entries[line.entry]
        current = self.current is not None and self._line_hunk[index] == self.current
        if isinstance(entry, HunkHeader):
            return self._header(entry.hunk, width, palette, current, at_cursor)
        if isinstance(entry, Fold):
            return self._fold(entry, width, palette, at_cursor)
        assert self._layout is not None
        row = self._layout.rows[entry.index]
        if self._lines_key is not None and self._lines_key[3]:
            return self._inline_row(row, line, width, palette, current, at_cursor, entry.index)
        return self._row(row, width, palette, current, at_cursor, line.part, entry.index)

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        if self.inline:
            parts = [(" " * (self._gutter + 1), palette.header)]
            for k, side in enumerate(("base", "dev", "main") if self.show_base else ("dev", "main")):
                parts.append(("   " if k else "", palette.header))
                parts.append((f"{_INLINE_TAG[side].strip()} = {self._sides.get(side, side)}",
                              combine(palette.header, palette.hue[side])))
            parts.append(("   inline (i: side by side)", palette.header))
            return label_segments(parts, width, palette.header)
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
        return split_columns(width, self.show_base)

    def _row(self, row: AlignedRow, width: int, palette: Palette, current: bool, at_cursor: bool,
             part: int, index: int) -> list[Segment]:
        segments = [self._marker(palette, current, at_cursor and part == 0)]
        columns = self._columns(width)
        for k, (side, column_width) in enumerate(columns):
            if k:
                segments.append(Segment("│", palette.separator))
            cell: Cell | None = getattr(row, side)
            lost = index in self._lost.get(side, ())
            segments.extend(self._cell(row, side, cell, column_width, palette, at_cursor, part, lost=lost))
        return segments

    def _inline_row(self, row: AlignedRow, line: ScreenLine, width: int, palette: Palette, current: bool,
                    at_cursor: bool, index: int) -> list[Segment]:
        """One side's line (or a line both sides agree on) across the whole width, tagged d/m/b."""
        side = line.side
        shared = shared_cell(row) if side is None else None
        cell_side = side if side is not None else (shared[0] if shared else "dev")
        cell = getattr(row, cell_side)
        tag_style = combine(palette.muted, palette.hue[side]) if side is not None else palette.muted
        segments = [self._marker(palette, current, at_cursor and line.part == 0),
                    Segment(_INLINE_TAG[side] if line.part == 0 else "  ", tag_style)]
        lost = side is not None and index in self._lost.get(side, ())
        segments.extend(self._cell(row, cell_side, cell, max(0, width - 3), palette, at_cursor, line.part,
                                   inline=side is None, lost=lost))
        return segments

    def _cell(self, row: AlignedRow, side: str, cell: Cell | None, width: int, palette: Palette,
              at_cursor: bool, part: int = 0, inline: bool = False, lost: bool = False) -> list[Segment]:
        segments = self._cell_segments(row, side, cell, width, palette, at_cursor, part, inline)
        if not lost or not segments or len(segments[0].text) < 2:
            return segments
        number, *rest = segments
        words = palette.word[side].bgcolor
        tinted = [s if s.style is not None and s.style.bgcolor == words else Segment(s.text, combine(s.style, palette.lost))
                  for s in rest]
        return [Segment(number.text[:-1], number.style), Segment(LOST, combine(number.style, palette.lost_mark)), *tinted]

    def _cell_segments(self, row: AlignedRow, side: str, cell: Cell | None, width: int, palette: Palette,
                       at_cursor: bool, part: int, inline: bool) -> list[Segment]:
        gutter = min(self._gutter, max(0, width - 1))
        if cell is None:
            return [Segment(" " * width, palette.filler)]
        tinted = not inline and (row.region is Region.HUNK or side in _CLEAN_TONE.get(row.region, ()))
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
        word_style = palette.word[side] if tinted else None
        if not self.wrap:
            return [
                number_segment(cell.no, gutter, number_style),
                *text_segments(cell.text, width - gutter, palette, style, words, word_style, syntax, self.x_offset),
            ]
        room = max(1, width - gutter)
        start, stop = part * room, (part + 1) * room
        if start >= len(cell.text) and part:
            return [number_segment(None, gutter, number_style), Segment(" " * (width - gutter), style)]
        return [
            number_segment(cell.no if part == 0 else None, gutter, number_style),
            *text_segments(cell.text[start:stop], width - gutter, palette, style, cut_spans(words, start, stop),
                           word_style, cut_kinds(syntax, start, stop)),
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

    def action_scroll_text(self, step: int) -> None:
        """→ jumps to the first difference of the cursor's line when it is out of sight, else shifts."""
        if self.wrap:
            return
        target = self._difference_offset() if step > 0 else None
        if target is not None and target > self.x_offset:
            self.x_offset = target
            self.refresh()
            return
        super().action_scroll_text(step)

    def _difference_offset(self) -> int | None:
        """Where the text must start so the cursor line's (or hunk's) first difference shows, if hidden."""
        if self._layout is None or self.cursor_entry is None:
            return None
        entry = self._entries[self.cursor_entry]
        if isinstance(entry, RowRef):
            rows = [self._layout.rows[entry.index]]
        elif isinstance(entry, HunkHeader) and entry.hunk in self._layout.hunk_rows:
            start, end = self._layout.hunk_rows[entry.hunk]
            rows = list(self._layout.rows[start:end])
        else:
            return None
        firsts = [f for f in (first_difference(row, self.show_base) for row in rows) if f is not None]
        if not firsts:
            return None
        width = self.scrollable_content_region.width
        room = (width - 3 if self.inline else min(w for _s, w in self._columns(width))) - self._gutter - 2
        first = min(firsts)
        if self.x_offset <= first < self.x_offset + max(1, room):
            return None
        return max(0, first - 8)

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

