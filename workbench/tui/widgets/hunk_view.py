"""The hunk view: dev and main side by side or inline (base on a toggle), the whole file, context folded.

Rows come prepared (``workbench.analysis.display``): aligned cells with
their word changes, folds, hunk headers; ``hunk_lines.py`` turns them into
screen lines (side by side, or inline like a unified diff, soft-wrapped or
not); ``hunk_index.py`` says where each hunk and lost line is among them;
``hunk_paint.py`` paints a line in the theme's dev and main hues, with
syntax colours looked up by line.  This widget holds the state (file,
cursor, current hunk, layout, wrap) and wires them together.  The layout
fits the width by default: inline when a side would get fewer than
``MIN_SPLIT_TEXT`` characters.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move the cursor |
| PgDn / PgUp | move a page |
| ctrl+d / ctrl+u | move half a page |
| enter | open or close the fold under the cursor |
| g | the next line the result lost (marked ✗) |
| / | search the file's text; then n / N the next / previous match, esc ends it (``searching_view.py``) |

Lines the result lost (``Hunk.lost_lines``) carry ✗ in the number gutter
and the theme's high-risk tint; a hunk opens on its first lost line.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.segment import Segment
from textual.binding import Binding
from textual.events import Click
from textual.message import Message

from workbench.analysis.display.folds import Fold, HunkHeader, RowRef, ViewEntry
from workbench.analysis.display.layout import AlignedRow, FileLayout
from workbench.tui.base_rows import BothDeleted
from workbench.tui.keymap import Scope, bindings
from workbench.tui.palette import Palette
from workbench.tui.syntax import SyntaxSpans
from workbench.tui.widgets.hunk_index import (
    LineIndex,
    entry_hunks,
    index_lines,
    layout_row_at,
    line_for_row,
    line_of_entry,
)
from workbench.tui.widgets.hunk_lines import (
    Layout,
    ScreenLine,
    hidden_difference,
    resolved_layout,
    screen_lines,
    split_columns,
)
from workbench.tui.widgets.hunk_paint import (
    HunkTitle,
    Paint,
    column_titles,
    fold_line,
    header_line,
    inline_row,
    split_row,
)
from workbench.tui.widgets.searching_view import SearchingView

__all__ = ["HunkTitle", "HunkView"]
"""``HunkTitle`` is painted in ``hunk_paint.py``; the screens take it from here, with the view."""


class HunkView(SearchingView):
    """A file's merge, row by row."""

    BINDINGS = [*bindings(Scope.HUNKS), *bindings(Scope.VIEW), Binding("enter", "toggle_fold", "Open fold", show=False)]

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
        self._index = LineIndex()
        self._lines_key: tuple[object, ...] | None = None
        self._lost: Mapping[str, frozenset[int]] = {}
        """Side -> layout rows whose line of that side the result lost."""

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

    def toggle_inline(self) -> None:
        """``i``: side by side, or inline (from whichever the width chose)."""
        self.set_layout(Layout.SPLIT if self.inline else Layout.INLINE)

    def toggle_wrap(self) -> None:
        """``l``: soft-wrap long lines, or cut them again."""
        self.set_wrap(not self.wrap)

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
        self.end_search()
        self._set_entries(entries)
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)

    @property
    def entries(self) -> tuple[ViewEntry, ...]:
        """What the view shows, row by row (hunk headers, rows, folds)."""
        return self._entries

    def clear(self) -> None:
        self.end_search()
        self._layout = None
        self._lost = {}
        self._set_entries(())

    def refold(self, entries: tuple[ViewEntry, ...]) -> None:
        """Folds opened or closed: keep the cursor on the same layout row (or the fold that hides it)."""
        anchor = layout_row_at(self._lines, self._entries, self._layout, self.cursor)
        self._set_entries(entries)
        if anchor is not None:
            self.move_cursor(line_for_row(self._lines, self._entries, anchor))
        self.refolded()

    def set_titles(self, titles: dict[int, HunkTitle]) -> None:
        self._titles = titles
        self.refresh_rows()

    def set_current(self, hunk: int | None) -> None:
        self.current = hunk
        self.refresh_rows()

    def set_show_base(self, show: bool) -> None:
        self.show_base = show
        self.refresh_rows()
        self.search_again()

    def _set_entries(self, entries: tuple[ViewEntry, ...]) -> None:
        self._entries = entries
        self._entry_hunk = entry_hunks(entries, self._layout)
        self._lines_key = None
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
            self._index = index_lines(self._lines, self._entries, self._entry_hunk, self._lost)
            if anchor is not None:
                self.cursor = line_of_entry(self._lines, anchor)
        super().refresh_rows()

    def _wrap_width(self, width: int, inline: bool) -> int | None:
        if not self.wrap:
            return None
        return max(1, width - 1 - self._gutter - 2) if inline else 1

    def _split_text_widths(self, width: int) -> dict[str, int]:
        return {side: max(1, w - self._gutter) for side, w in split_columns(width, self.show_base)}

    @property
    def cursor_entry(self) -> int | None:
        """The entry (``folds.py``) under the cursor."""
        return self._lines[self.cursor].entry if 0 <= self.cursor < len(self._lines) else None

    def opening_line(self, hunk: int) -> int | None:
        """Where ``go_to_hunk`` puts the cursor: the hunk's first lost line, else its header."""
        return self._index.opening_line(hunk)

    def go_to_hunk(self, hunk: int) -> None:
        """Cursor on the hunk's first lost line (else its header), the header two lines from the top when both fit."""
        index = self._index.headers.get(hunk)
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
        starts = self._index.lost_starts
        if not starts:
            self.notify("The result lost no lines of this file.")
            return
        later = [i for i in starts if i > self.cursor]
        if not later:
            self.notify("Back to the file's first lost line.")
        self.move_cursor(later[0] if later else starts[0], top_margin=2)

    # -- queries: what is where among the screen lines ----------------------------------------

    def line_at(self, index: int) -> ScreenLine:
        """Screen line ``index``: its entry, side (inline) and wrapped piece."""
        return self._lines[index]

    def row_at(self, index: int) -> AlignedRow | None:
        """The layout row screen line ``index`` shows (None on a hunk header or a fold)."""
        entry = self._entries[self._lines[index].entry]
        return self._layout.rows[entry.index] if isinstance(entry, RowRef) and self._layout else None

    def hunk_at(self, index: int) -> int | None:
        """The hunk screen line ``index`` belongs to (None: context or a fold)."""
        return self._index.hunk_at(index)

    def header_line_of(self, hunk: int) -> int | None:
        """The screen line of ``hunk``'s header (None when the file shows no such hunk)."""
        return self._index.headers.get(hunk)

    @property
    def hunks_shown(self) -> tuple[int, ...]:
        """The hunks the file shows, top to bottom."""
        return tuple(sorted(self._index.headers, key=self._index.headers.__getitem__))

    def hunk_lines(self, hunk: int) -> range:
        """The screen lines of ``hunk``, header included (empty when it is not shown)."""
        return self._index.hunk_lines(hunk)

    @property
    def visible_lines(self) -> range:
        """The screen lines in view now (under the column titles)."""
        top = round(self.scroll_offset.y)
        return range(top, min(self.row_count, top + self.page_height))

    def hunk_on_screen(self, hunk: int, rows: int = 2) -> bool:
        """Whether ``hunk``'s header, its first ``rows`` lines and the line it opens on are all in view."""
        lines = self._index.hunk_lines(hunk)
        if not lines:
            return False
        opening = self._index.opening_line(hunk)
        last = max(lines.start + min(rows, len(lines) - 1), lines.start if opening is None else opening)
        shown = self.visible_lines
        return lines.start in shown and last in shown

    # -- the cursor (messages up) ------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        hunk = self._index.hunk_at(new)
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

    # -- painting (``hunk_paint.py``) ----------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._lines)

    def row_key(self, index: int) -> tuple[object, ...]:
        current = self._index.hunk_at(index) == self.current and self.current is not None
        return (self.show_base, current, self._lines_key)  # (a search clears the painted strips itself)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        line = self._lines[index]
        entry = self._entries[line.entry]
        current = self.current is not None and self._index.hunk_at(index) == self.current
        if isinstance(entry, HunkHeader):
            return header_line(entry.hunk, self._titles.get(entry.hunk), width, palette, current, at_cursor)
        if isinstance(entry, Fold):
            return fold_line(entry, width, palette, at_cursor)
        assert self._layout is not None
        row = self._layout.rows[entry.index]
        paint = Paint(palette, self._gutter, self._syntax, self._lost, self.show_base, self.wrap, self.x_offset,
                      *self.search_marks())
        if self._lines_key is not None and self._lines_key[3]:
            return inline_row(paint, row, line, width, current, at_cursor, entry.index)
        return split_row(paint, row, width, current, at_cursor, line.part, entry.index)

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        return column_titles(self._sides, width, palette, self._gutter, self.show_base, self.inline)

    # -- searching (``searching_view.py``) -----------------------------------------------------------

    def search_rows(self) -> tuple[FileLayout | None, tuple[ViewEntry, ...], list[ScreenLine], bool]:
        return self._layout, self._entries, self._lines, self.show_base

    def text_room(self, side: str) -> int:
        width = self.scrollable_content_region.width
        return (width - 3 if self.inline else dict(split_columns(width, self.show_base)).get(side, width)) - self._gutter

    def cursor_row(self) -> int | None:
        return layout_row_at(self._lines, self._entries, self._layout, self.cursor)

    def open_fold(self, start: int) -> None:
        self.post_message(self.FoldToggled(self, start))

    # -- panning -------------------------------------------------------------------------------

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
        width = self.scrollable_content_region.width
        room = (width - 3 if self.inline else min(w for _s, w in split_columns(width, self.show_base))) - self._gutter - 2
        return hidden_difference(self._layout, self._entries[self.cursor_entry], self.show_base, self.x_offset, room)
