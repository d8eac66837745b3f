"""Suggested resolutions from a key: ``y`` accepts (the hunk's suggestion, the file's, or the candidate shown),
``C`` shows the next candidate in the Result pane, esc leaves it, ``Y`` accepts many, asked first.

The decisions are the ones ``services/suggestions.py`` makes of candidates,
so undo, the journal and the write checks apply as to any decision.  A
training quiz hides the suggestions until the reveal: there ``y`` accepts
only a candidate the trainee chose to look at.
"""

from __future__ import annotations

from functools import partial

from workbench.analysis.model import Candidate, HunkKind
from workbench.analysis.suggest.phrases import TAKE_WORDS
from workbench.resolve.suggested import candidate_decision
from workbench.services import suggestions
from workbench.services.suggestions import Accepting
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.deciding import advance
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.accept import AcceptScreen
from workbench.tui.glyphs import FILE_CHOICE_WORD
from workbench.tui.presentation.suggestion import Previewing, menu


def accept(host: Host) -> None:
    """``y``: the candidate shown, else the hunk's suggestion, else the file's; or say why there is none."""
    ws, cursor = host.ws, host.cursor
    if not host.ready_to_decide() or ws is None or cursor is None or cursor.path is None:
        return
    target = cursor.hunk_target()
    shown = host.previewing
    if target is not None and shown is not None and (shown.path, shown.hunk) == target:
        _take(host, ws, target, menu(ws, ws.hunk(*target))[shown.number], "candidate")
        return
    if ws.quiz is not None:
        host.notify("Training: decide it yourself (C shows the candidates, y accepts the one shown); r then says "
                    "what the workbench would have suggested.")
        return
    hunk = ws.hunk(*target) if target is not None else None
    if target is not None and hunk is not None and hunk.suggestion is not None:
        _take(host, ws, target, hunk.suggestion.candidate, "suggestion")
        return
    entry = ws.entry(cursor.path)
    if entry.suggestion is not None:
        choice = suggestions.file_choice(entry.suggestion)
        ws.choose_file(cursor.path, choice)
        then = f"; then regenerate it: {entry.suggestion.regenerate}" if entry.suggestion.regenerate else ""
        host.notify(visible(f"Accepted the file's suggestion, {FILE_CHOICE_WORD[choice]}: {cursor.path}{then}"))
        host.refresh_state({cursor.path})
        return
    if hunk is None:
        host.notify("No suggestion for this file: decide it with m, d or x.")
    elif hunk.kind is HunkKind.EDIT:
        host.notify(f"Hunk {hunk.index + 1} is an edit outside git's conflicts: no suggestion (R keeps the result, "
                    "G restores git's merge).")
    else:
        host.notify(f"No suggestion for hunk {hunk.index + 1}: the evidence does not separate its "
                    f"{len(hunk.candidates)} candidates (C shows them, y accepts the one shown).")


def _take(host: Host, ws: Workspace, target: tuple[str, int], candidate: Candidate, what: str) -> None:
    path, index = target
    hunk = ws.hunk(path, index)
    ws.decide(path, index, candidate_decision(hunk, candidate))
    host.previewing = None
    host.notify(f"Accepted the {what} for hunk {index + 1}: {TAKE_WORDS[candidate.take]} (u undoes it).")
    host.refresh_state({path})
    advance(host)


def cycle(host: Host) -> None:
    """``C``: the next candidate of the current hunk in the Result pane (from the first, after the last)."""
    ws, cursor = host.ws, host.cursor
    if not host.ready_to_decide() or ws is None or cursor is None:
        return
    target = cursor.hunk_target()
    if target is None:
        host.notify("Candidates are per hunk: open a file's hunks first.")
        return
    hunk = ws.hunk(*target)
    candidates = menu(ws, hunk)
    if not candidates:
        host.notify(f"Hunk {hunk.index + 1} has no candidates (an edit outside git's conflicts, or a file without a "
                    "line merge): decide it with the other keys.")
        return
    shown = host.previewing
    number = (shown.number + 1) % len(candidates) if shown is not None and (shown.path, shown.hunk) == target else 0
    host.previewing = Previewing(target[0], target[1], number)
    host.preview_changed()


def leave(host: Host) -> bool:
    """Esc: leave a candidate's preview without deciding (False: there was none, esc does its usual thing)."""
    if host.previewing is None:
        return False
    host.previewing = None
    host.preview_changed()
    return True


def accept_many(host: Host) -> None:
    """``Y``: accept the suggestions of this file or the whole sync, of one rung or every rung, asked first."""
    ws, cursor = host.ws, host.cursor
    if ws is None or cursor is None:
        host.notify("Still analysing the sync: accepting suggestions waits until it is complete.")
        return
    if not host.ready_to_decide():
        return
    if ws.quiz is not None:
        host.notify("Training: the suggestions stay hidden until a reveal (r).")
        return
    host.start(partial(_ask, host, ws, cursor.path), group="accept", exclusive=True)


async def _ask(host: Host, ws: Workspace, path: str | None) -> None:
    start = Accepting(path if path is not None and suggestions.rungs_here(ws, path) else None)
    chosen = await host.app.push_screen_wait(AcceptScreen(ws, start, path, visible(path) if path else None))
    if chosen is None:
        return
    taken = suggestions.accepted(ws, chosen)
    if not taken.hunks and not taken.files:
        return
    suggestions.accept(ws, taken, f"{chosen.words()} ({taken.words()})")
    host.previewing = None
    host.notify(f"{chosen.words().capitalize()}: {taken.words()} decided (u undoes it all).")
    host.refresh_state(taken.paths)
