"""What the centre shows, from a key: the base column, context folds, the diffs, zoom, lost lines, long lines,
and a commit's diff from the history panel.

These act on the main screen's widgets and its cursor, through ``ViewHost``
(they are about the panes, not the sync).  ``v`` prepares the result-vs-dev
and result-vs-main diffs in a worker and keeps them on the current hunk.
"""

from __future__ import annotations

from workbench.analysis.model import Whose
from workbench.tui.actions.host import ViewHost
from workbench.tui.dialogs.commit_diff import CommitDiffScreen
from workbench.tui.fileview import BothDiffs, prepare_commit_diff, prepare_diffs
from workbench.tui.messages import DiffsReady
from workbench.tui.widgets.centre import Centre
from workbench.tui.widgets.diff_pair import DiffPair
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_view import HunkView


def toggle_base(screen: ViewHost) -> None:
    """``a``: the base column; rows only the base has fold to one line without it."""
    hunks = screen.query_one(HunkView)
    hunks.set_show_base(not hunks.show_base)
    if screen.view is not None and screen.view.layout is not None:
        entries = screen.entries()
        if entries != hunks.entries:
            hunks.refold(entries)


def toggle_context(screen: ViewHost) -> None:
    """``z``: every fold of context open, or all closed."""
    if screen.cursor is not None and screen.view is not None and screen.view.layout is not None:
        screen.cursor.toggle_context()
        screen.query_one(HunkView).refold(screen.entries())


def toggle_diffs(screen: ViewHost) -> None:
    """``v``: the two diffs instead of the hunks, or back."""
    if screen.cursor is None or screen.view is None or screen.view.layout is None:
        screen.notify("Diffs are shown for text files with hunks.")
        return
    shown = screen.cursor.toggle_diffs()
    screen.centre_shows("diffs" if shown else "hunks")
    if shown:
        prepare(screen, screen.view.path)
    screen.focus_view()


def prepare(screen: ViewHost, path: str) -> None:
    """Compute the diffs of ``path`` in a worker (a newer request cancels an older one)."""
    ws = screen.ws
    if ws is not None:
        screen.run_worker(lambda: screen.post_message(DiffsReady(prepare_diffs(ws, path))),
                          thread=True, exclusive=True, group="diffs")


def show(screen: ViewHost, diffs: BothDiffs) -> None:
    """The diffs are ready: show them if their file is still on screen, then follow the current hunk."""
    if diffs.path == screen.path:
        screen.query_one(DiffPair).show(diffs)
    screen.call_after_refresh(follow_hunk, screen)


def follow_hunk(screen: ViewHost) -> None:
    """Each diff opens where the current hunk's lines are."""
    hunk = screen.cursor.current_hunk() if screen.cursor is not None else None
    if hunk is not None:
        screen.query_one(DiffPair).go_to_hunk(hunk)


def zoom(screen: ViewHost) -> None:
    """``f``: hide (or show again) the file list and the Why/History panes."""
    screen.zoomed = not screen.zoomed
    files = screen.query_one(FileList)
    files.display = not screen.zoomed
    screen.query_one(Centre).set_zoom(screen.zoomed)
    if screen.zoomed and (files.has_focus or files.options.has_focus or screen.app.focused is None):
        screen.focus_view()
    screen.notify("Zoomed: f shows the file list and the panes again." if screen.zoomed else "Zoom off.")


def next_lost(screen: ViewHost) -> None:
    """``g``: the hunk view's next lost line (from any pane), the view focused to read it."""
    if screen.ws is not None and screen.ws.pending is not None:
        screen.notify("Which lines the result loses is still being read: g moves between them once it is in.")
        return
    if screen.centre_showing() == "hunks":
        view = screen.query_one(HunkView)
        view.action_next_lost()
        view.focus()


def scroll_text(screen: ViewHost, step: int) -> None:
    """← →: shift the long lines of the hunk view (or of both diffs), whichever the centre shows."""
    shown = screen.centre_showing()
    if shown == "hunks":
        screen.query_one(HunkView).action_scroll_text(step)
    elif shown == "diffs":
        screen.query_one(DiffPair).scroll_text(step)


def show_commit(screen: ViewHost, sha: str, side: Whose) -> None:
    """enter on a commit of the history panel: its diff of this file (under the path it had on that side)."""
    ws, path = screen.ws, screen.path
    if ws is None or path is None:
        return
    entry = ws.entry(path)
    side_path = (entry.dev if side == "dev" else entry.main).path or path
    commit = ws.repo.commit_info(sha)
    screen.app.push_screen(CommitDiffScreen(commit, side, side_path, lambda: prepare_commit_diff(ws, sha, side_path)))
