"""The letters and words that stand for statuses, risk levels and choices.

Colour is never the only signal: every risk level has a letter, every status
a letter and a word, so the app reads the same in monochrome.
"""

from __future__ import annotations

import time

from workbench.analysis.model import ConflictKind, Decider, FileAnalysis, FileStatus, Level, Taken
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision

LOST = "✗"
"""Beside a line the result lost (the hunk view's gutter, the Why panel)."""

RISK_LETTER = {Level.HIGH: "H", Level.MEDIUM: "M", Level.LOW: "L"}
RISK_WORD = {Level.HIGH: "high risk", Level.MEDIUM: "medium risk", Level.LOW: "low risk"}
PENDING_RISK = "·"
"""Where a risk letter goes while the risk is still being computed (never shown as low)."""
PENDING_RISK_WORD = "risk pending"

STATUS_LETTER = {
    FileStatus.CONFLICTED: "C",
    FileStatus.THEIRS_RESOLVED: "T",
    FileStatus.HAND_RESOLVED: "E",
    FileStatus.APP_RESOLVED: "W",
    FileStatus.MODIFY_DELETE: "D",
    FileStatus.ADD_ADD: "A",
    FileStatus.BINARY: "B",
    FileStatus.RESOLUTION_EDITED: "R",
    FileStatus.TOOK_DEV_FILE: "V",
    FileStatus.TOOK_MAIN_FILE: "N",
    FileStatus.RESOLUTION_ADDED: "+",
    FileStatus.RESOLUTION_DELETED: "-",
}
STATUS_WORD = {
    FileStatus.CONFLICTED: "conflicted",
    FileStatus.THEIRS_RESOLVED: "-X theirs took main",
    FileStatus.HAND_RESOLVED: "hand-resolved",
    FileStatus.APP_RESOLVED: "decided in the app",
    FileStatus.MODIFY_DELETE: "modify/delete",
    FileStatus.ADD_ADD: "added on both sides",
    FileStatus.BINARY: "binary",
    FileStatus.RESOLUTION_EDITED: "git merged it cleanly; the result edited it",
    FileStatus.TOOK_DEV_FILE: "git merged it cleanly; the result is dev's file",
    FileStatus.TOOK_MAIN_FILE: "git merged it cleanly; the result is main's file",
    FileStatus.RESOLUTION_ADDED: "not in git's merge; the result added it",
    FileStatus.RESOLUTION_DELETED: "git merged it; the result deleted it",
}
EDIT_TAKEN_WORD = {
    Taken.DEV: "the result put dev's text back over main's clean change",
    Taken.MAIN: "the result put main's text over dev's clean change",
    Taken.OTHER: "the result changed what git merged cleanly",
}
"""What an edit hunk (outside git's conflicts) holds."""
POLICY_LETTER = "P"

TAKEN_WORD = {
    Taken.MAIN: "the result holds main's side",
    Taken.DEV: "the result holds dev's side",
    Taken.BOTH: "the result holds both sides",
    Taken.OTHER: "the result holds an edit of its own",
    Taken.UNRESOLVED: "still conflicted (markers)",
}
TAKEN_SHORT = {
    Taken.MAIN: "took main",
    Taken.DEV: "took dev",
    Taken.BOTH: "took both",
    Taken.OTHER: "edited",
    Taken.UNRESOLVED: "conflict",
}

CHOICE_WORD = {
    Choice.MAIN: "main",
    Choice.DEV: "dev",
    Choice.BOTH: "both (dev, main)",
    Choice.BOTH_MAIN_FIRST: "both (main, dev)",
    Choice.CUSTOM: "edited",
    Choice.RESULT: "the result kept",
    Choice.MERGED: "git's merge restored",
}
FILE_CHOICE_WORD = {
    FileChoice.KEEP_DEV: "keep dev's file",
    FileChoice.TAKE_MAIN: "take main's file",
    FileChoice.DELETE: "delete the file",
}

DECIDED = "✓"
UNWRITTEN = "●"
MARKED = "!"
"""An edited hunk that still holds conflict markers: decided, but the file cannot be written."""
MARKED_WORD = "edited · still has markers"


def decision_word(decision: Decision | None) -> str:
    return "undecided" if decision is None else CHOICE_WORD[decision.choice]


PENDING_LETTER = "·"

# An unresolved conflict that needs a whole-file choice reads as its kind: that
# a file was deleted on one side matters more than that it is still conflicted.
_KIND_STATUS = {
    ConflictKind.MODIFY_DELETE: FileStatus.MODIFY_DELETE,
    ConflictKind.ADD_ADD: FileStatus.ADD_ADD,
    ConflictKind.BINARY: FileStatus.BINARY,
}


def shown_status(entry: FileAnalysis) -> FileStatus:
    if entry.status is FileStatus.CONFLICTED:
        return _KIND_STATUS.get(entry.kind, FileStatus.CONFLICTED)
    return entry.status


APP_LETTER = "W"
"""The file holds what the workbench wrote (a person's decision), whatever git's status would say."""


def status_letters(entry: FileAnalysis) -> str:
    """One status letter (W: written from your decisions), plus P when a sync-policy rule applies to the file."""
    letter = APP_LETTER if entry.decided_by is Decider.APP else STATUS_LETTER[shown_status(entry)]
    return letter + (POLICY_LETTER if entry.policy else " ")


def provisional_letters(entry: FileAnalysis) -> str:
    """Status letters for a file of the outline: content files show a dot until their hunks are computed,
    because only then is it known whether the result equals -X theirs."""
    if entry.status in (FileStatus.THEIRS_RESOLVED, FileStatus.HAND_RESOLVED):
        return PENDING_LETTER + " "
    return status_letters(entry)


def status_words(entry: FileAnalysis) -> str:
    shown = shown_status(entry)
    words = STATUS_WORD[shown] + (", unresolved" if shown is not entry.status else "")
    if entry.decided_by is Decider.FIX_COMMIT:
        words += ", changed by a fix commit after the merge"
    if entry.decided_by is Decider.APP and entry.decided_at:
        words = time.strftime("decided in the app (written %Y-%m-%d %H:%M UTC)", time.gmtime(entry.decided_at))
    return f"{words}; policy: {entry.policy}" if entry.policy else words


def short_sha(sha: str) -> str:
    return sha[:10]
