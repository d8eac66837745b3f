"""The hunk view's search: ``/`` asks for a pattern, ``n``/``N`` go from match to match, ``esc`` ends it.

vim and less users type ``/`` to search what they read and ``n``/``N`` for
the next and previous match; here ``n``/``N`` also move between hunks, so
they mean "match" only while a search is on, and ``esc`` ends the search
(the footer says which).  The keys are this view's (``Scope.HUNKS``),
checked before the screen's: off a search, ``check_action`` turns them
down and the key goes on to the screen, as before.  Where the pattern
occurs is ``hunk_search.py``; this class keeps the search, moves the cursor
(opening a fold, panning long lines) and tells the search field how far it
got.  ``HunkView`` supplies the rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message

from workbench.analysis.display.folds import ViewEntry
from workbench.analysis.display.layout import FileLayout
from workbench.analysis.display.word_diff import Span
from workbench.tui.widgets.hunk_lines import ScreenLine
from workbench.tui.widgets.hunk_search import Found, Match, find, first_from, fold_hiding, line_of_match, step
from workbench.tui.widgets.line_view import LineView

SEARCH_KEYS = frozenset({"next_match", "prev_match", "end_search"})
"""The actions that act only while a search is on."""
MARGIN = 8
"""Characters shown before a match when long lines are panned to it."""


class SearchingView(LineView):
    """A line view whose text can be searched; the subclass says what its rows are."""

    wrap = False
    """Long lines soft-wrapped (the subclass sets it): a match is then on a wrapped piece, never panned to."""

    class SearchAsked(Message):
        """``/``: the user wants to type a pattern (the search field opens)."""

    class SearchMoved(Message):
        """The search found its matches or went to another: the search field says where it is."""

        def __init__(self, found: Found | None) -> None:
            super().__init__()
            self.found = found

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.found: Found | None = None
        """The search on (None: none; ``n``/``N`` move between hunks)."""
        self.last_pattern = ""
        """What the search field offers next time."""
        self._origin: tuple[int, float, int, int] | None = None
        """Cursor, scroll, pan and layout row when the pattern was being typed (esc goes back there)."""
        self._pending: Match | None = None
        """A match in a fold being opened: gone to once the rows come back (``refolded``)."""

    # -- what the subclass provides -------------------------------------------------------------

    def search_rows(self) -> tuple[FileLayout | None, Sequence[ViewEntry], Sequence[ScreenLine], bool]:
        """The layout, the entries shown, the screen lines, and whether the base column is shown."""
        raise NotImplementedError

    def text_room(self, side: str) -> int:
        """Characters of ``side``'s text a line shows."""
        raise NotImplementedError

    def cursor_row(self) -> int | None:
        """The layout row under the cursor."""
        raise NotImplementedError

    def open_fold(self, start: int) -> None:
        """Ask for the fold starting at layout row ``start`` to open (``refolded`` is called after)."""
        raise NotImplementedError

    # -- keys -----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in SEARCH_KEYS:
            return self.found is not None
        return True

    def action_search(self) -> None:
        self._origin = (self.cursor, self.scroll_offset.y, self.x_offset, self.cursor_row() or 0)
        self.post_message(self.SearchAsked())

    def action_next_match(self) -> None:
        self._step(+1)

    def action_prev_match(self) -> None:
        self._step(-1)

    def action_end_search(self) -> None:
        self.end_search()

    # -- the search field's calls -------------------------------------------------------------------

    def search(self, pattern: str) -> Found:
        """Typing: go to the first match from where the search started (wrapping), or back there when none."""
        layout, _entries, _lines, show_base = self.search_rows()
        found = find(layout, pattern, show_base)
        found = found.at(first_from(found, self._origin_row()))
        self._set(found if pattern else None)
        if found.match is not None:
            self._go(found.match)
        else:
            self._back()
        return found

    def keep_search(self, pattern: str) -> None:
        """Enter in the field: the search stays on (``n``/``N`` go on), or ends when the pattern is empty."""
        self.last_pattern = pattern or self.last_pattern
        self._origin = None
        if not pattern or self.found is None:
            self._set(None)
        elif not self.found.matches:
            self.notify(f"No match for {pattern!r} in this file (to filter the file list: esc, then /).")
            self._set(None)

    def cancel_search(self, pattern: str) -> None:
        """Esc in the field: back where the search started, no search on (``pattern`` is offered next time)."""
        self.last_pattern = pattern or self.last_pattern
        self._back()
        self._origin = None
        self._set(None)

    def end_search(self) -> None:
        self._pending = None
        if self.found is not None:
            self._set(None)

    def search_again(self) -> None:
        """The sides shown changed (the base column): the same pattern, found again from the cursor."""
        if self.found is not None:
            layout, _entries, _lines, show_base = self.search_rows()
            found = find(layout, self.found.pattern, show_base)
            self._set(found.at(first_from(found, self.cursor_row() or 0) if found.matches else None))

    def refolded(self) -> None:
        """The entries changed (a fold opened): go to the match that was waiting for it."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self._go(pending)

    def search_marks(self) -> tuple[dict[str, dict[int, tuple[Span, ...]]], tuple[str, int, Span] | None]:
        """What painting highlights: side -> layout row -> the matches there, and the match the view is on."""
        found = self.found
        if found is None:
            return {}, None
        match = found.match
        return found.marks, (match.side, match.row, (match.start, match.stop)) if match is not None else None

    # -- moving -------------------------------------------------------------------------------------

    def _step(self, direction: int) -> None:
        found = self.found
        if found is None:
            return
        if not found.matches:
            self.notify(f"No match for {found.pattern!r} in this file.")
            return
        index, wrapped = step(found, self.cursor_row(), direction)
        if wrapped:
            self.notify("Search wrapped to the " + ("top." if direction > 0 else "bottom."))
        self._set(found.at(index))
        if self.found is not None and self.found.match is not None:
            self._go(self.found.match)

    def _go(self, match: Match) -> None:
        layout, entries, lines, _show_base = self.search_rows()
        fold = fold_hiding(entries, match.row)
        if fold is not None:
            self._pending = match
            self.open_fold(fold.start)
            return
        room = self.text_room(match.side)
        line = line_of_match(lines, entries, match, room if self.wrap else None)
        if line is None:
            return
        if not self.wrap:
            self._pan_to(match, room)
        top = round(self.scroll_offset.y)
        shown = top <= line < top + self.page_height
        self.move_cursor(line, top_margin=None if shown else self.page_height // 3)
        self.post_message(self.SearchMoved(self.found))

    def _pan_to(self, match: Match, room: int) -> None:
        """Long lines shifted so the match shows (a line cut at ``room`` characters ends in ›)."""
        offset = self.x_offset
        if match.start < offset or match.stop > offset + room - 2:
            offset = 0 if match.stop <= room - 2 else max(0, match.start - MARGIN)
        if offset != self.x_offset:
            self.x_offset = offset
            self._cache.clear()
            self.refresh()

    def _back(self) -> None:
        if self._origin is None:
            return
        cursor, scroll, pan, _row = self._origin
        self.x_offset = pan
        self._cache.clear()
        self.scroll_to(y=scroll, animate=False, immediate=True)
        self.move_cursor(cursor)
        self.refresh()

    def _origin_row(self) -> int:
        return self._origin[3] if self._origin is not None else self.cursor_row() or 0

    def _set(self, found: Found | None) -> None:
        on = (self.found is None) != (found is None)
        self.found = found
        self._cache.clear()
        self.refresh()
        if on:
            self.refresh_bindings()
        self.post_message(self.SearchMoved(found))
