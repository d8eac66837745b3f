"""What ``decide --take`` does to each member of an item: a hunk decision, a whole-file choice, or keeping it.

The takes are the worklist's decisions (``Decision``) plus ``suggested`` (the
engine's suggestion for each hunk).  A take that does not apply to a member
(``merged`` on a conflict, ``result`` on a hunk still holding markers, a
whole-file take of a path the sync does not hold) says why, and the caller
refuses the whole request: nothing is decided by halves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from workbench.analysis.model import FileAnalysis, FileStatus, FileSuggestion, Hunk, HunkKind, Mode, SyncAnalysis, Taken
from workbench.analysis.worklist import Member
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision


class Take(str, Enum):
    """``decide --take``: the worklist's decisions and the engine's suggestion."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    BOTH_MAIN_FIRST = "both-main-first"
    MERGED = "merged"
    RESULT = "result"
    FILE_MAIN = "file-main"
    FILE_DEV = "file-dev"
    CUSTOM = "custom"
    SUGGESTED = "suggested"


SIDE_TAKES = frozenset({Take.MAIN, Take.DEV, Take.BOTH, Take.BOTH_MAIN_FIRST})
FILE_TAKES = {Take.FILE_MAIN: FileChoice.TAKE_MAIN, Take.FILE_DEV: FileChoice.KEEP_DEV}
_HELD = {Taken.MAIN: Choice.MAIN, Taken.DEV: Choice.DEV, Taken.BOTH: Choice.BOTH}


@dataclass(frozen=True, slots=True)
class HunkAction:
    """Decide one hunk (``index`` in the file's ``all_hunks``)."""

    path: str
    index: int
    decision: Decision


@dataclass(frozen=True, slots=True)
class FileAction:
    """Choose a whole file (keep dev's, take main's)."""

    path: str
    choice: FileChoice


@dataclass(frozen=True, slots=True)
class Keep:
    """Nothing to change: the result stays as it is (recorded with the claim)."""

    path: str
    index: int | None


Action = HunkAction | FileAction | Keep


def held_decision(hunk: Hunk) -> Decision | None:
    """The decision that keeps what the result holds in ``hunk`` (None: conflict markers, or no place in the result)."""
    if hunk.kind is HunkKind.EDIT:
        return Decision(Choice.RESULT)
    if hunk.result_text is None or hunk.taken is Taken.UNRESOLVED:
        return None
    choice = _HELD.get(hunk.taken)
    return Decision(choice) if choice is not None else Decision(Choice.CUSTOM, b"".join(hunk.result_text))


def action(take: Take, member: Member, analysis: SyncAnalysis, text: bytes | None = None,
           suggested: Decision | None = None) -> Action | str:
    """What ``take`` does to ``member``, or why it does not apply (a sentence)."""
    entry = analysis.file(member.path)
    where = _where(member)
    if take in FILE_TAKES:
        if entry is None:
            return (f"{member.path} is not among the sync's files, so no side's file can be written there "
                    "(restore it with git, then decide `result`)")
        return FileAction(member.path, FILE_TAKES[take])
    hunk = _hunk(entry, member)
    whole = file_suggestion(entry, hunk)
    if take is Take.SUGGESTED and whole is not None:
        return FileAction(member.path, FILE_TAKES[Take(whole.take.value)])
    if take is Take.RESULT:
        if hunk is None:
            if entry is not None and entry.status is FileStatus.CONFLICTED and analysis.mode is Mode.IN_PROGRESS:
                return f"{where} is still conflicted in the index: take file-dev or file-main"
            return Keep(member.path, None)
        held = held_decision(hunk)
        if held is None:
            return f"{where} still holds conflict markers (or has no place in the result): choose a side"
        return HunkAction(member.path, hunk.index, held)
    if hunk is None:
        return f"{where} is a whole file: take file-main, file-dev or result"
    if take in SIDE_TAKES:
        return HunkAction(member.path, hunk.index, Decision(Choice(take.value)))
    if take is Take.MERGED:
        if hunk.kind is not HunkKind.EDIT or hunk.merged_text is None:
            return f"{where} is one of git's conflicts: `merged` restores git's merge where the result edited it"
        return HunkAction(member.path, hunk.index, Decision(Choice.MERGED))
    if take is Take.CUSTOM:
        if text is None:
            return "--take custom needs --text-file"
        return HunkAction(member.path, hunk.index, Decision(Choice.CUSTOM, text))
    if suggested is None:
        return f"the engine suggests nothing for {where}"
    return HunkAction(member.path, hunk.index, suggested)


def file_suggestion(entry: FileAnalysis | None, hunk: Hunk | None) -> FileSuggestion | None:
    """The whole file's suggestion where it stands for the member (a lock file, measured values: their hunks carry
    no suggestion of their own, and the app's accept key takes the file's side there too)."""
    if entry is None or entry.suggestion is None or (hunk is not None and hunk.suggestion is not None):
        return None
    return entry.suggestion


def _hunk(entry: FileAnalysis | None, member: Member) -> Hunk | None:
    if entry is None or member.hunk is None or not 0 <= member.hunk < len(entry.all_hunks):
        return None
    return entry.all_hunks[member.hunk]


def _where(member: Member) -> str:
    return member.path if member.hunk is None else f"hunk {member.hunk + 1} of {member.path}"


def applies(take: Take, member: Member, analysis: SyncAnalysis) -> bool:
    """Whether ``take`` applies to ``member`` (custom and suggested: its text or suggestion aside)."""
    if take is Take.CUSTOM:
        return isinstance(action(take, member, analysis, b""), HunkAction)
    if take is Take.SUGGESTED:
        entry = analysis.file(member.path)
        hunk = _hunk(entry, member)
        return (hunk is not None and hunk.suggestion is not None) or file_suggestion(entry, hunk) is not None
    return not isinstance(action(take, member, analysis), str)
