"""The workbench screen: files on the left, the hunk in the middle, evidence below.

Wiring only: handlers hand commands to the ``Workspace`` and results down
to widgets; heavy work (loading the sync, preparing a file, diffs) runs in
thread workers that post a message when done.  Loading shows the sync's
outline (paths and kinds) as soon as it is known, with a progress bar,
and swaps in the full analysis when it is ready, keeping the file the
user moved to; nothing can be decided before that.  Moving between hunks,
folds, the diffs toggle and focus live in ``BrowsingScreen``
(``screens/browsing.py``); deciding, editing, writing and quitting in
``DecidingScreen`` (``screens/deciding.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import ContentSwitcher, Footer, ProgressBar, Static

from workbench.analysis.model import FileAnalysis, SignalKind
from workbench.errors import WorkbenchError
from workbench.services.sync import LoadProgress
from workbench.services.workspace import Position, Workspace
from workbench.tui import present
from workbench.tui.config import Config
from workbench.tui.fileview import FileView, prepare_file
from workbench.tui.glyphs import short_sha
from workbench.tui.keymap import Scope, bindings
from workbench.tui.loading import Report, Throttle, describe, fraction
from workbench.tui.messages import FileViewReady, LoadFailed, LoadProgressed, WorkspaceLoaded
from workbench.tui.moves import resume_place
from workbench.tui.screens.flow import FlowScreen
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_choice import FileChoicePanel
from workbench.tui.widgets.file_list import FileList, FileRow, Totals
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkTitle, HunkView
from workbench.tui.widgets.path_bar import PathBar
from workbench.tui.widgets.result_preview import ResultPreview
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.tui.widgets.why_panel import WhyPanel

Loader = Callable[[Report], Workspace]
"""Opens the sync in a worker thread, telling ``Report`` how far it got (it may say nothing)."""


class MainScreen(FlowScreen):
    """Review, decide and write one sync."""

    BINDINGS = bindings(Scope.SCREEN)

    def __init__(self, load: Loader, config: Config, start_file: str | None = None) -> None:
        super().__init__()
        self._load_workspace = load
        """Opens the sync (run in a worker; injected so tests and benchmarks choose the repository)."""
        self.config = config
        self._start_file = start_file
        self.ws: Workspace | None = None
        self.path: str | None = None
        """The file on screen."""
        self.view: FileView | None = None
        self.current: int | None = None
        """The hunk decisions act on."""
        self._pending_hunk: int | None = None
        self._opening: str | None = None
        """The file being prepared or laid out, until its opening hunk is scrolled to."""
        self._expanded: frozenset[int] = frozenset()
        self._expand_all = False
        self.show_diffs = False
        self.loaded_at: float | None = None
        """Monotonic time the full analysis was on screen (benchmarks read it)."""
        self.outline_at: float | None = None
        """Monotonic time the outline's file list was on screen (benchmarks read it)."""
        self._outline_files = 0
        self._outline_mode: str | None = None
        self._outline_first: str | None = None
        """The row the outline opened on: a different highlight later means the user moved."""

    def compose(self) -> ComposeResult:
        yield SyncBar(id="sync-bar")
        with Horizontal(id="body"):
            yield FileList(id="files")
            with Centre(id="center"):
                yield PathBar(id="path")
                with ContentSwitcher(initial="placeholder", id="views"):
                    yield HunkView(id="hunks")
                    with Horizontal(id="diffs"):
                        yield DiffView(id="dev-diff")
                        yield DiffView(id="main-diff")
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

    # -- loading ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="load")
    def _load(self) -> None:
        start = time.perf_counter()
        def tell(progress: LoadProgress) -> None:
            self.post_message(LoadProgressed(progress))

        report = Throttle(tell)
        try:
            workspace = self._load_workspace(report)
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
            rows = [present.outline_row(entry) for entry in sorted(outline.files, key=lambda f: f.path)]
            self._outline_files = len(rows)
            files.set_files(rows)
            self._outline_first = rows[0].path if rows else None
            self._outline_mode = present.MODE_WORD[outline.mode]
            name = Path(outline.repo_path).name if outline.repo_path else ""
            self.query_one(SyncBar).set_title(present.sync_title(outline, name, False),
                                              present.sync_title(outline, name, False, compact=True))
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
        self.log.info(f"sync loaded in {message.seconds:.2f}s")
        name = ws.repo.workdir.name if ws.repo.workdir else ws.repo.gitdir.name
        self.query_one(SyncBar).set_title(present.sync_title(ws.analysis, name, ws.resumed),
                                          present.sync_title(ws.analysis, name, ws.resumed, compact=True))
        self.query_one(SyncBar).set_busy("")
        files = self.query_one(FileList)
        # The user's place in the outline's list is kept; otherwise open on the riskiest file.
        moved = files.highlighted_path if files.highlighted_path != self._outline_first else None
        files.set_files([self.file_row(entry) for entry in ws.files])
        self._refresh_totals()
        self.loaded_at = time.monotonic()
        if not ws.files:
            self._placeholder("Nothing to review: the sync merged without conflicts.")
            return
        # launch() refuses a --file the sync lacks before this point (require_file).
        start = self._start_file if self._start_file and any(f.path == self._start_file for f in ws.files) else None
        if start is None and moved is not None and moved in files.shown_paths:
            start = moved
        elif start is not None:
            self._pending_hunk = ws.opening_hunk(start)
        elif ws.resumed and (place := resume_place(ws)) is not None:
            start = place.path  # where the user stopped, not the riskiest file
            self._pending_hunk = place.hunk if place.hunk is not None else ws.opening_hunk(start)
        first = start or (files.shown_paths[0] if files.shown_paths else None)
        if first is not None:
            files.highlight(first)
            self.open_file(first)
        elif files.filtered:
            self._placeholder("The analysis is complete, but the filter hides every file: esc clears it.")
        if ws.resumed:
            self.notify(ws.resumed_words())
        self.tell_unsaved()
        self.offer_policy()
        if ws.acks_problem:
            self.notify(f"Acknowledgements not read: {ws.acks_problem}", severity="warning", timeout=15)
        self.after_load()

    def tell_unsaved(self) -> None:
        """Say once that decisions are no longer saved (the journal could not be claimed or written)."""
        if self.ws is not None and self.ws.unsaved_news and self.ws.unsaved is not None:
            self.ws.unsaved_news = False
            self.notify(f"Working read-only: {self.ws.unsaved}. You can still look and decide; nothing is saved "
                        "or written.", severity="warning", timeout=15)

    def after_load(self) -> None:
        """The full analysis is on screen (a hook for screens built on this one)."""

    def _placeholder(self, words: str, loading: bool = False) -> None:
        self.query_one("#placeholder-text", Static).update(Text(words))
        self.query_one("#load-progress", ProgressBar).display = loading
        self.query_one("#views", ContentSwitcher).current = "placeholder"

    # -- files -----------------------------------------------------------------------------

    @on(FileList.FileHighlighted)
    def _file_highlighted(self, message: FileList.FileHighlighted) -> None:
        if self.ws is None:
            return  # still loading: the list moves, files open once the analysis is complete
        if message.path != self.path:
            self.open_file(message.path)

    @on(FileList.FileChosen)
    def _file_chosen(self, message: FileList.FileChosen) -> None:
        if self.ws is None:
            self.notify("Still analysing the sync: files open when it is complete.")
            return
        if message.path != self.path:
            self._pending_hunk = self.ws.opening_hunk(message.path) if self.ws else 0
            self.open_file(message.path)
        else:
            self._focus_view()

    def open_file(self, path: str) -> None:
        """Show a file: evidence now, rows when the worker has prepared them."""
        assert self.ws is not None
        self.path = path
        self._opening = path
        self.query_one(PathBar).show(path)
        self.view = None
        self.current = None
        self._expanded = frozenset()
        entry = self.ws.entry(path)
        looked_up = not any(signal.kind == SignalKind.NO_HISTORY for signal in entry.signals)
        self.query_one(HistoryPanel).show(entry.history.dev, entry.history.main, set(), looked_up=looked_up)
        self.query_one(WhyPanel).show(present.why_text(self.ws, path, None, self.palette))
        self.query_one(ResultPreview).show((), "Result", "")
        self._prepare(path)

    @work(thread=True, exclusive=True, group="file")
    def _prepare(self, path: str) -> None:
        assert self.ws is not None
        self.post_message(FileViewReady(prepare_file(self.ws, path)))

    def on_file_view_ready(self, message: FileViewReady) -> None:
        view = message.view
        if view.path != self.path or self.ws is None:
            return
        self.view = view
        switcher = self.query_one("#views", ContentSwitcher)
        if view.layout is None:
            self.query_one(FileChoicePanel).show(present.file_choice_text(self.ws, view.path, view.sides, self.palette))
            switcher.current = "choice"
            self.query_one(ResultPreview).show(*present.file_choice_preview(self.ws, view.path, view.sides))
            self._opening = None
            if self._pending_hunk is not None:
                self._pending_hunk = None
                self.query_one(FileChoicePanel).focus()
            return
        hunks = self.query_one(HunkView)
        analysis = self.ws.analysis
        dev_word, main_word = analysis.labels
        labels = {"dev": f"{dev_word} {short_sha(analysis.dev)}", "main": f"{main_word} {short_sha(analysis.main)}",
                  "base": f"base {short_sha(analysis.base)}" if analysis.base else "base"}
        hunks.set_sides(labels)
        hunks.show(view.layout, self._entries(), view.syntax, self.hunk_titles(view.path),
                   view.lost)
        if self.show_diffs:
            switcher.current = "diffs"
            self._prepare_diffs(view.path)
        else:
            switcher.current = "hunks"
        target = self._pending_hunk if self._pending_hunk is not None else self.ws.opening_hunk(view.path)
        focus = self._pending_hunk is not None
        self._pending_hunk = None
        position = Position(view.path, min(target, len(self.ws.entry(view.path).all_hunks) - 1))
        self.set_current(position.hunk)
        # The view was just switched in and has no size yet: scroll once it is laid out.
        self.call_after_refresh(self._go_when_laid_out, position, focus, 50)

    def _go_when_laid_out(self, position: Position, focus: bool, tries: int) -> None:
        """``_go`` once the hunk view has a size (a scroll before layout would be lost).

        Nothing when the user has moved to another file meanwhile: going back would undo their move.
        """
        if self.path != position.path:
            return
        if self.query_one(HunkView).size.height == 0 and tries > 0:
            self.set_timer(0.01, lambda: self._go_when_laid_out(position, focus, tries - 1))
            return
        self._opening = None
        self._go(position, focus)

    @property
    def opening(self) -> bool:
        """Whether the file on screen is still being prepared or laid out (its hunk not yet scrolled to)."""
        return self._opening is not None

    # -- after a change (called by DecidingScreen) ---------------------------------------------

    def refresh_state(self, paths: set[str] | None = None) -> None:
        """Decisions changed (for ``paths``, or anywhere): redraw counts, titles, preview, diffs."""
        if self.ws is None:
            return
        ws = self.ws
        self.tell_unsaved()
        changed = [ws.entry(p) for p in paths] if paths is not None else list(ws.files)
        self.query_one(FileList).update_rows([self.file_row(entry) for entry in changed])
        self._refresh_totals()
        if self.path is None or (paths is not None and self.path not in paths):
            return
        if self.view is not None and self.view.layout is not None:
            self.query_one(HunkView).set_titles(self.hunk_titles(self.path))
            if self.current is not None:
                self._refresh_hunk_panels()
            if self.show_diffs:
                self._prepare_diffs(self.path)
        elif self.view is not None:
            self.query_one(FileChoicePanel).show(present.file_choice_text(ws, self.path, self.view.sides, self.palette))
            self.query_one(ResultPreview).show(*present.file_choice_preview(ws, self.path, self.view.sides))

    def _refresh_totals(self) -> None:
        assert self.ws is not None
        mode = present.MODE_WORD[self.ws.analysis.mode]
        self.query_one(FileList).set_totals(self.totals(), mode)

    # -- what the rows and counters say (the quiz counts only the hunks it asks) ---------------

    def file_row(self, entry: FileAnalysis) -> FileRow:
        assert self.ws is not None
        return present.file_row(self.ws, entry)

    def hunk_titles(self, path: str) -> dict[int, HunkTitle]:
        assert self.ws is not None
        return present.hunk_titles(self.ws, path)

    def totals(self) -> Totals:
        assert self.ws is not None
        return present.totals(self.ws)
