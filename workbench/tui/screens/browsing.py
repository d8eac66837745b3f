"""Moving between hunks and choosing what the centre shows: the main screen's navigation.

Handlers here only move the cursor, fold and unfold, switch between the
hunk view and the two diffs, open a commit's diff and move focus; they never
change a decision.  ``MainScreen`` (``screens/main.py``) lays out the panes
and opens files; the commands that decide live in ``DecidingScreen`` below
both.
"""

from __future__ import annotations

from textual import on, work
from textual.widgets import ContentSwitcher

from workbench.analysis.display.folds import ViewEntry, fold_layout
from workbench.services.workspace import Position
from workbench.tui import present
from workbench.tui.base_rows import collapse_base_only
from workbench.tui.fileview import prepare_commit_diff, prepare_diffs
from workbench.tui.messages import DiffsReady
from workbench.tui.palette import Palette, theme_palette
from workbench.tui.screens.commit_diff import CommitDiffScreen
from workbench.tui.screens.deciding import DecidingScreen
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.result_preview import ResultPreview
from workbench.tui.widgets.why_panel import WhyPanel


class BrowsingScreen(DecidingScreen):
    """The base of ``MainScreen``: navigation over its ``ws``, ``path``, ``current`` and ``view``."""

    show_diffs: bool
    _pending_hunk: int | None
    _expanded: frozenset[int]
    _expand_all: bool

    def open_file(self, path: str) -> None:
        """Show a file (the screen that lays out the panes implements it)."""
        raise NotImplementedError

    @property
    def palette(self) -> Palette:
        return theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)

    def _entries(self) -> tuple[ViewEntry, ...]:
        assert self.view is not None and self.view.layout is not None
        entries = fold_layout(self.view.layout, self.config.context, self._expanded, self._expand_all)
        if self.query_one(HunkView).show_base:
            return entries
        return collapse_base_only(entries, self.view.layout)

    # -- hunks -----------------------------------------------------------------------------

    def _go(self, position: Position, focus: bool = True) -> None:
        """Move to a hunk (or a whole-file choice), opening its file first when needed."""
        if position.path != self.path or self.view is None:
            self._pending_hunk = position.hunk if position.hunk is not None else 0
            files = self.query_one(FileList)
            files.highlight(position.path)
            if files.highlighted_path != position.path or self.path != position.path:
                self.open_file(position.path)
            return
        if position.hunk is not None and self.view.layout is not None:
            self.query_one(HunkView).go_to_hunk(position.hunk)
            self.set_current(position.hunk)
        if focus:
            self._focus_view()

    def show_place(self, place: Position) -> None:
        """Show where an undo or redo acted: its hunk, or its file (the filter is cleared if it hides it)."""
        if self.ws is None:
            return
        files = self.query_one(FileList)
        if place.path not in files.shown_paths:
            files.clear_filter()
        if place.hunk is None:
            if place.path == self.path:
                return
            hunks = self.ws.entry(place.path).all_hunks
            place = Position(place.path, self.ws.opening_hunk(place.path) if hunks else None)
        self._go(place, focus=False)

    def set_current(self, hunk: int | None) -> None:
        """The hunk keys act on: show its result, its evidence and its commits."""
        if self.ws is None or self.path is None:
            return
        self.current = hunk
        self.query_one(HunkView).set_current(hunk)
        self._refresh_hunk_panels()

    def _refresh_hunk_panels(self) -> None:
        assert self.ws is not None and self.path is not None
        hunk = self.current
        why = self.query_one(WhyPanel)
        preview = self.query_one(ResultPreview)
        if hunk is None:
            why.show(present.why_text(self.ws, self.path, None, self.palette))
            return
        lines, caption = present.preview_lines(self.ws, self.path, hunk)
        preview.show(lines, caption, "the hunk is empty in the result")
        why.show(present.why_text(self.ws, self.path, hunk, self.palette))
        chosen = self.ws.hunk(self.path, hunk)
        self.query_one(HistoryPanel).mark(set(chosen.dev_commits) | set(chosen.main_commits))

    @on(HunkView.CursorMoved)
    def _cursor_moved(self, message: HunkView.CursorMoved) -> None:
        if message.hunk is not None and message.hunk != self.current:
            self.set_current(message.hunk)

    @on(HunkView.FoldToggled)
    def _fold_toggled(self, message: HunkView.FoldToggled) -> None:
        self._expanded = self._expanded | {message.start}
        self.query_one(HunkView).refold(self._entries())

    def _focus_view(self) -> None:
        switcher = self.query_one("#views", ContentSwitcher)
        target = {"hunks": "#hunks", "diffs": "#dev-diff", "choice": "#choice"}.get(switcher.current or "")
        if target:
            self.query_one(target).focus()

    def action_next_hunk(self) -> None:
        self._step(+1)

    def action_prev_hunk(self) -> None:
        self._step(-1)

    def _here(self) -> Position | None:
        if self.path is None:
            return None
        return Position(self.path, self.current if self.ws and self.ws.entry(self.path).all_hunks else None)

    def _step(self, delta: int) -> None:
        if self.ws is None:
            return
        target = self.ws.step(self._here(), delta, self.query_one(FileList).shown_paths)
        if target is None:
            self.notify("That was the last hunk." if delta > 0 else "That was the first hunk.")
            return
        self._go(target)

    def action_next_risky(self) -> None:
        self._risky(+1)

    def action_prev_risky(self) -> None:
        self._risky(-1)

    def _risky(self, delta: int) -> None:
        if self.ws is None:
            return
        target = self.ws.next_open_risk(self._here(), delta)
        if target is None:
            self.notify("No other undecided high-risk hunk in this sync.")
            return
        self._go(target)

    # -- toggles and focus -----------------------------------------------------------------

    def action_toggle_base(self) -> None:
        hunks = self.query_one(HunkView)
        hunks.set_show_base(not hunks.show_base)
        if self.view is not None and self.view.layout is not None:
            entries = self._entries()  # base-only rows: one line without the base, every row with it
            if entries != hunks.entries:
                hunks.refold(entries)

    def action_toggle_context(self) -> None:
        if self.view is None or self.view.layout is None:
            return
        self._expand_all = not self._expand_all
        self._expanded = frozenset()
        self.query_one(HunkView).refold(self._entries())

    def action_toggle_diffs(self) -> None:
        if self.view is None or self.view.layout is None:
            self.notify("Diffs are shown for text files with hunks.")
            return
        self.show_diffs = not self.show_diffs
        switcher = self.query_one("#views", ContentSwitcher)
        if self.show_diffs:
            switcher.current = "diffs"
            self._prepare_diffs(self.view.path)
        else:
            switcher.current = "hunks"
        self._focus_view()

    @work(thread=True, exclusive=True, group="diffs")
    def _prepare_diffs(self, path: str) -> None:
        assert self.ws is not None
        self.post_message(DiffsReady(prepare_diffs(self.ws, path)))

    def on_diffs_ready(self, message: DiffsReady) -> None:
        diffs = message.diffs
        if diffs.path != self.path:
            return
        result = "result (deleted)" if diffs.deleted else "result as written now"
        for side, rows in (("dev", diffs.dev), ("main", diffs.main)):
            view = self.query_one(f"#{side}-diff", DiffView)
            view.set_title([(side, side), (" → ", None), (result, "result")])
            view.show(rows, side, "result", diffs.syntax.get(side), diffs.syntax.get("result"),
                      empty=f"the result is identical to {side}")

    def action_next_lost(self) -> None:
        """g: the hunk view's next lost line (from any pane), the view focused to read it."""
        if self.query_one("#views", ContentSwitcher).current == "hunks":
            view = self.query_one(HunkView)
            view.action_next_lost()
            view.focus()

    def action_scroll_text(self, step: int) -> None:
        """← →: shift the long lines of the hunk view (or of both diffs), whichever pane has focus."""
        switcher = self.query_one("#views", ContentSwitcher)
        if switcher.current == "hunks":
            self.query_one(HunkView).action_scroll_text(step)
        elif switcher.current == "diffs":
            for view in self.query(DiffView):
                view.action_scroll_text(step)

    def action_filter(self) -> None:
        self.query_one(FileList).open_filter()

    def action_focus_files(self) -> None:
        """esc: back to the file list; in the filter (or on a filtered list), clear the filter."""
        files = self.query_one(FileList)
        if files.filtering or (files.filtered and files.options.has_focus):
            files.clear_filter()
        files.options.focus()

    def action_focus_history(self) -> None:
        self.query_one(HistoryPanel).focus()

    @on(HistoryPanel.CommitChosen)
    def _commit_chosen(self, message: HistoryPanel.CommitChosen) -> None:
        if self.ws is None or self.path is None:
            return
        ws, path = self.ws, self.path
        entry = ws.entry(path)
        side_path = (entry.dev if message.side == "dev" else entry.main).path or path
        commit = ws.repo.commit_info(message.sha)
        self.app.push_screen(CommitDiffScreen(commit, message.side, side_path,
                                              lambda: prepare_commit_diff(ws, message.sha, side_path)))
