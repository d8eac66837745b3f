"""Deciding from a key: a hunk's side, a whole file, deleting, undo and redo.

Each command asks the ``Workspace`` to do the thing (which journals it),
says what happened, and lets the host redraw.  A key pressed while the next
file is still being prepared waits for it (``KeyGate``); with
``advance = true`` a decision moves on to the next undecided hunk.
"""

from __future__ import annotations

from workbench.analysis.model import FileStatus, Mode
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.glyphs import FILE_CHOICE_WORD

EDIT_KEYS = "R (keep the result) and G (restore git's merge)"


def decide(host: Host, choice: Choice) -> None:
    """Decide the current hunk (keys wait while its file opens: ``KeyGate``; the command palette does not)."""
    if not host.ready_to_decide():
        return
    ws, cursor = host.ws, host.cursor
    target = cursor.hunk_target() if cursor is not None else None
    if ws is None or cursor is None or target is None:
        if cursor is not None and cursor.opening is not None:
            host.notify(f"{visible(cursor.opening)} is still opening: nothing was decided.", severity="warning")
        return
    path, index = target
    is_edit = ws.is_edit(path, index)
    if choice in EDIT_ONLY and not is_edit and not (choice is Choice.RESULT and ws.keeps_result(path, index)):
        if choice is Choice.RESULT and ws.entry(path).status is FileStatus.CONFLICTED:
            host.notify(f"Hunk {index + 1} still holds git's conflict markers: R keeps a hunk resolved by hand in "
                        "the file; take a side or edit it (e).", severity="warning")
            return
        host.notify(f"Hunk {index + 1} is one of git's conflicts: {EDIT_KEYS} are for edits outside them "
                    "(K acknowledges what the result holds).", severity="warning")
        return
    if choice is Choice.MERGED and ws.hunk(path, index).merged_text is None:
        host.notify(f"git's merge of hunk {index + 1} is not known (its merge could not be rebuilt line by line): "
                    "take a side, keep the result, or edit it (e).", severity="warning")
        return
    ws.decide(path, index, Decision(choice))
    host.refresh_state({path})
    advance(host)


def advance(host: Host) -> None:
    """With ``advance`` on, go on to the next undecided hunk after a decision."""
    ws, cursor = host.ws, host.cursor
    if not host.config.advance or ws is None or cursor is None:
        return
    target = cursor.next_to_decide()
    if target is not None:
        host.go(target)


def restore_merge(host: Host) -> None:
    """Restore git's merge in this edit hunk; a file git's merge does not have is deleted instead."""
    ws, cursor = host.ws, host.cursor
    if host.ready_to_decide() and ws is not None and cursor is not None and cursor.path is not None \
            and not cursor.whole_file and ws.entry(cursor.path).status is FileStatus.RESOLUTION_ADDED:
        choose(host, FileChoice.DELETE)
        return
    decide(host, Choice.MERGED)


def choose(host: Host, choice: FileChoice) -> None:
    """A whole-file choice for the file on screen."""
    ws, cursor = host.ws, host.cursor
    assert ws is not None and cursor is not None and cursor.path is not None
    ws.choose_file(cursor.path, choice)
    host.notify(f"{FILE_CHOICE_WORD[choice]}: {visible(cursor.path)}")
    host.refresh_state({cursor.path})


def take_side(host: Host, choice: Choice, file_choice: FileChoice) -> None:
    """``m``/``d``: this hunk's side, or the whole file's where the file is one choice."""
    cursor = host.cursor
    if cursor is not None and cursor.whole_file:
        if not host.ready_to_decide():
            return
        choose(host, file_choice)
    else:
        decide(host, choice)


def delete_file(host: Host) -> None:
    """Delete the file: only a whole-file choice (binary, modify/delete) may; a text file is decided by hunk."""
    cursor = host.cursor
    if not host.ready_to_decide() or cursor is None or cursor.path is None or cursor.shown is None:
        return
    if not cursor.whole_file and not cursor.no_conflicts:
        host.notify(f"x deletes a file only where the whole file is the choice (binary and modify/delete "
                    f"files); {visible(cursor.path)} has hunks: decide them with m, d, b or e.", severity="warning")
        return
    choose(host, FileChoice.DELETE)


def decide_file(host: Host, choice: Choice, file_choice: FileChoice) -> None:
    """``M``/``D``: one side for every conflict of the file (the whole file where it has only edits)."""
    ws, cursor = host.ws, host.cursor
    if not host.ready_to_decide() or ws is None or cursor is None or cursor.path is None or cursor.shown is None:
        return
    if cursor.whole_file or cursor.no_conflicts:
        choose(host, file_choice)
        return
    ws.decide_file(cursor.path, choice)
    count = len(ws.entry(cursor.path).hunks)
    which = "the only hunk" if count == 1 else f"all {count} hunks"
    host.notify(f"{choice.value} for {which} of {visible(cursor.path)}")
    host.refresh_state({cursor.path})


def undo_redo(host: Host, redo: bool) -> None:
    """Undo or redo, say what and where, and show that hunk: it may be in another file."""
    ws = host.ws
    if not host.ready_to_decide() or ws is None:
        return
    target = ws.session.next_redo() if redo else ws.session.next_undo()
    if target is None:
        host.notify("Nothing to redo." if redo else "Nothing to undo.")
        return
    written = sorted({c.path for c in target.changes if ws.session.was_written(c.path) and not ws.session.is_dirty(c.path)})
    if redo:
        ws.redo()
    else:
        ws.undo()
    said = f"{'Redid' if redo else 'Undid'}: {visible(target.label)}"
    if written:  # the decision changes in the app only: what w wrote (and staged) is still there
        where = "the work tree and the index hold" if ws.analysis.mode is Mode.IN_PROGRESS else "the work tree holds"
        host.notify(f"{said}. {where.capitalize()} what w wrote in {visible(', '.join(written))}: decide again and "
                    "press w to change it.", severity="warning")
    else:
        host.notify(said)
    host.refresh_state()
    place = ws.place_of(target)
    if place is not None:
        host.show_place(place)
