"""Which keys the main screen holds back, and why (``KeyGate`` asks before it hands each key on).

A key acts on what the keys before it left on screen: so while a file
opens, or a command asks its questions, a key waits; moves need no rows (they
go on from the hunk the file will open on, ``Cursor.here``), and any key but
another list move, typed after the file list moved, waits for the file the
list opens (``esc k k d`` decides the file the list landed on).
"""

from __future__ import annotations

from collections.abc import Collection

from textual.binding import ActiveBinding
from textual.worker import Worker

from workbench.services.cursor import Cursor
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.screens.main_keys import MOVES
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.file_rows import LIST_MOVES, FileOptions


def why_wait(bound: ActiveBinding | None, on_screen: object, cursor: Cursor | None, ws: Workspace | None,
             files: FileList, commands: Collection[Worker[object]]) -> str | None:
    """Why the key ``bound`` (None: no binding) must wait now (the start of a notice), or None: it may act.

    ``on_screen`` is the screen whose own bindings are the hunk moves."""
    screen_move = bound is not None and bound.node is on_screen and bound.binding.action in MOVES
    list_move = bound is not None and isinstance(bound.node, FileOptions) and bound.binding.action in LIST_MOVES
    if cursor is not None and cursor.opening is not None and not (screen_move or list_move):
        return f"Opening {visible(cursor.opening)}"
    if cursor is not None and not list_move:  # a move or a decision acts on the file the list is moving to
        listed = files.highlighted_path
        if (files.options.has_focus and listed is not None and listed != cursor.path
                and ws is not None and ws.pending is None and ws.analysis.file(listed) is not None):
            return f"Opening {visible(listed)}"  # the list moved: a move goes on from the file it opens
    if any(not worker.is_finished for worker in commands):
        return "Busy (" + ", ".join(sorted({worker.group for worker in commands})) + ")"
    return None
