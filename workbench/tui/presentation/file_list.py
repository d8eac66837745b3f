"""What the file list shows: one row per file and the counters above it.

Counts follow the workspace's ``HunkScope``: a quiz counts only the hunks it
asks ("0/2", not the file's 0/5), and its counters leave the rest out.
"""

from __future__ import annotations

from workbench.analysis.model import FileAnalysis, Level
from workbench.services.workspace import Workspace, file_level
from workbench.tui.glyphs import (
    provisional_letters,
    status_letters,
)
from workbench.tui.widgets.file_list import FileRow, Totals


def outline_row(entry: FileAnalysis) -> FileRow:
    """A file of the sync's outline: known by path and kind, counts and risk still loading."""
    return FileRow(path=entry.path, level=Level.LOW, status=provisional_letters(entry), decided=0, total=0,
                   unwritten=False, loading=True)


def file_row(ws: Workspace, entry: FileAnalysis) -> FileRow:
    """One file's row; ``●`` only where a write is possible (not in a preview or a quiz)."""
    session = ws.session
    hunks = entry.all_hunks
    decided = session.decided(entry.path) if hunks else int(session.file_choice(entry.path) is not None)
    total = len(hunks)
    if ws.scope.restricted:
        decided, total = decided_asked(ws, entry.path), len(ws.scope.asked(entry.path))
    return FileRow(
        path=entry.path,
        level=file_level(entry),
        status=status_letters(entry),
        decided=decided,
        total=total,
        unwritten=ws.writes and session.is_dirty(entry.path),
        marked=bool(session.marked_hunks(entry.path)),
        risk_pending=ws.pending is not None,
    )


def totals(ws: Workspace) -> Totals:
    """The counters above the list (a quiz: over the asked hunks; the session counts every hunk of a file)."""
    scoped = ws.scope.restricted
    return Totals(
        undecided=_undecided_asked(ws) if scoped else ws.session.undecided(),
        high=None if ws.pending is not None else _undecided_asked(ws, Level.HIGH) if scoped else ws.session.undecided_high(),
        unwritten=len(ws.session.dirty_paths()) if ws.writes else 0,
        writes=ws.writes,
        marked=ws.session.marked_count(),
    )


def decided_asked(ws: Workspace, path: str) -> int:
    """Asked hunks of ``path`` with an answer (all of them after a whole-file choice)."""
    asked = ws.scope.asked(path)
    if ws.session.file_choice(path) is not None:
        return len(asked)
    return sum(1 for index in asked if ws.session.decision(path, index) is not None)


def _undecided_asked(ws: Workspace, level: Level | None = None) -> int:
    """Asked hunks still without an answer (of ``level``, when given): a quiz's "undecided" counters."""
    return sum(1 for path in ws.scope.asked_paths if ws.session.file_choice(path) is None
               for index in ws.scope.asked(path)
               if ws.session.decision(path, index) is None and (level is None or ws.hunk(path, index).level is level))
