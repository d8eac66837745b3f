"""Working through a long sync: zoom, layout and wrap, bulk decisions, the next undecided hunk, advancing.

Sits between ``BrowsingScreen`` and ``MainScreen``: every handler here is a
few lines over ``moves.py`` (which hunks, counted without Textual) and the
hunk view's own switches.  ``f`` zooms (hides the file list and the
Why/History panes), ``i`` switches side by side / inline, ``l`` wraps, ``A``
asks for a bulk move, ``o``/``O`` go to the next/previous undecided hunk of
any risk; with ``advance = true`` in config.toml a decision moves on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rich.text import Text
from textual import work

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.services.policy_offer import PresetFit, fitting_preset
from workbench.services.workspace import Position, Workspace
from workbench.textsafe import visible
from workbench.tui.loading import Report
from workbench.tui.messages import DiffsReady, FileViewReady
from workbench.tui.moves import Bulk, Scope, apply_bulk, bulk_targets, count_words, next_undecided
from workbench.tui.screens.browsing import BrowsingScreen
from workbench.tui.screens.bulk import BulkScreen
from workbench.tui.screens.confirm import Answer, ConfirmScreen
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_lines import Layout
from workbench.tui.widgets.hunk_view import HunkView


class FlowScreen(BrowsingScreen):
    """The base of ``MainScreen``: moves for getting through hundreds of hunks."""

    zoomed = False
    _load_workspace: Callable[[Report], Workspace]
    _queued: Choice | None = None
    """A decision key pressed while the next file was still being prepared: applied once it is shown."""
    _advance_after_go = False
    """A queued decision was applied: advance once the file's opening move (``_go``) is done."""

    def _load(self) -> object:
        """Load the sync again (``MainScreen`` implements it)."""
        raise NotImplementedError

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

    def _decide(self, choice: Choice) -> None:
        """Decide the current hunk; a key pressed while the file opens is kept for it, not lost."""
        if self._hunk_target() is None and self.ws is not None and self.path is not None and self.view is None:
            self._queued = choice
            return
        super()._decide(choice)

    def on_file_view_ready(self, message: FileViewReady) -> None:
        # Textual runs MainScreen's handler (which shows the file) first, then this one.
        choice, self._queued = self._queued, None
        if choice is not None and self.view is message.view and self.view.layout is not None:
            # MainScreen moves to the opening hunk once laid out (``_go``): advance only after that.
            self._advance_after_go = True
            super()._decide(choice)

    def after_decision(self) -> None:
        """With ``advance`` on, go on to the next undecided hunk after a decision."""
        if not self.config.advance or self.ws is None or self._advance_after_go:
            return
        target = next_undecided(self.ws, self._here(), +1)
        if target is not None:
            self._go(target)

    def _go(self, position: Position, focus: bool = True) -> None:
        if position.path != self.path:
            self._queued = None
        super()._go(position, focus)
        if self._advance_after_go and position.path == self.path:
            self._advance_after_go = False
            self.after_decision()
        if self.show_diffs and position.path == self.path:
            self._diffs_to_hunk()

    def on_diffs_ready(self, _message: DiffsReady) -> None:
        # Textual calls every class's handler, this one first: scroll once BrowsingScreen's has shown the rows.
        self.call_after_refresh(self._diffs_to_hunk)

    def _diffs_to_hunk(self) -> None:
        """``v`` follows the current hunk: each diff opens where that hunk's lines are."""
        if self.ws is None or self.path is None or self.current is None:
            return
        hunks = self.ws.entry(self.path).all_hunks
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

    # -- the policy preset offer -----------------------------------------------------------------

    def offer_policy(self) -> None:
        """On the first screen: the repository looks made for a preset and has no policy: say so, offer it."""
        ws = self.ws
        if ws is None or ws.request is None or ws.request.policy is not None:
            return
        fit = fitting_preset(ws.repo, ws.analysis)
        if fit is not None:
            self._ask_preset(fit)

    @work(exclusive=True, group="preset")
    async def _ask_preset(self, fit: PresetFit) -> None:
        question = Text()
        question.append(f"This repository looks like the one the {fit.name!r} policy preset is for", style="bold")
        question.append(f" (its override list exists: {', '.join(fit.evidence)}), but no sync policy is "
                        f"configured, so {', '.join(fit.keep_dev)} are scored as ordinary files.\n\n"
                        f"Use the preset for this session (like --policy {fit.name})? To make it permanent, put "
                        f'preset = "{fit.name}" in .workbench.toml at the repository root.')
        answer = await self.app.push_screen_wait(
            ConfirmScreen(question, [Answer("p", "Use the preset", "preset"), Answer("c", "Continue without", "no")],
                          "no"))
        ws = self.ws
        if answer != "preset" or ws is None or ws.request is None:
            return
        request = replace(ws.request, policy=fit.name)
        self._load_workspace = lambda report: Workspace.open(request, report)
        self.ws = None
        self.notify(f"Analysing again with the {fit.name} preset; your decisions are kept.")
        self._load()
