"""The ``build_worklist`` stage: every finding grouped by shared cause into items decided once.

Last, since it reads what every stage found.  Its work: the sync's own
commits (from history and the policy's bots), where they changed each file
(its History: one unit per file, reused by its paths), then in one unit which commit after the merge wrote each hunk's result (with
``--result`` later than the merge), which hunks lost layout only; then the
grouping (``analysis/worklist/``), and rule R5: a medium hunk losing lines
of the same change as a high item is read with it, so it is high too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.analysis.model import FileAnalysis, Hunk, Level, SignalKind, SyncAnalysis, SyncChange
from workbench.analysis.risk.combine import HIGH, file_risk, level_of
from workbench.analysis.risk.fixes import fixed_by
from workbench.analysis.risk.signals import EXPLAINING
from workbench.analysis.risk.sync_commits import SyncCommits, of_sync
from workbench.analysis.risk.sync_history import sync_changes
from workbench.analysis.seam import EVERYTHING, AnalysisContext, Fact, Stage, Unit
from workbench.analysis.worklist import Worklist, WorklistFacts, build_worklist, lifted
from workbench.analysis.worklist.facts import HunkRef
from workbench.analysis.worklist.lift import lift_signal, with_levels


@dataclass(frozen=True)
class _Found:
    """The worklist, and the hunks R5 lifts."""

    worklist: Worklist
    lifted: frozenset[HunkRef]


@dataclass(frozen=True)
class _Given:
    analysis: SyncAnalysis
    context: AnalysisContext
    sync: SyncCommits


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> _Given:
    return _Given(analysis, context, of_sync(context.snapshot, context.policy, context.commit))


def _units(given: _Given) -> list[Unit[int | None]]:
    """Each file's sync changes (by index), then the worklist (None) over every file."""
    files = len(given.analysis.files)
    return [*(Unit[int | None](k) for k in range(files)), Unit[int | None](None, files)]


def _find(given: _Given, key: int | None) -> tuple[SyncChange, ...] | _Found:
    analysis, context = given.analysis, given.context
    snapshot = context.snapshot
    if key is not None:
        f = analysis.files[key]
        return sync_changes(
            (("dev", snapshot.dev_history, f.dev.path), ("main", snapshot.main_history, f.main.path)),
            given.sync, context.commit, context.line_changes,
        ) if given.sync.reasons else ()
    fixes = fixed_by(analysis.files, snapshot.later_history, context.mapper) if snapshot.later_history else {}
    facts = WorklistFacts(
        sync_commits=given.sync.shas,
        fixed_by=fixes,
        layout_only=_layout_only(analysis),
        duplicates=analysis.duplicates,
        commits=tuple(context.commit(sha) for sha in dict.fromkeys(fixes.values())),
    )
    worklist = build_worklist(analysis, facts)
    lift = lifted(worklist)
    return _Found(with_levels(worklist, lift) if lift else worklist, lift)


def _inputs(given: _Given, key: int | None) -> tuple[object, ...] | None:
    """A file's sync changes read its paths on each side (their histories and the sync's commits are the
    scope's); the worklist reads every stage's findings: never reused."""
    if key is None:
        return None
    f = given.analysis.files[key]
    return (f.dev.path, f.main.path)


def _fold(analysis: SyncAnalysis, found: Sequence[tuple[SyncChange, ...] | _Found], _given: _Given) -> SyncAnalysis:
    *per_file, done = found
    assert isinstance(done, _Found)
    histories = [changes for changes in per_file if not isinstance(changes, _Found)]
    files = tuple(_folded(f, changes, done.lifted) for f, changes in zip(analysis.files, histories, strict=True))
    return replace(analysis, files=files, worklist=done.worklist)


STAGE = Stage("build_worklist", EVERYTHING, frozenset({Fact.WORKLIST, Fact.RISK, Fact.SIGNALS}), _prepare, _units, _find, _fold,
              _inputs)
"""The worklist, last: it reads every stage's findings."""


def _layout_only(analysis: SyncAnalysis) -> frozenset[HunkRef]:
    """Hunks whose lost lines were all laid out anew or moved in the result (nothing lost, nothing removed)."""
    found = set()
    for entry in analysis.files:
        for hunk in entry.all_hunks:
            kinds = {s.kind for s in hunk.signals}
            if (kinds & EXPLAINING and SignalKind.REMOVED_ON_PURPOSE not in kinds
                    and not hunk.lost_lines.dev and not hunk.lost_lines.main):
                found.add((entry.path, hunk.index))
    return frozenset(found)


def _folded(entry: FileAnalysis, changes: tuple[SyncChange, ...], lift: frozenset[HunkRef]) -> FileAnalysis:
    if changes:
        entry = replace(entry, history=replace(entry.history, sync=changes))
    if not any((entry.path, h.index) in lift for h in entry.all_hunks):
        return entry
    hunks = tuple(_lifted(h) if (entry.path, h.index) in lift else h for h in entry.hunks)
    edits = tuple(_lifted(h) if (entry.path, h.index) in lift else h for h in entry.edits)
    risk = max(entry.risk, file_risk((h.risk for h in (*hunks, *edits)), ()))
    return replace(entry, hunks=hunks, edits=edits, risk=risk, level=level_of(risk))


def _lifted(hunk: Hunk) -> Hunk:
    """A medium hunk read with its item's high hunks: high, and said why (R5)."""
    if hunk.level is Level.HIGH:
        return hunk
    signal = lift_signal(HIGH - hunk.risk)
    return replace(hunk, signals=(*hunk.signals, signal), risk=hunk.risk + signal.weight, level=Level.HIGH)

