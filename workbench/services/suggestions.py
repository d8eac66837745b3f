"""Suggested resolutions as the app's decisions: a candidate becomes a ``Decision``, a file suggestion a
``FileChoice``, and accepting many of them is one event (one undo).

A candidate whose text is one side's (or a plain concatenation, as ``b``
writes it) is recorded as that ``Choice``; any other is ``Choice.CUSTOM``
with the candidate's exact bytes, so undo, the journal and the write plan's
checks (markers, Python syntax) treat it as they treat an edit.  No Textual:
the app and tests call the same functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from workbench.analysis.model import Candidate, FileSuggestion, FileTake, Hunk, HunkKind
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Decision
from workbench.resolve.suggested import candidate_decision
from workbench.services.cursor import positions
from workbench.services.workspace import Workspace
from workbench.wording import plural

FILE_TAKE_CHOICE = {FileTake.FILE_DEV: FileChoice.KEEP_DEV, FileTake.FILE_MAIN: FileChoice.TAKE_MAIN}
"""The whole-file choice a file suggestion stands for."""


def decided_candidate(hunk: Hunk, decision: Decision | None) -> Candidate | None:
    """The candidate a decision writes, when it writes one (to name an accepted splice for what it is)."""
    if decision is None:
        return None
    return next((c for c in hunk.candidates if candidate_decision(hunk, c) == decision), None)


def file_choice(suggestion: FileSuggestion) -> FileChoice:
    return FILE_TAKE_CHOICE[suggestion.take]


@dataclass(frozen=True, slots=True)
class Accepting:
    """Which suggestions a bulk accept takes: of one file or the whole sync, of one rung or every rung."""

    path: str | None = None
    """One file (None: the whole sync)."""
    rung: str | None = None
    """One rung's value (a hunk's ``Rung`` or a file's ``FileRung``; None: every rung)."""

    def words(self) -> str:
        where = "in this file" if self.path is not None else "in the whole sync"
        which = f"whose evidence is {self.rung}" if self.rung is not None else ""
        return " ".join(w for w in ("accept every suggestion", which, where) if w)


@dataclass(frozen=True, slots=True)
class Accepted:
    """What a bulk accept decides: hunks with the decision each takes, and whole-file choices."""

    hunks: tuple[tuple[str, int, Decision], ...]
    files: tuple[tuple[str, FileChoice], ...]

    @property
    def paths(self) -> set[str]:
        return {path for path, _i, _d in self.hunks} | {path for path, _c in self.files}

    def words(self) -> str:
        """"12 hunks in 3 files and 2 whole files": what a confirmation says it touches."""
        parts = []
        if self.hunks:
            parts.append(f"{plural(len(self.hunks), 'hunk')} in {plural(len({p for p, _i, _d in self.hunks}), 'file')}")
        if self.files:
            parts.append(plural(len(self.files), "whole file"))
        return " and ".join(parts) or "nothing"


def rungs_here(ws: Workspace, path: str | None) -> dict[str, int]:
    """Each rung of the undecided suggestions in reach, with how many there are (hunks, or files)."""
    counts: dict[str, int] = {}
    for found in _suggested(ws, path):
        counts[found.rung] = counts.get(found.rung, 0) + 1
    return counts


def accepted(ws: Workspace, accepting: Accepting) -> Accepted:
    """The undecided hunks with a suggestion, and the undecided files with one, that ``accepting`` takes."""
    hunks: list[tuple[str, int, Decision]] = []
    files: list[tuple[str, FileChoice]] = []
    for found in _suggested(ws, accepting.path):
        if accepting.rung is not None and found.rung != accepting.rung:
            continue
        if found.hunk is not None:
            hunks.append(found.hunk)
        if found.file is not None:
            files.append(found.file)
    return Accepted(tuple(hunks), tuple(files))


def accept(ws: Workspace, chosen: Accepted, label: str) -> None:
    """Decide them all as one event: one undo takes it back."""
    ws.decide_each(list(chosen.hunks), list(chosen.files), label)


class _Found(NamedTuple):
    """One undecided suggestion: its rung, and the hunk decision or the whole-file choice accepting it makes."""

    rung: str
    hunk: tuple[str, int, Decision] | None
    file: tuple[str, FileChoice] | None


def _suggested(ws: Workspace, path: str | None) -> Iterator[_Found]:
    """Every undecided suggestion in reach, in review order.

    A file with a file suggestion and no decision yet is one whole-file choice; other files give their
    undecided conflict hunks that have a suggestion (only those a quiz visits)."""
    paths = (path,) if path is not None else tuple(f.path for f in ws.files)
    for where in paths:
        entry = ws.entry(where)
        if ws.session.file_choice(where) is not None:
            continue
        if entry.suggestion is not None:
            if not ws.session.decided(where):
                yield _Found(entry.suggestion.rung.value, None, (where, file_choice(entry.suggestion)))
            continue
        visited = {p.hunk for p in positions(ws, (where,))}
        for hunk in entry.hunks:
            if (hunk.kind is HunkKind.CONFLICT and hunk.suggestion is not None and hunk.index in visited
                    and ws.session.decision(where, hunk.index) is None):
                decision = candidate_decision(hunk, hunk.suggestion.candidate)
                yield _Found(hunk.suggestion.rung.value, (where, hunk.index, decision), None)
