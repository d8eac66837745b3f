"""The workbench screen: files on the left, the hunk in the middle, evidence below. Wiring only.

The screen composes the panes, loads the sync in a worker, and routes: keys
to the ``Cursor`` (where the user is, ``services/cursor.py``), to the
commands (``tui/commands/``: deciding, editing, notes, writing and quitting,
bulk moves) or to the widget that owns them; results down to the widgets,
through the presenters (``tui/presentation/``).  Loading shows the sync's
outline as soon as it is known, with a progress bar, and swaps in the full
analysis when it is ready, keeping the file the user moved to; nothing can
be decided before that.  A training quiz is this screen on a workspace that
carries a quiz (``screens/quiz.py`` adds its two keys).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, ProgressBar, Static

from workbench.analysis.display.folds import ViewEntry, fold_layout
from workbench.errors import WorkbenchError
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.services.cursor import Cursor, Shown, opening_hunk, resume_place
from workbench.services.mergetool_file import NO_HISTORY
from workbench.services.sync import LoadProgress, SyncRequest
from workbench.services.workspace import Position, Workspace
from workbench.tui.base_rows import collapse_base_only
from workbench.tui.commands import deciding, editing, noting, preset, training
from workbench.tui.commands.bulk import bulk
from workbench.tui.commands.writing import Writing
from workbench.tui.config import Config
from workbench.tui.fileview import FileView, prepare_commit_diff, prepare_diffs, prepare_file
from workbench.tui.glyphs import short_sha
from workbench.tui.keymap import Scope, bindings
from workbench.tui.loading import Report, Throttle, describe, fraction
from workbench.tui.messages import DiffsReady, FileViewReady, LoadFailed, LoadProgressed, WorkspaceLoaded
from workbench.tui.palette import Palette, theme_palette
from workbench.tui.presentation.file_choice import file_choice_text
from workbench.tui.presentation.file_list import file_row, outline_row, totals
from workbench.tui.presentation.hunk_view import hunk_titles
from workbench.tui.presentation.result_preview import file_choice_preview, preview_lines
from workbench.tui.presentation.sync_bar import MODE_WORD, sync_title
from workbench.tui.presentation.why_panel import why_text
from workbench.tui.screens.commit_diff import CommitDiffScreen
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_pair import DiffPair
from workbench.tui.widgets.file_choice import FileChoicePanel
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.path_bar import PathBar
from workbench.tui.widgets.result_preview import ResultPreview
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.tui.widgets.why_panel import WhyPanel

Loader = Callable[[Report], Workspace]
"""Opens the sync in a worker thread, telling ``Report`` how far it got (it may say nothing)."""


class MainScreen(Screen[None]):
    """Review, decide and write one sync."""

    BINDINGS = bindings(Scope.SCREEN)

    def __init__(self, load: Loader, config: Config, start_file: str | None = None) -> None:
        super().__init__()
        self._load_workspace = load
        """Opens the sync (run in a worker; injected so tests and benchmarks choose the repository)."""
        self.config = config
        self._start_file = start_file
        self.ws: Workspace | None = None
        self.cursor: Cursor | None = None
        """Where the user is (None until the analysis is complete)."""
        self._carried: Cursor | None = None
        """The cursor of the analysis being redone (its view toggles are kept)."""
        self.view: FileView | None = None
        """The prepared rows of the file on screen (None while they are prepared)."""
        self.writing = Writing(self)
        self.zoomed = False
        self.loaded_at: float | None = None
        """Monotonic time the full analysis was on screen (benchmarks read it)."""
        self.outline_at: float | None = None
        """Monotonic time the outline's file list was on screen (benchmarks read it)."""
        self._outline_files = 0
        self._outline_mode: str | None = None
        self.outline_first: str | None = None
        """The row the outline opened on: a different highlight later means the user moved."""
        self._early_notice = 0.0

    # -- what tests and benchmarks read ------------------------------------------------------

    @property
    def path(self) -> str | None:
        """The file on screen."""
        return self.cursor.path if self.cursor is not None else None

    @property
    def current(self) -> int | None:
        """The hunk decisions act on."""
        return self.cursor.current if self.cursor is not None else None

    @property
    def opening(self) -> bool:
        """Whether the file on screen is still being prepared or laid out (its hunk not yet scrolled to)."""
        return self.cursor is not None and self.cursor.opening is not None

    def current_hunk_on_screen(self) -> bool:
        """The hunk view's cursor is where the current hunk opens (its first lost line, else its header)."""
        view = self.query_one(HunkView)
        return self.current is not None and view.opening_line(self.current) == view.cursor

    @property
    def palette(self) -> Palette:
        return theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)

    # -- layout and loading ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SyncBar(id="sync-bar")
        with Horizontal(id="body"):
            yield FileList(id="files")
            with Centre(id="center"):
                yield PathBar(id="path")
                with ContentSwitcher(initial="placeholder", id="views"):
                    yield HunkView(id="hunks")
                    yield DiffPair(id="diffs")
                    yield FileChoicePanel(id="choice")
                    with Vertical(id="placeholder"):
                        yield Static(Text("Analysing the sync…"), id="placeholder-text")
                        yield ProgressBar(id="load-progress", show_eta=False)
                yield ResultPreview(id="result")
                with Horizontal(id="evidence"):
                    yield WhyPanel(id="why")
                    yield HistoryPanel(id="history")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#why").border_title = "Why"
        self.query_one("#history").border_title = "History"
        self.query_one(SyncBar).set_busy("analysing the sync (history, hunks, risk)")
        self.query_one(FileList).options.focus()
        self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        start = time.perf_counter()

        def tell(progress: LoadProgress) -> None:
            self.post_message(LoadProgressed(progress))

        try:
            workspace = self._load_workspace(Throttle(tell))
        except WorkbenchError as exc:
            self.post_message(LoadFailed(str(exc)))
            return
        except Exception as exc:  # noqa: BLE001 - the CLI contract: one line, never a traceback
            self.post_message(LoadFailed(f"internal error: {type(exc).__name__}: {exc}"))
            return
        self.post_message(WorkspaceLoaded(workspace, time.perf_counter() - start))

    def on_load_progressed(self, message: LoadProgressed) -> None:
        """Show the outline at once, then how far the analysis got."""
        if self.ws is not None:
            return
        progress = message.progress
        files = self.query_one(FileList)
        if progress.phase == "outline" and progress.analysis is not None:
            outline = progress.analysis
            rows = [outline_row(entry) for entry in sorted(outline.files, key=lambda f: f.path)]
            self._outline_files = len(rows)
            files.set_files(rows)
            self.outline_first = rows[0].path if rows else None
            self._outline_mode = MODE_WORD[outline.mode]
            name = Path(outline.repo_path).name if outline.repo_path else ""
            self.query_one(SyncBar).set_title(sync_title(outline, name, False), sync_title(outline, name, False, compact=True))
            self.outline_at = time.monotonic()
            self._placeholder("Computing hunks, history and risk. Browse and filter the files meanwhile; "
                              "deciding starts when the analysis is complete.", loading=True)
        done, total = fraction(progress, self._outline_files)
        self.query_one("#load-progress", ProgressBar).update(total=total, progress=done)
        note = describe(progress)
        self.query_one(SyncBar).set_busy(f"loading: {note}")
        if self._outline_mode is not None:
            files.show_loading_note(note, self._outline_mode)

    def on_workspace_loaded(self, message: WorkspaceLoaded) -> None:
        ws = self.ws = message.workspace
        cursor = self.cursor = self._carried.carried_to(ws) if self._carried is not None else Cursor(ws)
        self.log.info(f"sync loaded in {message.seconds:.2f}s")
        name = ws.repo.workdir.name if ws.repo.workdir else ws.repo.gitdir.name
        bar = self.query_one(SyncBar)
        bar.set_title(sync_title(ws.analysis, name, ws.resumed), sync_title(ws.analysis, name, ws.resumed, compact=True))
        bar.set_busy("")
        files = self.query_one(FileList)
        # The user's place in the outline's list is kept; otherwise open on the riskiest file.
        moved = files.highlighted_path if files.highlighted_path != self.outline_first else None
        files.set_files([file_row(ws, entry) for entry in ws.files])
        self._refresh_totals(ws)
        self.loaded_at = time.monotonic()
        if not ws.files:
            self._placeholder("Nothing to review: the sync merged without conflicts.")
            return
        # launch() refuses a --file the sync lacks before this point (require_file).
        start = self._start_file if self._start_file and any(f.path == self._start_file for f in ws.files) else None
        if start is None and moved is not None and moved in files.shown_paths:
            start = moved
        elif start is not None:
            cursor.pending = opening_hunk(ws, start)
        elif ws.resumed and (place := resume_place(ws)) is not None:
            start = place.path  # where the user stopped, not the riskiest file
            cursor.pending = place.hunk if place.hunk is not None else opening_hunk(ws, start)
        first = start or (files.shown_paths[0] if files.shown_paths else None)
        if first is not None:
            files.highlight(first)
            self.open_file(first)
        elif files.filtered:
            self._placeholder("The analysis is complete, but the filter hides every file: esc clears it.")
        if ws.resumed:
            self.notify(ws.resumed_words())
        self.tell_unsaved()
        preset.offer_policy(self, self._reopen)
        if ws.acks_problem:
            self.notify(f"Acknowledgements not read: {ws.acks_problem}", severity="warning", timeout=15)
        if ws.quiz is not None:
            training.welcome(self, bar, ws, ws.quiz)

    def _reopen(self, request: SyncRequest, name: str) -> None:
        """Analyse the sync again with another policy preset; the decisions are kept (they are journaled)."""
        self._load_workspace = lambda report: Workspace.open(request, report)
        self._carried, self.ws, self.cursor = self.cursor, None, None
        self.notify(f"Analysing again with the {name} preset; your decisions are kept.")
        self._load()

    def tell_unsaved(self) -> None:
        """Say once that decisions are no longer saved (the journal could not be claimed or written)."""
        if self.ws is not None and self.ws.unsaved_news and self.ws.unsaved is not None:
            self.ws.unsaved_news = False
            self.notify(f"Working read-only: {self.ws.unsaved}. You can still look and decide; nothing is saved "
                        "or written.", severity="warning", timeout=15)

    def ready_to_decide(self) -> bool:
        """Deciding is possible (the analysis is complete); else say so (at most every few seconds) and ignore the key.

        Keys typed while the sync loads must do nothing silently wrong: never a decision on a file the
        user cannot see yet, never text in a field."""
        if self.ws is not None:
            return True
        now = time.monotonic()
        if now - self._early_notice > 3:
            self._early_notice = now
            self.notify("Still analysing the sync: deciding starts when the analysis is complete "
                        "(the key was ignored).", severity="warning")
        return False

    def _placeholder(self, words: str, loading: bool = False) -> None:
        self.query_one("#placeholder-text", Static).update(Text(words))
        self.query_one("#load-progress", ProgressBar).display = loading
        self.query_one("#views", ContentSwitcher).current = "placeholder"

    # -- opening files -----------------------------------------------------------------------

    @on(FileList.FileHighlighted)
    def _file_highlighted(self, message: FileList.FileHighlighted) -> None:
        if self.cursor is not None and message.path != self.cursor.path:
            self.open_file(message.path)  # (while loading the list moves; files open once the analysis is complete)

    @on(FileList.FileChosen)
    def _file_chosen(self, message: FileList.FileChosen) -> None:
        if self.cursor is None:
            self.notify("Still analysing the sync: files open when it is complete.")
        elif message.path != self.cursor.path:
            self.cursor.open_at(message.path)
            self.open_file(message.path)
        else:
            self.focus_view()

    def open_file(self, path: str) -> None:
        """Show a file: evidence now, rows when the worker has prepared them."""
        assert self.ws is not None and self.cursor is not None
        self.cursor.open(path)
        self.query_one(PathBar).show(path)
        self.view = None
        entry = self.ws.entry(path)
        looked_up = not any(signal.kind == NO_HISTORY for signal in entry.signals)
        self.query_one(HistoryPanel).show(entry.history.dev, entry.history.main, set(), looked_up=looked_up)
        self.query_one(WhyPanel).show(why_text(self.ws, path, None, self.palette))
        self.query_one(ResultPreview).show((), "Result", "")
        self._prepare(path)

    @work(thread=True, exclusive=True, group="file")
    def _prepare(self, path: str) -> None:
        assert self.ws is not None
        self.post_message(FileViewReady(prepare_file(self.ws, path)))

    def on_file_view_ready(self, message: FileViewReady) -> None:
        ws, cursor, view = self.ws, self.cursor, message.view
        if ws is None or cursor is None:
            return
        queued, cursor.queued = cursor.queued, None
        if view.path != cursor.path:
            return
        self.view = view
        switcher = self.query_one("#views", ContentSwitcher)
        if view.layout is None:
            cursor.file_shown(view.path, Shown.WHOLE_FILE)
            self.query_one(FileChoicePanel).show(file_choice_text(ws, view.path, view.sides, self.palette))
            switcher.current = "choice"
            self.query_one(ResultPreview).show(*file_choice_preview(ws, view.path, view.sides))
            if cursor.take_pending():
                self.query_one(FileChoicePanel).focus()
            return
        hunks = self.query_one(HunkView)
        analysis = ws.analysis
        dev_word, main_word = analysis.labels
        hunks.set_sides({"dev": f"{dev_word} {short_sha(analysis.dev)}", "main": f"{main_word} {short_sha(analysis.main)}",
                         "base": f"base {short_sha(analysis.base)}" if analysis.base else "base"})
        hunks.show(view.layout, self._entries(), view.syntax, hunk_titles(ws, view.path), view.lost)
        switcher.current = "diffs" if cursor.show_diffs else "hunks"
        if cursor.show_diffs:
            self._prepare_diffs(view.path)
        position = cursor.file_shown(view.path, Shown.HUNKS)
        focus = cursor.take_pending()
        self._show_current()
        # The view was just switched in and has no size yet: scroll once it is laid out.
        self.call_after_refresh(self._go_when_laid_out, position, focus, 50)
        if queued is not None:  # a decision key pressed while the file opened: now it has a hunk
            cursor.advance_after_go = True  # advance only after the opening move above
            deciding.decide_now(self, queued)

    def _go_when_laid_out(self, position: Position, focus: bool, tries: int) -> None:
        """``go`` once the hunk view has a size (a scroll before layout would be lost).

        Nothing when the user has moved to another file meanwhile: going back would undo their move."""
        if self.cursor is None or self.cursor.path != position.path:
            return
        if self.query_one(HunkView).size.height == 0 and tries > 0:
            self.set_timer(0.01, lambda: self._go_when_laid_out(position, focus, tries - 1))
            return
        self.cursor.laid_out()
        self.go(position, focus)

    # -- moving ------------------------------------------------------------------------------

    def go(self, position: Position, focus: bool = True) -> None:
        """Move to a hunk (or a whole-file choice), opening its file first when needed."""
        cursor = self.cursor
        if cursor is None:
            return
        if not cursor.go(position):
            files = self.query_one(FileList)
            files.highlight(position.path)
            if files.highlighted_path != position.path or cursor.path != position.path:
                self.open_file(position.path)
        else:
            if position.hunk is not None and cursor.shown is Shown.HUNKS:
                self.query_one(HunkView).go_to_hunk(position.hunk)
                self._show_current()
            if focus:
                self.focus_view()
        if cursor.advance_after_go and position.path == cursor.path:
            cursor.advance_after_go = False
            deciding.advance(self)
        if cursor.show_diffs and position.path == cursor.path:
            self._diffs_to_hunk()

    def show_place(self, place: Position) -> None:
        """Show where an undo or redo acted: its hunk, or its file (the filter is cleared if it hides it)."""
        if self.cursor is None:
            return
        files = self.query_one(FileList)
        if place.path not in files.shown_paths:
            files.clear_filter()
        target = self.cursor.place_to_show(place)
        if target is not None:
            self.go(target, focus=False)

    def _show_current(self) -> None:
        """The hunk keys act on changed: show its result, its evidence and its commits."""
        ws, cursor = self.ws, self.cursor
        if ws is None or cursor is None or cursor.path is None:
            return
        self.query_one(HunkView).set_current(cursor.current)
        self._refresh_hunk_panels(ws, cursor.path, cursor.current)

    def _refresh_hunk_panels(self, ws: Workspace, path: str, hunk: int | None) -> None:
        why = self.query_one(WhyPanel)
        if hunk is None:
            why.show(why_text(ws, path, None, self.palette))
            return
        lines, caption = preview_lines(ws, path, hunk)
        self.query_one(ResultPreview).show(lines, caption, "the hunk is empty in the result")
        why.show(why_text(ws, path, hunk, self.palette))
        chosen = ws.hunk(path, hunk)
        self.query_one(HistoryPanel).mark(set(chosen.dev_commits) | set(chosen.main_commits))

    @on(HunkView.CursorMoved)
    def _cursor_moved(self, message: HunkView.CursorMoved) -> None:
        if self.cursor is not None and message.hunk is not None and message.hunk != self.cursor.current:
            self.cursor.current = message.hunk
            self._show_current()

    @on(HunkView.FoldToggled)
    def _fold_toggled(self, message: HunkView.FoldToggled) -> None:
        if self.cursor is not None:
            self.cursor.open_fold(message.start)
            self.query_one(HunkView).refold(self._entries())

    def _entries(self) -> tuple[ViewEntry, ...]:
        assert self.view is not None and self.view.layout is not None and self.cursor is not None
        entries = fold_layout(self.view.layout, self.config.context, self.cursor.expanded, self.cursor.expand_all)
        return entries if self.query_one(HunkView).show_base else collapse_base_only(entries, self.view.layout)

    def focus_view(self) -> None:
        """Focus what the centre shows: the hunk view, the first diff, or the whole-file choice."""
        target = {"hunks": "#hunks", "diffs": "#dev-diff", "choice": "#choice"}.get(
            self.query_one("#views", ContentSwitcher).current or "")
        if target:
            self.query_one(target).focus()

    def _move(self, target: Position | None, otherwise: str) -> None:
        if target is None:
            self.notify(otherwise)
        else:
            self.go(target)

    def _step(self, delta: int) -> None:
        if self.cursor is not None:
            self._move(self.cursor.step(delta, self.query_one(FileList).shown_paths),
                       "That was the last hunk." if delta > 0 else "That was the first hunk.")

    def _risky(self, delta: int) -> None:
        if self.cursor is not None:
            self._move(self.cursor.next_risky(delta), "No other undecided high-risk hunk in this sync.")

    def _open_step(self, delta: int) -> None:
        if self.cursor is not None:
            self._move(self.cursor.next_open(delta), "Every hunk of this sync is decided.")

    # -- after a change ----------------------------------------------------------------------

    def refresh_state(self, paths: set[str] | None = None) -> None:
        """Decisions changed (for ``paths``, or anywhere): redraw counts, titles, preview, diffs."""
        ws, cursor = self.ws, self.cursor
        if ws is None or cursor is None:
            return
        self.tell_unsaved()
        changed = [ws.entry(p) for p in paths] if paths is not None else list(ws.files)
        self.query_one(FileList).update_rows([file_row(ws, entry) for entry in changed])
        self._refresh_totals(ws)
        path = cursor.path
        if path is not None and (paths is None or path in paths) and self.view is not None:
            if self.view.layout is not None:
                self.query_one(HunkView).set_titles(hunk_titles(ws, path))
                if cursor.current is not None:
                    self._refresh_hunk_panels(ws, path, cursor.current)
                if cursor.show_diffs:
                    self._prepare_diffs(path)
            else:
                self.query_one(FileChoicePanel).show(file_choice_text(ws, path, self.view.sides, self.palette))
                self.query_one(ResultPreview).show(*file_choice_preview(ws, path, self.view.sides))
        if ws.quiz is not None and paths is not None:
            training.after_change(self, ws, ws.quiz)

    def _refresh_totals(self, ws: Workspace) -> None:
        self.query_one(FileList).set_totals(totals(ws), MODE_WORD[ws.analysis.mode])

    # -- the diffs ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="diffs")
    def _prepare_diffs(self, path: str) -> None:
        assert self.ws is not None
        self.post_message(DiffsReady(prepare_diffs(self.ws, path)))

    def on_diffs_ready(self, message: DiffsReady) -> None:
        if message.diffs.path == self.path:
            self.query_one(DiffPair).show(message.diffs)
        self.call_after_refresh(self._diffs_to_hunk)

    def _diffs_to_hunk(self) -> None:
        """``v`` follows the current hunk: each diff opens where that hunk's lines are."""
        hunk = self.cursor.current_hunk() if self.cursor is not None else None
        if hunk is not None:
            self.query_one(DiffPair).go_to_hunk(hunk)

    @on(HistoryPanel.CommitChosen)
    def _commit_chosen(self, message: HistoryPanel.CommitChosen) -> None:
        ws, path = self.ws, self.path
        if ws is None or path is None:
            return
        entry = ws.entry(path)
        side_path = (entry.dev if message.side == "dev" else entry.main).path or path
        commit = ws.repo.commit_info(message.sha)
        self.app.push_screen(CommitDiffScreen(commit, message.side, side_path,
                                              lambda: prepare_commit_diff(ws, message.sha, side_path)))

    # -- keys: one line each, to the cursor, a command, or the widget that owns them ----------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the quit dialog is being prepared, keys meant for it must not act on the screen below.

        (``qcc`` typed before the dialog appears would otherwise open a note with ``c``.)"""
        return not self.writing.quitting or action == "quit"

    def request_quit(self) -> None:
        self.writing.quit()

    def action_next_hunk(self) -> None:
        self._step(+1)

    def action_prev_hunk(self) -> None:
        self._step(-1)

    def action_next_risky(self) -> None:
        self._risky(+1)

    def action_prev_risky(self) -> None:
        self._risky(-1)

    def action_next_open(self) -> None:
        self._open_step(+1)

    def action_prev_open(self) -> None:
        self._open_step(-1)

    def action_take_main(self) -> None:
        deciding.take_side(self, Choice.MAIN, FileChoice.TAKE_MAIN)

    def action_take_dev(self) -> None:
        deciding.take_side(self, Choice.DEV, FileChoice.KEEP_DEV)

    def action_take_both(self) -> None:
        deciding.decide(self, Choice.BOTH)

    def action_take_both_main_first(self) -> None:
        deciding.decide(self, Choice.BOTH_MAIN_FIRST)

    def action_keep_result(self) -> None:
        deciding.decide(self, Choice.RESULT)

    def action_restore_merge(self) -> None:
        deciding.restore_merge(self)

    def action_file_main(self) -> None:
        deciding.decide_file(self, Choice.MAIN, FileChoice.TAKE_MAIN)

    def action_file_dev(self) -> None:
        deciding.decide_file(self, Choice.DEV, FileChoice.KEEP_DEV)

    def action_delete_file(self) -> None:
        deciding.delete_file(self)

    def action_undo(self) -> None:
        deciding.undo_redo(self, redo=False)

    def action_redo(self) -> None:
        deciding.undo_redo(self, redo=True)

    def action_edit(self) -> None:
        editing.edit(self)

    def action_note(self) -> None:
        noting.note(self)

    def action_acknowledge(self) -> None:
        noting.acknowledge(self)

    def action_bulk(self) -> None:
        bulk(self)

    def action_write(self) -> None:
        self.writing.write()

    def action_toggle_base(self) -> None:
        hunks = self.query_one(HunkView)
        hunks.set_show_base(not hunks.show_base)
        if self.view is not None and self.view.layout is not None:
            entries = self._entries()  # base-only rows: one line without the base, every row with it
            if entries != hunks.entries:
                hunks.refold(entries)

    def action_toggle_context(self) -> None:
        if self.cursor is not None and self.view is not None and self.view.layout is not None:
            self.cursor.toggle_context()
            self.query_one(HunkView).refold(self._entries())

    def action_toggle_diffs(self) -> None:
        if self.cursor is None or self.view is None or self.view.layout is None:
            self.notify("Diffs are shown for text files with hunks.")
            return
        shown = self.cursor.toggle_diffs()
        self.query_one("#views", ContentSwitcher).current = "diffs" if shown else "hunks"
        if shown:
            self._prepare_diffs(self.view.path)
        self.focus_view()

    def action_zoom(self) -> None:
        """Hide (or show again) the file list and the Why/History panes."""
        self.zoomed = not self.zoomed
        files = self.query_one(FileList)
        files.display = not self.zoomed
        self.query_one(Centre).set_zoom(self.zoomed)
        if self.zoomed and (files.has_focus or files.options.has_focus or self.focused is None):
            self.focus_view()
        self.notify("Zoomed: f shows the file list and the panes again." if self.zoomed else "Zoom off.")

    def action_toggle_inline(self) -> None:
        self.query_one(HunkView).toggle_inline()

    def action_toggle_wrap(self) -> None:
        self.query_one(HunkView).toggle_wrap()

    def action_next_lost(self) -> None:
        """g: the hunk view's next lost line (from any pane), the view focused to read it."""
        if self.query_one("#views", ContentSwitcher).current == "hunks":
            view = self.query_one(HunkView)
            view.action_next_lost()
            view.focus()

    def action_scroll_text(self, step: int) -> None:
        """← →: shift the long lines of the hunk view (or of both diffs), whichever pane has focus."""
        shown = self.query_one("#views", ContentSwitcher).current
        if shown == "hunks":
            self.query_one(HunkView).action_scroll_text(step)
        elif shown == "diffs":
            self.query_one(DiffPair).scroll_text(step)

    def action_filter(self) -> None:
        self.query_one(FileList).open_filter()

    def action_focus_files(self) -> None:
        """esc: back to the file list; in the filter (or on a filtered list), clear the filter."""
        self.query_one(FileList).back_to_list()

    def action_focus_history(self) -> None:
        self.query_one(HistoryPanel).focus()
