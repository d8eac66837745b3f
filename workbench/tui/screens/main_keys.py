"""The main screen's key table: one line per action, to a command (``tui/actions/``) or the widget that owns it.

``MainScreen`` inherits it (Textual finds ``action_*`` methods on the screen's
class); the keys themselves are bound in ``tui/keymap.py``.  Each line is typed
against ``ViewHost`` (``actions/host.py``), not the screen, which imports this.
``w``, ``q`` and the arrows are the screen's own (it holds the writing state
and routes the arrows).
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.tui.actions import deciding, editing, items, moving, noting, suggesting, viewing
from workbench.tui.actions.bulk import bulk
from workbench.tui.actions.host import ViewHost
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView


def _keyed(command: Callable[..., object], *args: object) -> Callable[[ViewHost], None]:
    """An action method that runs ``command(screen, *args)``: one line of the key table below."""

    def action(screen: ViewHost) -> None:
        command(screen, *args)

    return action


MOVES = frozenset({"next_hunk", "prev_hunk", "next_risky", "prev_risky", "next_open", "prev_open"})
"""Actions that only move (from the hunk a file being prepared will open on: ``Cursor.here``)."""


class MainKeys:
    """The ``action_*`` methods of ``MainScreen``."""

    action_next_hunk = _keyed(lambda screen: moving.step(screen, +1, screen.query_one(FileList).shown_paths))
    action_prev_hunk = _keyed(lambda screen: moving.step(screen, -1, screen.query_one(FileList).shown_paths))
    action_next_risky = _keyed(moving.risky, +1)
    action_prev_risky = _keyed(moving.risky, -1)
    action_next_open = _keyed(moving.undecided, +1)
    action_prev_open = _keyed(moving.undecided, -1)
    action_take_main = _keyed(deciding.take_side, Choice.MAIN, FileChoice.TAKE_MAIN)
    action_take_dev = _keyed(deciding.take_side, Choice.DEV, FileChoice.KEEP_DEV)
    action_take_both = _keyed(deciding.decide, Choice.BOTH)
    action_take_both_main_first = _keyed(deciding.decide, Choice.BOTH_MAIN_FIRST)
    action_keep_result = _keyed(deciding.decide, Choice.RESULT)
    action_restore_merge = _keyed(deciding.restore_merge)
    action_file_main = _keyed(deciding.decide_file, Choice.MAIN, FileChoice.TAKE_MAIN)
    action_file_dev = _keyed(deciding.decide_file, Choice.DEV, FileChoice.KEEP_DEV)
    action_delete_file = _keyed(deciding.delete_file)
    action_undo = _keyed(deciding.undo_redo, False)
    action_redo = _keyed(deciding.undo_redo, True)
    action_edit = _keyed(editing.edit)
    action_note = _keyed(noting.note)
    action_acknowledge = _keyed(noting.acknowledge)
    action_bulk = _keyed(bulk)
    action_decide_item = _keyed(items.decide_item)
    action_toggle_items = _keyed(lambda screen: screen.show_left("files" if screen.left_showing == "items" else "items"))
    action_item_filter = _keyed(lambda screen: screen.left.next_filter())
    action_toggle_inline = _keyed(lambda screen: screen.query_one(HunkView).toggle_inline())
    action_toggle_wrap = _keyed(lambda screen: screen.query_one(HunkView).toggle_wrap())
    action_filter = _keyed(lambda screen: screen.show_left("files", focus=False) or screen.query_one(FileList).open_filter())
    action_focus_files = _keyed(lambda screen: suggesting.leave(screen) or screen.left.back())
    action_accept = _keyed(suggesting.accept)
    action_candidates = _keyed(suggesting.cycle)
    action_accept_many = _keyed(suggesting.accept_many)
    action_focus_history = _keyed(lambda screen: screen.query_one(HistoryPanel).focus())
    action_toggle_base = _keyed(viewing.toggle_base)
    action_toggle_context = _keyed(viewing.toggle_context)
    action_toggle_diffs = _keyed(viewing.toggle_diffs)
    action_zoom = _keyed(viewing.zoom)
    action_next_lost = _keyed(viewing.next_lost)
