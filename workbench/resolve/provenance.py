"""Who decided a file, and the evidence it had then: a person's choice is not ``-X theirs``.

Once the app writes a decided file, the work tree holds the decision: a
fresh analysis sees main's text where the user took main ("-X theirs took
main") or dev's where they restored dev ("resolved by hand", risk 0), and
the evidence that made the hunk risky (the API mismatch, the commits) is
gone.  So every WRITTEN event carries the file's and its hunks' evidence as
they were when written, and ``restore`` puts it back on any later analysis
whose result still holds exactly the bytes the app wrote, marking the file
``decided_by = "app"`` with the time.  A file changed since (a fix commit, a
hand edit) no longer matches, and is analysed as it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from workbench.analysis.model import (
    Decider,
    FileAnalysis,
    FileStatus,
    Hunk,
    Level,
    Mode,
    Signal,
    SignalKind,
    SyncAnalysis,
)
from workbench.git.repo import GitRepo
from workbench.resolve.events import Event, Evidence, Op, evidence_from_json
from workbench.resolve.journal import Journal, Situation


def restore(analysis: SyncAnalysis, events: Iterable[Event], before: float | None = None) -> SyncAnalysis:
    """The analysis with every file the app wrote (and that still holds it) back to its evidence when written.

    ``before``: ignore writes made after this time (a merge commit's: only writes it can contain)."""
    written: dict[str, Event] = {}
    for event in events:
        # A commit's time has whole seconds: a write in the same second as the commit came before it.
        if event.op is Op.WRITTEN and event.path is not None and (before is None or int(event.at) <= before):
            written[event.path] = event
    if not written:
        return analysis
    return replace(analysis, files=tuple(_restored(entry, written.get(entry.path)) for entry in analysis.files))


_DECIDED = frozenset({FileStatus.THEIRS_RESOLVED, FileStatus.HAND_RESOLVED})
"""Statuses that say who settled a file's content: the app's write replaces them with ``app-resolved``."""


def _restored(entry: FileAnalysis, event: Event | None) -> FileAnalysis:
    if event is None or event.oid != (entry.result_oid if entry.result_present else None):
        return entry
    if entry.status in _DECIDED:
        entry = replace(entry, status=FileStatus.APP_RESOLVED)
    try:
        data = json.loads(event.evidence) if event.evidence else None
        file_evidence = evidence_from_json(data["file"]) if data else None
        hunks = [evidence_from_json(h) for h in data["hunks"]] if data else []
    except (ValueError, KeyError, TypeError):
        data = None
    if data is None or file_evidence is None or len(hunks) != len(entry.hunks):
        return replace(entry, decided_by=Decider.APP, decided_at=event.at)
    risk, level, signals = file_evidence
    return replace(
        entry,
        hunks=tuple(_with(h, e) for h, e in zip(entry.hunks, hunks, strict=True)),
        risk=risk, level=Level(level), signals=_still_true(signals), decided_by=Decider.APP, decided_at=event.at,
    )


def _with(hunk: Hunk, evidence: Evidence) -> Hunk:
    risk, level, signals = evidence
    return replace(hunk, risk=risk, level=Level(level), signals=_still_true(signals))


def _still_true(signals: tuple[Signal, ...]) -> tuple[Signal, ...]:
    """The evidence once the app decided: "nobody has chosen a side yet" (weight 0) no longer holds."""
    return tuple(s for s in signals if s.kind is not SignalKind.STILL_CONFLICTED)


def merged_journal(repo: GitRepo, analysis: SyncAnalysis) -> tuple[Journal, float] | None:
    """For a merge commit: the journal of the merge in progress that may have made it, and the commit's time.

    Decisions written while merging the same two tips (before the commit was made) explain its files."""
    if analysis.mode is not Mode.MERGE_COMMIT or analysis.merge is None:
        return None
    journal = Journal.for_situation(repo.gitdir, Situation.merging(analysis.dev, analysis.main))
    if not journal.exists():
        return None
    try:
        made = datetime.fromisoformat(repo.commit_info(analysis.merge).date).timestamp()
    except ValueError:
        return None
    return journal, made


def with_provenance(repo: GitRepo, analysis: SyncAnalysis, events: list[Event] | None = None) -> SyncAnalysis:
    """``restore`` from the situation's own journal (``events``, read when None) and, for a merge commit, from
    the merge in progress that made it; files a commit after the merge changed say ``fix commit``."""
    if events is None:
        events = Journal.for_situation(Path(repo.gitdir), Situation.of(analysis)).load()
    restored = restore(analysis, events)
    merged = merged_journal(repo, analysis)
    if merged is not None:
        journal, made = merged
        own = {e.path for e in events if e.op is Op.WRITTEN}
        earlier = [e for e in journal.load() if e.op is Op.WRITTEN and e.path not in own]
        restored = restore(restored, earlier, before=made)
    return _fix_commits(repo, restored)


def _fix_commits(repo: GitRepo, analysis: SyncAnalysis) -> SyncAnalysis:
    """Files a commit after the merge changed (the result is a later commit, e.g. the PR head): ``fix commit``."""
    merge, result = analysis.merge, analysis.result_commit
    if analysis.mode is not Mode.MERGE_COMMIT or merge is None or result is None or result == merge:
        return analysis
    files = []
    for entry in analysis.files:
        if entry.decided_by is None:
            merged = repo.tree_entry(merge, entry.path)
            if (merged[0] if merged else None) != (entry.result_oid if entry.result_present else None):
                entry = replace(entry, decided_by=Decider.FIX_COMMIT)
        files.append(entry)
    return replace(analysis, files=tuple(files))
