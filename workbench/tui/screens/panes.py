"""The main screen's panes: what is drawn where while loading, when a file opens, for a hunk, after a change.

``MainScreen`` decides *when* (it routes messages and keys); this object
knows *where*: which widget shows what, through the presenters of
``tui/presentation/``.  It holds no navigation state (that is the
``Cursor``), only what the outline left for the loaded list to compare.
"""

from __future__ import annotations

import time
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, ProgressBar, Static

from workbench.analysis.display.folds import ViewEntry
from workbench.analysis.model import SignalKind
from workbench.services.cursor import Cursor
from workbench.services.sync import LoadProgress
from workbench.services.worklist import ItemFilter, item_rows
from workbench.services.workspace import Workspace
from workbench.tui.fileview import PreparedFile
from workbench.tui.glyphs import short_sha
from workbench.tui.loading import describe, fraction
from workbench.tui.palette import Palette, theme_palette
from workbench.tui.presentation.file_choice import file_choice_text
from workbench.tui.presentation.file_list import file_row, outline_row, totals
from workbench.tui.presentation.hunk_view import hunk_titles
from workbench.tui.presentation.result_preview import file_choice_preview, preview_lines
from workbench.tui.presentation.suggestion import Previewing, preview
from workbench.tui.presentation.sync_bar import MODE_WORD, sync_title
from workbench.tui.presentation.why_panel import why_text
from workbench.tui.presentation.worklist import item_entry, items_counter, worklist_heading
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_pair import DiffPair
from workbench.tui.widgets.file_choice import FileChoicePanel
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.path_bar import PathBar
from workbench.tui.widgets.result_preview import ResultPreview
from workbench.tui.widgets.search_bar import SearchBar
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.tui.widgets.why_panel import WhyPanel
from workbench.tui.widgets.worklist import WorklistPanel


