"""The workbench screen: files on the left, the hunk in the middle, evidence below. Wiring only.

The screen composes the panes, loads the sync in a worker, and routes: keys
to the ``Cursor`` (where the user is, ``services/cursor.py``), to the
actions (``tui/actions/``: deciding, editing, notes, writing and quitting,
bulk moves) or to the widget that owns them; results down to the widgets,
through the presenters (``tui/presentation/``).  Loading shows the sync's
outline as soon as it is known, with a progress bar, and swaps in the full
analysis when it is ready, keeping the file the user moved to; nothing can
be decided before that.  A loader may also give a first look (``git
mergetool``: the file's hunks from its three versions), shown, read-only
and with its risk pending, until the complete analysis replaces it.  A
training quiz is this screen on a workspace that carries a quiz
(``screens/quiz.py`` adds its two keys).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Future

from textual import on, work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import ContentSwitcher
from textual.worker import Worker

from workbench.analysis.display.folds import ViewEntry, fold_layout
from workbench.services.cursor import Cursor, Shown
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Position, Workspace
from workbench.tui.actions import announcing, training, viewing
from workbench.tui.actions.writing import Writing
from workbench.tui.base_rows import collapse_base_only
from workbench.tui.config import Config
from workbench.tui.fileview import FirstLook, PreparedFile, prepare_file, reprepared
from workbench.tui.keymap import Scope, bindings
from workbench.tui.loading import Report
from workbench.tui.messages import DiffsReady, FilePrepared, LoadProgressed, WorkspaceLoaded, load_posting
from workbench.tui.palette import Palette
from workbench.tui.presentation.suggestion import Previewing
from workbench.tui.screens.key_waits import why_wait
from workbench.tui.screens.left_pane import LeftPane
from workbench.tui.screens.main_keys import MainKeys
from workbench.tui.screens.panes import Panes, layout
from workbench.tui.widgets.file_choice import FileChoicePanel
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.tui.widgets.worklist import WorklistPanel

Loader = Callable[[Report], Workspace]
"""Opens the sync in a worker thread, telling ``Report`` how far it got (it may say nothing)."""


class MainScreen(MainKeys, Screen[None]):
    """Review, decide and write one sync."""

    BINDINGS = bindings(Scope.SCREEN)

    def __init__(self, load: Loader, config: Config, start_file: str | None = None,
                 first_look: Future[FirstLook] | None = None) -> None:
        super().__init__()
        self._load_workspace = load
        """Opens the sync (run in a worker; injected so tests and benchmarks choose the repository)."""
        self._first_look = first_look
        """A first look to show while ``load`` runs (``launch.start_first_look``), or None."""
        self.config = config
        self._start_file = start_file
        self.ws: Workspace | None = None
        self.cursor: Cursor | None = None
        """Where the user is (None until the analysis, or a first look of it, is on screen)."""
        self._carried: Cursor | None = None
        """The cursor of the analysis being redone or of the first look being replaced (its toggles are kept)."""
        self._commands: set[Worker[object]] = set()
        """Commands that ask questions (``start``), running: keys wait for them (or for the dialog they open)."""
        self.view: PreparedFile | None = None
        """The prepared rows of the file on screen (None while they are prepared)."""
        self.writing = Writing(self)
        self.panes = Panes(self)
        self.zoomed = False
        self.previewing: Previewing | None = None
        """A candidate shown in the Result pane (``C``) instead of the hunk's result."""
        self.loaded_at: float | None = None
        """Monotonic time the full analysis was on screen (benchmarks read it)."""
        self._early_notice = 0.0
        self.left = LeftPane(self)

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
        return self.panes.palette

    @property
    def outline_at(self) -> float | None:
        """Monotonic time the outline's file list was on screen (benchmarks read it)."""
        return self.panes.outline_at

    @property
    def outline_first(self) -> str | None:
        """The row the outline opened on (a different highlight later means the user moved)."""
        return self.panes.outline_first

    # -- layout and loading ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from layout()

    def on_mount(self) -> None:
        self.query_one("#why").border_title = "Why"
        self.query_one("#history").border_title = "History"
        self.query_one(SyncBar).set_busy("analysing the sync (history, hunks, risk)")
        self.query_one(WorklistPanel).display = False  # shown once the analysis has items
        self.query_one(FileList).options.focus()
        first_look, self._first_look = self._first_look, None
        if first_look is not None and first_look.done() and first_look.exception() is None:
            found = first_look.result()  # ready: shown in the screen's first frame
            self.on_workspace_loaded(WorkspaceLoaded(found.workspace, 0.0, found.view))
        elif first_look is not None:
            self._load_first_look(first_look)
        self._load()

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        load_posting(self._load_workspace, self.post_message)

    @work(thread=True, group="first-look")
    def _load_first_look(self, first_look: Future[FirstLook]) -> None:
        try:
            found = first_look.result()
        except Exception as exc:  # noqa: BLE001 - the complete load reads the same files and reports any problem
            self.log.warning(f"no first look: {type(exc).__name__}: {exc}")
            return
        self.post_message(WorkspaceLoaded(found.workspace, 0.0, found.view))

    def on_load_progressed(self, message: LoadProgressed) -> None:
        if self.ws is None:
            self.panes.show_progress(message.progress)

    def on_workspace_loaded(self, message: WorkspaceLoaded) -> None:
        ws, shown = message.workspace, self.ws
        if ws.pending is not None and (shown is not None or self.loaded_at is not None):
            return  # a first look that came after the complete analysis
        first_look = self.cursor if shown is not None and shown.pending is not None else None
        self.ws = ws
        if ws.pending is None:
            # The analysis lives as long as the app: leave it (and the app) out of the cyclic collector's full
            # passes, which otherwise walked it on every few hundred keys (visible pauses on a real sync).
            # Reference counting still frees it; the app unfreezes when it exits. The young
            # generations are collected first (well under a millisecond), so no garbage of the load is frozen.
            gc.collect(1)
            gc.freeze()
        carried, self._carried = first_look or self._carried, None
        cursor = self.cursor = carried.carried_to(ws) if carried is not None else Cursor(ws)
        self.log.info("first look shown" if ws.pending is not None else f"sync loaded in {message.seconds:.2f}s")
        moved = self.panes.show_loaded(ws)  # the user's place in the outline is kept; else the riskiest file
        files = self.query_one(FileList)
        if ws.pending is None:
            self.loaded_at = time.monotonic()
        if not ws.files:
            self.panes.placeholder("Nothing to review: the sync merged without conflicts.")
            return
        # launch() refuses a --file the sync lacks before this point (require_file).
        first = cursor.first_file(self._start_file, moved, files.shown_paths)
        if ws.pending is None and first_look is None:
            first = self.left.open_on_items(ws, cursor, first, self._start_file, moved)
        if first_look is not None:
            cursor.keep_move(first_look, first)
        if first is not None:
            files.highlight(first)
            prepared = message.view if message.view is not None and message.view.path == first else None
            folds: frozenset[int] = frozenset()
            if first_look is not None:
                prepared = reprepared(ws, first, self.view)
                if prepared is not None:  # the file on screen, on the same layout: the folds the user opened stay open
                    folds = first_look.expanded
            self.open_file(first, prepared, folds)
        elif files.filtered:
            self.panes.placeholder("The analysis is complete, but the filter hides every file: esc clears it.")
        if ws.pending is not None:
            self.query_one(SyncBar).set_busy(f"reading {ws.pending}")
            return
        if first_look is not None and self._early_notice:  # a key was refused on the first look
            self.notify("The analysis is complete: deciding works now.")
        announcing.after_load(self, ws, self._reopen, self.query_one(SyncBar))

    def _reopen(self, request: SyncRequest, name: str) -> None:
        """Analyse the sync again with another policy preset; the decisions are kept (they are journaled)."""
        self._load_workspace = lambda report: Workspace.open(request, report)
        self._carried, self.ws, self.cursor = self.cursor, None, None
        self.notify(f"Analysing again with the {name} preset; your decisions are kept.")
        self._load()

    def ready_to_decide(self) -> bool:
        """Deciding is possible (the analysis is complete); else say so (at most every few seconds) and ignore the key.

        Keys typed while the sync loads must do nothing silently wrong: never a decision on a file the
        user cannot see yet, never text in a field."""
        ws = self.ws
        if ws is not None and ws.pending is None:
            return True
        now = time.monotonic()
        if now - self._early_notice > 3:
            self._early_notice = now
            announcing.key_waits(self, ws)
        return False

    def start(self, work: Callable[[], Coroutine[None, None, object]], group: str, exclusive: bool = False) -> Worker[object]:
        """Run a command that asks questions (a dialog to wait for) as a worker of this screen; keys typed
        meanwhile wait for its dialog, or for its end (``key_wait``)."""
        worker: Worker[object] = self.run_worker(work, group=group, exclusive=exclusive)
        self._commands.add(worker)
        return worker

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.is_finished:
            self._commands.discard(event.worker)

    def key_wait(self, key: str) -> str | None:
        """Why ``key`` must wait (``KeyGate``, rules in ``key_waits.py``), or None."""
        return why_wait(self.active_bindings.get(key), self, self.cursor, self.ws, self.query_one(FileList),
                        self._commands)

    # -- the left pane: the worklist or the file list -------------------------------------------

    @property
    def left_showing(self) -> str:
        """"items" (the worklist) or "files"."""
        return self.left.showing

    def show_left(self, name: str, focus: bool = True) -> None:
        self.left.show(name, focus)

    @on(WorklistPanel.ItemHighlighted)
    def _item_highlighted(self, message: WorklistPanel.ItemHighlighted) -> None:
        self.left.go_to_item(message.item_id, focus=False)

    @on(WorklistPanel.ItemChosen)
    def _item_chosen(self, message: WorklistPanel.ItemChosen) -> None:
        self.left.go_to_item(message.item_id, focus=True)

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

    def open_file(self, path: str, prepared: PreparedFile | None = None, folds: frozenset[int] = frozenset()) -> None:
        """Show a file: evidence now, rows when the worker has prepared them (at once when ``prepared``);
        ``folds`` open (see ``Cursor.open``)."""
        assert self.ws is not None and self.cursor is not None
        self.cursor.open(path, folds)
        self.view = None
        self.panes.show_opening(self.ws, path)
        if prepared is not None:
            self.on_file_prepared(FilePrepared(prepared, self.ws, self.cursor.opened))
        else:
            self._prepare(self.ws, path, self.cursor.opened)

    @work(thread=True, exclusive=True, group="file")
    def _prepare(self, ws: Workspace, path: str, opening: int) -> None:
        """(A thread cannot be cancelled: a file left and opened again may have two preparations under way.)"""
        self.post_message(FilePrepared(prepare_file(ws, path), ws, opening))

    def on_file_prepared(self, message: FilePrepared) -> None:
        ws, cursor, view = self.ws, self.cursor, message.view
        if ws is None or cursor is None or message.workspace is not ws:
            return
        if view.path != cursor.path or message.opening != cursor.opened:
            return
        self.view = view
        browsing, self.left.browsing = self.left.browsing, False
        if view.layout is None:
            cursor.file_shown(view.path, Shown.WHOLE_FILE)
            self.panes.show_whole_file(ws, view)
            self.panes.centre_shows("choice")
            if cursor.take_pending() and not browsing:
                self.query_one(FileChoicePanel).focus()
            return
        self.panes.show_hunks(ws, view, self.entries())
        self.panes.centre_shows("diffs" if cursor.show_diffs else "hunks")
        if cursor.show_diffs:
            viewing.prepare(self, view.path)
        position = cursor.file_shown(view.path, Shown.HUNKS)
        focus = cursor.take_pending() and not browsing
        self._show_current()
        # The view was just switched in and has no size yet: scroll once it is laid out.
        self.call_after_refresh(self._go_when_laid_out, position, focus, 50)

    def _go_when_laid_out(self, position: Position, focus: bool, tries: int) -> None:
        """``go`` once the hunk view has a size (a scroll before layout would be lost), to the hunk the cursor is
        on by then (a move key may have gone on from ``position`` meanwhile).

        Nothing when the user has moved to another file meanwhile: going back would undo their move."""
        cursor = self.cursor
        if cursor is None or cursor.path != position.path:
            return
        if self.query_one(HunkView).size.height == 0 and tries > 0:
            self.set_timer(0.01, lambda: self._go_when_laid_out(position, focus, tries - 1))
            return
        cursor.laid_out()
        self.go(Position(position.path, cursor.current), focus)

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
        if cursor.show_diffs and position.path == cursor.path:
            viewing.follow_hunk(self)

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
        self.left.follow_item()
        shown = self.previewing
        if shown is not None and (shown.path, shown.hunk) != (cursor.path, cursor.current):
            self.previewing = shown = None  # a candidate is previewed for its own hunk only
        self.panes.show_hunk(ws, cursor.path, cursor.current, shown)

    def preview_changed(self) -> None:
        """A candidate was shown or left (``C``, esc): redraw the Result pane."""
        self._show_current()

    def set_current(self, hunk: int) -> None:
        """The hunk keys act on (where the hunk view's cursor went: j/k, a click)."""
        if self.cursor is not None:
            self.cursor.current = hunk
            self._show_current()

    @on(HunkView.CursorMoved)
    def _cursor_moved(self, message: HunkView.CursorMoved) -> None:
        if message.hunk is not None and message.hunk != self.current:
            self.set_current(message.hunk)

    @on(HunkView.FoldToggled)
    def _fold_toggled(self, message: HunkView.FoldToggled) -> None:
        if self.cursor is not None:
            self.cursor.open_fold(message.start)
            self.query_one(HunkView).refold(self.entries())

    def entries(self) -> tuple[ViewEntry, ...]:
        """The hunk view's rows for the file on screen: hunks with context, folds as the cursor has them."""
        assert self.view is not None and self.view.layout is not None and self.cursor is not None
        entries = fold_layout(self.view.layout, self.config.context, self.cursor.expanded, self.cursor.expand_all)
        return entries if self.query_one(HunkView).show_base else collapse_base_only(entries, self.view.layout)

    def centre_shows(self, name: str) -> None:
        """Switch the centre to "hunks", "diffs", "choice" or "placeholder"."""
        self.panes.centre_shows(name)

    def centre_showing(self) -> str:
        """What the centre shows now ("" before anything)."""
        return self.query_one("#views", ContentSwitcher).current or ""

    def focus_view(self) -> None:
        """Focus what the centre shows: the hunk view, the first diff, or the whole-file choice."""
        target = {"hunks": "#hunks", "diffs": "#dev-diff", "choice": "#choice"}.get(self.centre_showing())
        if target:
            self.query_one(target).focus()

    # -- after a change ----------------------------------------------------------------------

    def refresh_state(self, paths: set[str] | None = None) -> None:
        """Decisions changed (for ``paths``, or anywhere): redraw counts, titles, preview, diffs."""
        ws, cursor = self.ws, self.cursor
        if ws is None or cursor is None:
            return
        self.previewing = None  # what it previewed was decided, or something else was
        announcing.tell_unsaved(self)
        if self.panes.redraw(ws, cursor, self.view, paths) and cursor.show_diffs and cursor.path is not None:
            viewing.prepare(self, cursor.path)
        if ws.quiz is not None and paths is not None:
            training.after_change(self, ws, ws.quiz)

    def on_diffs_ready(self, message: DiffsReady) -> None:
        viewing.show(self, message.diffs)

    @on(HistoryPanel.CommitChosen)
    def _commit_chosen(self, message: HistoryPanel.CommitChosen) -> None:
        viewing.show_commit(self, message.sha, message.side)

    # -- keys (the table itself is ``MainKeys``) -------------------------------------------------

    def request_quit(self) -> None:
        self.writing.quit()

    def action_write(self) -> None:
        self.writing.write()

    def action_scroll_text(self, step: int) -> None:
        viewing.scroll_text(self, step)
