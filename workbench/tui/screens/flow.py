"""Working through a long sync: zoom, layout and wrap, bulk decisions, the next undecided hunk, advancing.

Sits between ``BrowsingScreen`` and ``MainScreen``: every handler here is a
few lines over ``moves.py`` (which hunks, counted without Textual) and the
hunk view's own switches.  ``f`` zooms (hides the file list and the
Why/History panes), ``i`` switches side by side / inline, ``l`` wraps, ``A``
asks for a bulk move, ``o``/``O`` go to the next/previous undecided hunk of
any risk; with ``advance = true`` in config.toml a decision moves on.
"""

from __future__ import annotations

from textual import work
from textual.widgets import ContentSwitcher

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.tui.messages import DiffsReady
from workbench.tui.moves import Bulk, Scope, apply_bulk, bulk_targets, count_words, next_undecided
from workbench.tui.screens.browsing import BrowsingScreen
from workbench.tui.screens.bulk import BulkScreen
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_lines import Layout
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.workspace import Position
from workbench.textsafe import visible


class FlowScreen(BrowsingScreen):
    """The base of ``MainScreen``: moves for getting through hundreds of hunks."""

    zoomed = False

    # -- reading -----------------------------------------------------------------------------

    def action_zoom(self) -> None:
        """Hide (or show again) the file list and the Why/History panes."""
        self.zoomed = not self.zoomed
        files = self.query_one(FileList)
        files.display = not self.zoomed
        self.query_one(Centre).set_zoom(self.zoomed)
        if self.zoomed and (files.has_focus or files.options.has_focus or self.focused is None):
            self._focus_view()
        self.notify("Zoomed: f shows the file list and the panes again." if self.zoomed else "Zoom off.")

    def action_toggle_inline(self) -> None:
        hunks = self.query_one(HunkView)
        hunks.set_layout(Layout.SPLIT if hunks.inline else Layout.INLINE)

    def action_toggle_wrap(self) -> None:
        hunks = self.query_one(HunkView)
        hunks.set_wrap(not hunks.wrap)

    # -- moving --------------------------------------------------------------------------------

    def action_next_open(self) -> None:
        self._open_step(+1)

    def action_prev_open(self) -> None:
        self._open_step(-1)

    def _open_step(self, delta: int) -> None:
        if self.ws is None:
            return
        target = next_undecided(self.ws, self._here(), delta)
        if target is None:
            self.notify("Every hunk of this sync is decided.")
            return
        self._go(target)

    def after_decision(self) -> None:
        """With ``advance`` on, go on to the next undecided hunk after a decision."""
        if not self.config.advance or self.ws is None:
            return
        target = next_undecided(self.ws, self._here(), +1)
        if target is not None:
            self._go(target)

    def _go(self, position: Position, focus: bool = True) -> None:
        super()._go(position, focus)
        if self.show_diffs and position.path == self.path:
            self._diffs_to_hunk()

    def on_diffs_ready(self, _message: DiffsReady) -> None:
        # Textual calls every class's handler, this one first: scroll once BrowsingScreen's has shown the rows.
        self.call_after_refresh(self._diffs_to_hunk)

    def _diffs_to_hunk(self) -> None:
        """``v`` follows the current hunk: each diff opens where that hunk's lines are."""
        if self.ws is None or self.path is None or self.current is None:
            return
        hunks = self.ws.entry(self.path).hunks
        if not 0 <= self.current < len(hunks):
            return
        hunk = hunks[self.current]
        self.query_one("#dev-diff", DiffView).go_to_old_line(hunk.dev.start)
        self.query_one("#main-diff", DiffView).go_to_old_line(hunk.main.start)

    # -- bulk ------------------------------------------------------------------------------------

    def action_bulk(self) -> None:
        if self.ws is None:
            self.notify("Still analysing the sync: bulk moves wait until it is complete.")
            return
        self._ask_bulk()

    @work(exclusive=True, group="bulk")
    async def _ask_bulk(self) -> None:
        ws = self.ws
        assert ws is not None
        text_file = self.path if self.view is not None and self.view.layout is not None else None
        start = Bulk(Choice.MAIN, Level.MEDIUM, Scope.SYNC, text_file)

        def count(bulk: Bulk) -> tuple[int, int]:
            targets = bulk_targets(ws, bulk)
            return len(targets), len({path for path, _ in targets})

        label = visible(text_file) if text_file else None
        bulk = await self.app.push_screen_wait(BulkScreen(start, count, label))
        if bulk is None:
            return
        targets, _label = apply_bulk(ws, bulk)
        if not targets:
            return
        self.notify(f"{bulk.words().capitalize()}: {count_words(targets)} decided (u undoes it all).")
        self.refresh_state({path for path, _ in targets})