class Panes:
    """Draws the main screen's widgets from the workspace."""

    def __init__(self, screen: Screen[None]) -> None:
        self.screen = screen
        self.outline_at: float | None = None
        """Monotonic time the outline's file list was on screen (benchmarks read it)."""
        self.outline_first: str | None = None
        """The row the outline opened on: a different highlight later means the user moved."""
        self._outline_files = 0
        self._outline_mode: str | None = None
        self.item_filter = ItemFilter.OPEN
        """What the worklist pane lists (``F`` switches)."""

    @property
    def palette(self) -> Palette:
        app = self.screen.app
        return theme_palette(app.theme, dict(app.theme_variables), app.current_theme.dark)

    def centre_shows(self, name: str) -> None:
        """Switch the centre to "hunks", "diffs", "choice" or "placeholder"."""
        self.screen.query_one("#views", ContentSwitcher).current = name

    def placeholder(self, words: str, loading: bool = False) -> None:
        self.screen.query_one("#placeholder-text", Static).update(Text(words))
        self.screen.query_one("#load-progress", ProgressBar).display = loading
        self.centre_shows("placeholder")

    # -- loading -------------------------------------------------------------------------------

    def show_progress(self, progress: LoadProgress) -> None:
        """Show the outline at once (paths and kinds), then how far the analysis got."""
        query = self.screen.query_one
        files = query(FileList)
        if progress.phase == "outline" and progress.analysis is not None:
            outline = progress.analysis
            rows = [outline_row(entry) for entry in sorted(outline.files, key=lambda f: f.path)]
            self._outline_files = len(rows)
            files.set_files(rows)
            self.outline_first = rows[0].path if rows else None
            self._outline_mode = MODE_WORD[outline.mode]
            name = Path(outline.repo_path).name if outline.repo_path else ""
            query(SyncBar).set_title(sync_title(outline, name, False), sync_title(outline, name, False, compact=True))
            self.outline_at = time.monotonic()
            self.placeholder("Computing hunks, history and risk. Browse and filter the files meanwhile; "
                             "deciding starts when the analysis is complete.", loading=True)
        done, total = fraction(progress, self._outline_files)
        query("#load-progress", ProgressBar).update(total=total, progress=done)
        note = describe(progress)
        query(SyncBar).set_busy(f"loading: {note}")
        if self._outline_mode is not None:
            files.show_loading_note(note, self._outline_mode)

    def show_loaded(self, ws: Workspace) -> str | None:
        """The full analysis: its title and rows; returns the file the user moved to in the outline, if any."""
        name = ws.repo.workdir.name if ws.repo.workdir else ws.repo.gitdir.name
        bar = self.screen.query_one(SyncBar)
        bar.set_title(sync_title(ws.analysis, name, ws.resumed), sync_title(ws.analysis, name, ws.resumed, compact=True))
        bar.set_busy("")
        files = self.screen.query_one(FileList)
        moved = files.highlighted_path if files.highlighted_path != self.outline_first else None
        files.set_files([file_row(ws, entry) for entry in ws.files])
        self.show_totals(ws)
        self.show_items(ws, self.item_filter)
        return moved

    def show_totals(self, ws: Workspace) -> None:
        self.screen.query_one(FileList).set_totals(totals(ws), MODE_WORD[ws.analysis.mode])
        self.screen.query_one(SyncBar).set_counter(items_counter(ws) if ws.pending is None else "")

    def show_items(self, ws: Workspace, only: ItemFilter, keep: str | None = None) -> None:
        """The worklist pane's items (kept by ``only``) and heading; the highlight stays on ``keep``."""
        panel = self.screen.query_one(WorklistPanel)
        palette = self.palette
        rows = item_rows(ws, only) if ws.pending is None else ()
        panel.set_items(lambda width: [item_entry(ws, row, width, palette) for row in rows],
                        worklist_heading(ws, only, len(rows)), keep)

    # -- a file, a hunk ----------------------------------------------------------------------

    def show_opening(self, ws: Workspace, path: str) -> None:
        """A file is being prepared: its path and evidence now, its rows once ready."""
        query = self.screen.query_one
        query(PathBar).show(path)
        entry = ws.entry(path)
        unread = ("still being read" if ws.pending is not None
                  else "not looked up (see Why)" if any(s.kind == SignalKind.NO_HISTORY for s in entry.signals) else None)
        query(HistoryPanel).show(entry.history.dev, entry.history.main, set(), unread=unread,
                                 sync=entry.history.sync)
        query(WhyPanel).show(why_text(ws, path, None, self.palette))
        query(ResultPreview).show((), "Result", "")

    def show_whole_file(self, ws: Workspace, view: PreparedFile) -> None:
        self.screen.query_one(FileChoicePanel).show(file_choice_text(ws, view.path, view.sides, self.palette))
        self.screen.query_one(ResultPreview).show(*file_choice_preview(ws, view.path, view.sides))

    def show_hunks(self, ws: Workspace, view: PreparedFile, entries: tuple[ViewEntry, ...]) -> None:
        assert view.layout is not None
        hunks = self.screen.query_one(HunkView)
        analysis = ws.analysis
        dev_word, main_word = analysis.labels
        hunks.set_sides({"dev": f"{dev_word} {short_sha(analysis.dev)}", "main": f"{main_word} {short_sha(analysis.main)}",
                         "base": f"base {short_sha(analysis.base)}" if analysis.base else "base"})
        hunks.show(view.layout, entries, view.syntax, hunk_titles(ws, view.path), view.lost)

    def show_hunk(self, ws: Workspace, path: str, hunk: int | None, previewing: Previewing | None = None) -> None:
        """The current hunk's result (or the candidate ``previewing`` shows), its evidence and its commits (the
        file's evidence when there is none)."""
        why = self.screen.query_one(WhyPanel)
        if hunk is None:
            why.show(why_text(ws, path, None, self.palette))
            return
        if previewing is not None:
            lines, caption, detail = preview(ws, previewing)
            self.screen.query_one(ResultPreview).show(lines, caption, "the candidate writes nothing here", detail)
        else:
            lines, caption = preview_lines(ws, path, hunk)
            self.screen.query_one(ResultPreview).show(lines, caption, "the hunk is empty in the result")
        why.show(why_text(ws, path, hunk, self.palette))
        chosen = ws.hunk(path, hunk)
        self.screen.query_one(HistoryPanel).mark(set(chosen.dev_commits) | set(chosen.main_commits))

    def redraw(self, ws: Workspace, cursor: Cursor, view: PreparedFile | None, paths: set[str] | None) -> bool:
        """Decisions changed (for ``paths``, or anywhere): rows, counters, titles, preview. True when the hunks
        on screen changed (their diffs are then prepared again)."""
        changed = [ws.entry(p) for p in paths] if paths is not None else list(ws.files)
        self.screen.query_one(FileList).update_rows([file_row(ws, entry) for entry in changed])
        self.show_totals(ws)
        self.show_items(ws, self.item_filter)
        path = cursor.path
        if path is None or (paths is not None and path not in paths) or view is None:
            return False
        if view.layout is None:
            self.show_whole_file(ws, view)
            return False
        self.screen.query_one(HunkView).set_titles(hunk_titles(ws, path))
        if cursor.current is not None:
            self.show_hunk(ws, path, cursor.current)
        return True


def layout() -> ComposeResult:
    """The main screen's widgets: files on the left, the hunk in the centre, the evidence below."""
    yield SyncBar(id="sync-bar")
    with Horizontal(id="body"):
        yield WorklistPanel(id="worklist")
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
            yield SearchBar(id="search")
            yield ResultPreview(id="result")
            with Horizontal(id="evidence"):
                yield WhyPanel(id="why")
                yield HistoryPanel(id="history")
    yield Footer()
