"""The decisions the app saved for this sync, read from its journal, as the report lists them.

The app appends every action to ``.git/workbench/journal/`` (one journal
per situation: the merge in progress, or the merge commit and its result); replaying it through a ``Session`` gives the state
the reviewer left: each hunk's choice, whole-file choices, and notes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from workbench.analysis.model import Decider, FileAnalysis, SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.report.document import RecordedDecision
from workbench.resolve.acks import Ack, hunk_holds, matched
from workbench.resolve.events import FileChoice, chosen_oid
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.provenance import merged_journal
from workbench.resolve.session import Session


def load_decisions(gitdir: Path, analysis: SyncAnalysis) -> tuple[tuple[RecordedDecision, ...], str]:
    """(decisions in file and hunk order, a note on where they came from)."""
    journal = Journal.for_situation(gitdir, Situation.of(analysis))
    if not journal.exists():
        return (), "no decisions saved in the app for this sync"
    return recorded_decisions(Session(analysis, journal.load())), ""


def merged_decisions(repo: GitRepo, analysis: SyncAnalysis,
                     known: tuple[RecordedDecision, ...]) -> tuple[RecordedDecision, ...]:
    """For a merge commit: the decisions the app wrote while making it (the merge in progress of the same
    tips), for the files whose result still holds what the app wrote (``decided_by`` app); ``known`` wins."""
    merged = merged_journal(repo, analysis)
    if merged is None:
        return ()
    journal, _made = merged
    settled = {f.path for f in analysis.files if f.decided_by is Decider.APP}
    have = {(d.path, d.index) for d in known}
    return tuple(d for d in recorded_decisions(Session(analysis, journal.load()))
                 if d.path in settled and (d.path, d.index) not in have and d.choice is not None)


def acknowledged(analysis: SyncAnalysis, record: Sequence[Ack]) -> tuple[RecordedDecision, ...]:
    """The acknowledged hunks of the sync's ``record`` (``sync_acks``: ``.workbench/acks.toml`` in the result),
    in file and hunk order."""
    found = matched(record, analysis)
    hunks = {(f.path, h.index): h for f in analysis.files if f.path in {p for p, _ in found} for h in f.all_hunks}
    return tuple(
        RecordedDecision(path, index, ack.decision, decided_by="ack", reason=ack.reason, who=ack.who, at=ack.at,
                         in_file=hunk_holds(hunks[(path, index)], ack.decision))
        for (path, index), ack in sorted(found.items())
    )


def with_marks(repo: GitRepo, analysis: SyncAnalysis, found: tuple[RecordedDecision, ...],
               record: Sequence[Ack]) -> tuple[RecordedDecision, ...]:
    """``found`` marked as the app marks them (``services.agent.provenance``), once the record names an agent:
    agent-verified, agent-unverified, agent-contradicted (each claim checked again), or human.  A hunk the agent
    decided is listed once, by its record entry (the journal's copy of it says nothing more)."""
    if not any(a.by_agent for a in record):
        return found
    from workbench.resolve.marks import Mark
    from workbench.services.agent.provenance import decision_marks
    from workbench.services.workspace import Workspace

    marks = decision_marks(repo, Workspace.load(repo, analysis), record)
    recorded = {(d.path, d.index) for d in found if d.decided_by == "ack"}
    marked: list[RecordedDecision] = []
    for decision in found:
        where = (decision.path, decision.index)
        known = marks.get(where)
        mark = known.mark if known is not None else Mark.HUMAN
        if decision.decided_by == "app" and where in recorded and mark is not Mark.HUMAN:
            continue
        marked.append(replace(decision, mark=mark.value))
    listed = {(d.path, d.index) for d in marked}
    for (path, index), known in marks.items():  # a record entry no hunk of the report names (a whole file)
        ack = known.ack
        if (path, index) not in listed and ack is not None:
            marked.append(RecordedDecision(path, index, ack.decision, decided_by="ack", reason=ack.reason, who=ack.who,
                                           at=ack.at, mark=known.mark.value))
    return tuple(sorted(marked, key=lambda d: (d.path, -1 if d.index is None else d.index)))


def recorded_decisions(session: Session) -> tuple[RecordedDecision, ...]:
    """Every hunk decision, whole-file choice and note the session holds, each saying whether the result holds it."""
    notes = session.notes()
    found: list[RecordedDecision] = []
    for entry in session.analysis.files:
        path = entry.path
        choice = session.file_choice(path)
        if choice is not None or notes.get((path, None)):
            found.append(RecordedDecision(path, None, choice, notes.get((path, None), ""),
                                          deletes=choice is not None and _leaves_no_file(entry, choice),
                                          at=_iso(session.decided_at(path, None)),
                                          in_file=choice is None or file_holds(entry, choice)))
        for hunk in entry.all_hunks:
            decision = session.decision(path, hunk.index)
            note = notes.get((path, hunk.index), "")
            if decision is not None or note:
                found.append(RecordedDecision(path, hunk.index, decision.choice if decision else None, note,
                                              at=_iso(session.decided_at(path, hunk.index)),
                                              in_file=decision is None or hunk_holds(hunk, decision.choice, decision.text)))
    return tuple(found)


def file_holds(entry: FileAnalysis, choice: FileChoice) -> bool:
    """Whether the result is what a whole-file choice writes: that side's file (or no file), or nothing."""
    wanted = chosen_oid(entry, choice)
    if wanted is None:
        return not entry.result_present
    return entry.result_present and entry.result_oid == wanted


def _iso(at: float | None) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)) if at else ""


def _leaves_no_file(entry: FileAnalysis, choice: FileChoice) -> bool:
    """The choice deletes the file: ``delete``, or a side that does not have it."""
    return chosen_oid(entry, choice) is None
