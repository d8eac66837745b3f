"""What the audit found, recorded once and worded so a reviewer can act on it.

The checks in ``audit.py`` decide *whether* a use fails only in the merge;
this says *why* in a sentence (the commit that removed or added the name, a
rename hint, whose definition the merged tree holds), drops repeats, and
finds the hunk that dropped what a caller needs, so the callee's file gets
a signal too.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.api.binding import TreeModules
from workbench.analysis.api.definition_changes import Change, History, Key, close_name, members, shape
from workbench.analysis.api.view import OTHER, FileView
from workbench.analysis.model import ApiMismatch, Hunk, MismatchKind, SyncAnalysis, Taken, Whose
from workbench.analysis.python.module_index import ModuleIndex
from workbench.git.types import CommitLookup, TreeRole


@dataclass(frozen=True)
class CalleeNote:
    """Evidence for the callee's file: the hunk that dropped or changed what a caller needs."""

    path: str
    hunk: int
    message: str
    commits: tuple[str, ...]


@dataclass(frozen=True)
class PathFindings:
    """What auditing one path found: plain data, so it can come back from another process."""

    mismatches: tuple[ApiMismatch, ...]
    notes: tuple[CalleeNote, ...]
    """Notes on the files whose hunks dropped what this path's code uses."""


class Findings:
    """The mismatches and callee notes of one run, and the evidence their messages quote."""

    def __init__(self, analysis: SyncAnalysis, ws: dict[TreeRole, TreeModules], history: History, commit: CommitLookup) -> None:
        self.analysis = analysis
        self.ws = ws
        self.history = history
        self.commit = commit
        self.mismatches: list[ApiMismatch] = []
        self.notes: list[CalleeNote] = []
        self._seen: set[tuple[str, int, str, str]] = set()

    def why_missing(self, side: Whose, path: str, key: Key) -> tuple[Change | None, Change | None]:
        """(the other side's commit that removed ``key``, or this side's that added it)."""
        removed = self.history.removed(OTHER[side], path, key)
        if removed is not None:
            return removed, None
        return None, self.history.added(side, path, key)

    def cause(self, side: Whose, change: Change | None, dropped: Change | None, changed: bool = False) -> str:
        other = OTHER[side]
        if change is not None:
            if changed:
                return f"; {other}'s {self.label(change.sha)} changed it"
            verb = f"renamed it to `{change.renamed_to}`" if change.renamed_to else "removed it"
            return f"; {other}'s {self.label(change.sha)} {verb}"
        if dropped is not None:
            return f"; {side}'s {self.label(dropped.sha)} added it and the merge dropped it"
        return ""

    def origin(self, other: Whose, path: str, key: Key, now: object) -> str:
        """``dev's `` when the merged definition is the other side's as it stands there."""
        merged = shape(self.ws["result"].index(path), key) if now is None else now
        theirs = shape(self.ws[other].index(path), key) if self.ws[other].blob(path) else object()
        return f"{other}'s " if merged == theirs else ""

    def label(self, sha: str) -> str:
        info = self.commit(sha)
        return f'{sha[:10]} "{info.subject}"'

    def dropping_hunk(self, path: str, side: Whose, line: int | None) -> Hunk | None:
        """The hunk of ``path`` whose ``side`` range holds ``line`` and that did not take ``side``."""
        entry = self.analysis.file(path)
        if entry is None or line is None:
            return None
        for hunk in entry.hunks:
            span = hunk.dev if side == "dev" else hunk.main
            keeps = hunk.taken in (Taken.BOTH, Taken.DEV if side == "dev" else Taken.MAIN)
            if span.start <= line <= span.end and not keeps:
                return hunk
        return None

    def note_callee(self, path: str, side: Whose, line: int | None, symbol: str, caller: str) -> None:
        hunk = self.dropping_hunk(path, side, line)
        if hunk is None:
            return
        commits = hunk.main_commits if side == "dev" else hunk.dev_commits
        self.notes.append(CalleeNote(
            path, hunk.index,
            f"this hunk drops {side}'s `{symbol}`, which {side}'s code in {caller} still uses", commits,
        ))

    def add(self, view: FileView, line: int, symbol: str, kind: MismatchKind, message: str, side: Whose,
            callee_path: str | None, callee_line: int | None, commits: tuple[str, ...]) -> None:
        key = (view.path, line, symbol, kind)
        if key in self._seen:
            return
        self._seen.add(key)
        hunk = view.hunk_at(line)
        self.mismatches.append(ApiMismatch(
            path=view.path, line=line, symbol=symbol, kind=kind, message=message, side=side,
            callee_path=callee_path, callee_line=callee_line, commits=commits,
            hunk=hunk.index if hunk is not None else None,
        ))


def rename_hint(change: Change | None, key: Key, merged: ModuleIndex | None, mine: ModuleIndex | None) -> str:
    """`` (it has `new_name`)`` when the commit renamed the name or the merged module has a close one."""
    renamed = change.renamed_to if change is not None else None
    if renamed is None:
        renamed = close_name(key.name, members(merged, key.owner) - members(mine, key.owner))
    return f" (it has `{renamed}`)" if renamed else ""


def shas(change: Change | None, dropped: Change | None) -> tuple[str, ...]:
    return tuple(c.sha for c in (change, dropped) if c is not None)
