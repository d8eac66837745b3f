"""What a sync report says, gathered once and rendered by every format.

``build_report`` reads the analysis (and the decisions saved in the app,
and the Python line statistics) and sorts it into the sections a reviewer
of the sync PR reads top to bottom.  The formats (Markdown, JSON, text,
GitHub annotations) only lay these records out, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from workbench.analysis.model import (
    ApiMismatch,
    Commit,
    ConflictKind,
    Decider,
    DeletedFile,
    FileAnalysis,
    FileStatus,
    Hunk,
    Level,
    PolicyFinding,
    Resolver,
    SyncAnalysis,
    Taken,
)
from workbench.report.items import ReportItem, blocking, report_items
from workbench.report.stats import LineStats
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice

OVERRIDE_FROM_MAIN = "override-from-main"

_DISPOSITION: dict[Choice | FileChoice, str] = {
    Choice.MAIN: "kept main",
    Choice.DEV: "restored dev",
    Choice.BOTH: "spliced",
    Choice.BOTH_MAIN_FIRST: "spliced",
    Choice.CUSTOM: "edited",
    Choice.RESULT: "kept the result",
    Choice.MERGED: "restored git's merge",
    FileChoice.TAKE_MAIN: "kept main",
    FileChoice.KEEP_DEV: "restored dev",
    FileChoice.DELETE: "deleted",
}


@dataclass(frozen=True, slots=True)
class RecordedDecision:
    """A decision saved in the app for this sync: one hunk, or a whole file (``index`` None)."""

    path: str
    index: int | None
    choice: Choice | FileChoice | None
    """A hunk's choice, or a whole file's; None: only a note."""
    note: str = ""
    deletes: bool = False
    """A whole-file choice that leaves no file: ``delete``, or the side of a modify/delete
    conflict that deleted it (main's side of a file main deleted)."""
    decided_by: Literal["app", "ack"] = "app"
    """Who decided: ``app`` (saved in the app's journal) or ``ack`` (acknowledged in ``.workbench/acks.toml``)."""
    reason: str = ""
    """An acknowledgement's reason."""
    who: str = ""
    """Who acknowledged it (``user.name <user.email>``)."""
    at: str = ""
    """When it was decided or acknowledged (ISO 8601 UTC; "" when unknown)."""
    in_file: bool = True
    """Whether the result holds what was decided (``held_by``): a decision the file does not hold (saved in the
    app and never written, an acknowledgement of another side) closes nothing."""
    mark: str = ""
    """Who decided and whether the claim holds (``services.agent.provenance.Mark``'s values): agent-verified,
    agent-unverified, agent-contradicted, human, fix-commit; "" when the record names no agent."""

    @property
    def disposition(self) -> str:
        """kept main, restored dev, spliced, edited or deleted (undecided: a note alone)."""
        if self.choice is None:
            return "undecided"
        if self.deletes:
            return "deleted"
        return _DISPOSITION[self.choice]


@dataclass(frozen=True)
class RiskyHunk:
    """A medium- or high-risk hunk, with the commits behind it resolved to records."""

    path: str
    hunk: Hunk
    dev_commits: tuple[Commit, ...]
    main_commits: tuple[Commit, ...]
    decision: RecordedDecision | None
    open: bool
    """Still risky: no decision the result holds (in the app, or acknowledged), and main's text is there."""

    @property
    def level(self) -> Level:
        return self.hunk.level


@dataclass(frozen=True, slots=True)
class TakenFile:
    """A file whose result is main's version: settled by ``-X theirs`` or by the override list."""

    path: str
    status: FileStatus
    policy: str | None
    hunks: int
    reason: str


@dataclass(frozen=True, slots=True)
class BeyondFile:
    """A file where the result differs from git's automatic merge outside its conflicts."""

    path: str
    status: FileStatus
    edits: int
    high: int
    medium: int
    later: bool
    """A commit after the sync merge made (part of) the change."""


@dataclass(frozen=True, slots=True)
class FileEvent:
    """A file the sync deleted from dev, brought back although dev had deleted it, or left open."""

    path: str
    event: Literal["deleted", "restored", "unresolved"]
    """``deleted``, ``restored`` or ``unresolved`` (a modify/delete conflict still in the index)."""
    reason: str


@dataclass(frozen=True, slots=True)
class OpenHunk:
    """A hunk that keeps ``--fail-on`` failing."""

    path: str
    index: int
    level: Level
    taken: Taken


@dataclass(frozen=True)
class Gate:
    """The ``--fail-on LEVEL`` verdict, in items (``items.py``): the items at or above LEVEL that still wait for
    a decision and lose lines of either side or break the build; ``open`` lists their waiting hunks."""

    level: Level
    open: tuple[OpenHunk, ...]
    items: tuple[ReportItem, ...] = ()

    @property
    def failed(self) -> bool:
        return bool(self.items or self.open)


@dataclass(frozen=True)
class Report:
    """Everything a report shows, in section order."""

    analysis: SyncAnalysis
    stats: LineStats | None
    risky: tuple[RiskyHunk, ...]
    """High first, then medium; by risk, then path and hunk order."""
    taken: tuple[TakenFile, ...]
    api_mismatches: tuple[ApiMismatch, ...]
    file_events: tuple[FileEvent, ...]
    decisions: tuple[RecordedDecision, ...]
    gate: Gate | None = None
    decisions_note: str = ""
    """Why there are no decisions, when there are none (e.g. nothing saved in the app)."""
    beyond: tuple[BeyondFile, ...] = ()
    """Files the resolution changed beyond git's merge (clean files, edits outside conflicts)."""
    commit_url: str | None = None
    """``https://github.com/OWNER/NAME/commit/{sha}`` when ``origin`` is a known forge (``links.py``), else None."""
    items: tuple[ReportItem, ...] = ()
    """The worklist: every finding grouped by shared cause, most important first."""

    @property
    def hunk_count(self) -> int:
        return sum(len(f.hunks) for f in self.analysis.files)

    @property
    def edit_count(self) -> int:
        """Regions outside git's conflicts where the result differs from git's merge."""
        return sum(len(f.edits) for f in self.analysis.files)

    @property
    def by_theirs(self) -> bool:
        """Whether ``-X theirs`` alone decided the conflicts (else the bot or a person resolved them)."""
        return self.analysis.resolver is Resolver.THEIRS

    @property
    def theirs_hunks(self) -> int:
        """Hunks whose result holds main's side: what ``-X theirs`` decided."""
        return sum(1 for f in self.analysis.files for h in f.hunks if h.taken is Taken.MAIN)

    @property
    def unresolved_hunks(self) -> int:
        """Hunks whose result still has conflict markers (a merge in progress nobody finished)."""
        return sum(1 for f in self.analysis.files for h in f.hunks if h.taken is Taken.UNRESOLVED)

    @property
    def policy_findings(self) -> tuple[PolicyFinding, ...]:
        """What the sync policy found (none when no policy ran: ``analysis.policy`` is None)."""
        return self.analysis.policy.findings if self.analysis.policy is not None else ()

    @property
    def deleted_files(self) -> tuple[DeletedFile, ...]:
        """Files main has that the result lacks, with the verdict of the deleted-file audit."""
        return self.analysis.deleted_files

    def level_counts(self) -> dict[str, int]:
        counts = {level.value: 0 for level in (Level.HIGH, Level.MEDIUM, Level.LOW)}
        for entry in self.analysis.files:
            for hunk in entry.hunks:
                counts[hunk.level.value] += 1
        return counts


def build_report(
    analysis: SyncAnalysis,
    stats: LineStats | None,
    decisions: Iterable[RecordedDecision] = (),
    fail_on: Level | None = None,
    *,
    decisions_note: str = "",
    commit_url: str | None = None,
) -> Report:
    """Sort the analysis into the report's sections (a pure function)."""
    recorded = tuple(decisions)
    lookup = _DecisionLookup(recorded)
    items = report_items(analysis, lookup.member)
    return Report(
        analysis=analysis,
        stats=stats,
        risky=_risky_hunks(analysis, lookup),
        taken=tuple(t for t in (_taken(f, analysis.resolver) for f in sorted(analysis.files, key=_by_path)) if t),
        api_mismatches=analysis.api_mismatches,
        file_events=_file_events(analysis),
        decisions=recorded,
        gate=gate(analysis, items, fail_on) if fail_on is not None else None,
        decisions_note=decisions_note,
        beyond=_beyond(analysis),
        commit_url=commit_url,
        items=items,
    )


def _beyond(analysis: SyncAnalysis) -> tuple[BeyondFile, ...]:
    return tuple(
        BeyondFile(
            f.path,
            f.status,
            len(f.edits),
            sum(1 for h in f.edits if h.level is Level.HIGH),
            sum(1 for h in f.edits if h.level is Level.MEDIUM),
            f.later,
        )
        for f in sorted(analysis.files, key=_by_path)
        if f.edits or f.status.beyond_merge
    )


def is_open(hunk: Hunk, decided: bool) -> bool:
    """Whether one hunk still waits for a decision, in both directions.

    A hunk stays open while nobody has decided it (in the app: a hunk
    decision or a whole-file choice, main included, that is a reviewer's
    verdict; or acknowledged) in a way the result holds, and it is still
    conflicted or the result loses lines there, of dev's or of main's: a
    decision saved but never written, or an acknowledgement of a side the
    file does not hold, is not done.  A result holding dev's text that drops
    main's lines is as open as one holding main's that drops dev's.
    """
    return not decided and (hunk.taken is Taken.UNRESOLVED or bool(hunk.lost_lines.dev or hunk.lost_lines.main))


def gate(analysis: SyncAnalysis, items: tuple[ReportItem, ...], level: Level) -> Gate:
    """The items ``--fail-on level`` fails on, and their waiting hunks in file order."""
    failing = blocking(items, level)
    hunks = {(f.path, h.index): h for f in analysis.files for h in f.all_hunks}
    waiting = sorted({(m.path, m.hunk) for i in failing for m in i.pending if m.hunk is not None})
    found = tuple(OpenHunk(path, index, hunks[(path, index)].level, hunks[(path, index)].taken)
                  for path, index in waiting if (path, index) in hunks)
    return Gate(level, found, failing)


class _DecisionLookup:
    """The latest decision per hunk and per file (later records win, like the journal)."""

    def __init__(self, decisions: Iterable[RecordedDecision]) -> None:
        self._hunks: dict[tuple[str, int], RecordedDecision] = {}
        self._files: dict[str, RecordedDecision] = {}
        for decision in decisions:
            if decision.choice is None:
                continue
            if decision.index is None:
                self._files[decision.path] = decision
            else:
                self._hunks[(decision.path, decision.index)] = decision

    def get(self, path: str, index: int) -> RecordedDecision | None:
        """The hunk's own decision, else the whole-file choice."""
        return self._hunks.get((path, index)) or self._files.get(path)

    def decided(self, path: str, index: int) -> bool:
        """Whether a decision the result holds settles the hunk (one it does not hold keeps it open)."""
        found = self.get(path, index)
        return found is not None and found.in_file

    def member(self, path: str, index: int | None) -> bool:
        """Whether a worklist member is decided: a hunk as ``decided``, a whole file by a file choice it holds."""
        if index is not None:
            return self.decided(path, index)
        found = self._files.get(path)
        return found is not None and found.in_file


def _by_path(entry: FileAnalysis) -> str:
    return entry.path


def _risky_hunks(analysis: SyncAnalysis, lookup: _DecisionLookup) -> tuple[RiskyHunk, ...]:
    found = []
    for entry in analysis.files:
        commits = {c.sha: c for c in (*entry.history.dev, *entry.history.main)}
        for hunk in entry.all_hunks:
            if hunk.level.rank < Level.MEDIUM.rank:
                continue
            decision = lookup.get(entry.path, hunk.index)
            found.append(
                RiskyHunk(
                    path=entry.path,
                    hunk=hunk,
                    dev_commits=_commits(hunk.dev_commits, commits),
                    main_commits=_commits(hunk.main_commits, commits),
                    decision=decision,
                    open=is_open(hunk, decision is not None and decision.in_file),
                )
            )
    found.sort(key=lambda r: (-r.hunk.level.rank, -r.hunk.risk, r.path, r.hunk.index))
    return tuple(found)


def _commits(shas: tuple[str, ...], known: dict[str, Commit]) -> tuple[Commit, ...]:
    """Records for the shas the history knows (blame only names commits of the file's history)."""
    return tuple(known[sha] for sha in shas if sha in known)


def _taken(entry: FileAnalysis, resolver: Resolver) -> TakenFile | None:
    if entry.status is FileStatus.CONFLICTED:  # nothing is taken yet (a modify/delete leaves main's file in place)
        return None
    if entry.decided_by is Decider.APP and _holds_main(entry):
        reason = "decided in the app"
    elif entry.status is FileStatus.THEIRS_RESOLVED:
        reason = "-X theirs" if resolver is Resolver.THEIRS else "the resolution took main's text"
    elif entry.policy == OVERRIDE_FROM_MAIN and _holds_main(entry):
        reason = "override list"
    elif entry.main.oid is not None and entry.result_oid == entry.main.oid:
        reason = "main's file"
    else:
        return None
    return TakenFile(entry.path, entry.status, entry.policy, len(entry.hunks), reason)


def _holds_main(entry: FileAnalysis) -> bool:
    """The result is main's file, or main's side in every hunk."""
    if entry.main.oid is not None and entry.result_oid == entry.main.oid:
        return True
    return bool(entry.hunks) and all(h.taken is Taken.MAIN for h in entry.hunks)


def _file_events(analysis: SyncAnalysis) -> tuple[FileEvent, ...]:
    """Modify/delete conflicts by what the result did with the file (or that it is still open).

    A file the deleted-file audit already explains (``deleted_files``) is left to it.
    """
    audited = {d.path for d in analysis.deleted_files}
    found = []
    for entry in sorted(analysis.files, key=_by_path):
        if entry.path in audited:
            continue
        if entry.kind is not ConflictKind.MODIFY_DELETE and entry.status is not FileStatus.MODIFY_DELETE:
            continue
        dev_deleted = entry.dev.oid is None
        who = "dev deleted it; main changed it" if dev_deleted else "main deleted it; dev changed it"
        if entry.status is FileStatus.CONFLICTED:
            found.append(FileEvent(entry.path, "unresolved", f"{who}; still conflicted"))
        elif dev_deleted and entry.result_present:
            found.append(FileEvent(entry.path, "restored", f"{who}; the result keeps main's"))
        elif not dev_deleted and not entry.result_present:
            found.append(FileEvent(entry.path, "deleted", f"{who}; the result drops dev's"))
    return tuple(found)

