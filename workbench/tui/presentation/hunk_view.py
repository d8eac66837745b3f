"""What the hunk view's headers say: number, risk, what the merge took, the decision.

A hunk a quiz does not ask says so and is painted muted (it is there for context).
"""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import Decider, FileAnalysis, Hunk, HunkKind
from workbench.services.workspace import Workspace
from workbench.tui.glyphs import (
    EDIT_TAKEN_WORD,
    FILE_CHOICE_WORD,
    MARKED_WORD,
    TAKEN_SHORT,
    TAKEN_WORD,
)
from workbench.tui.presentation import suggestion
from workbench.tui.widgets.hunk_view import HunkTitle

NOT_ASKED = "not asked in this exercise"


def hunk_titles(ws: Workspace, path: str) -> dict[int, HunkTitle]:
    entry = ws.entry(path)
    out = {}
    marked = set(ws.session.marked_hunks(path))
    for hunk in entry.all_hunks:
        decision = ws.session.decision(path, hunk.index)
        choice = ws.session.file_choice(path)
        word = FILE_CHOICE_WORD[choice] if choice is not None else suggestion.decided_word(hunk, decision)
        if hunk.index in marked:
            word = MARKED_WORD
        out[hunk.index] = HunkTitle(
            number=hunk.index + 1,
            total=len(entry.all_hunks),
            level=hunk.level,
            risk=hunk.risk,
            taken=_taken_title(entry, hunk),
            decision=word,
            decided=decision is not None or choice is not None,
            marked=hunk.index in marked,
            risk_pending=ws.pending is not None,
            suggestion=suggestion.header_word(ws, hunk) if decision is None and choice is None else "",
        )
        if not ws.scope.asks(path, hunk.index):
            out[hunk.index] = replace(out[hunk.index], asked=False, decision=NOT_ASKED)
    return out


def _taken_title(entry: FileAnalysis, hunk: Hunk) -> str:
    """What the header says the hunk holds; an edit says it lies outside git's conflicts and what changed."""
    if hunk.kind is HunkKind.EDIT:
        return f"edit outside git's conflicts: {EDIT_TAKEN_WORD.get(hunk.taken, TAKEN_WORD[hunk.taken])}"
    return ("app " if entry.decided_by is Decider.APP else "") + TAKEN_SHORT[hunk.taken]
