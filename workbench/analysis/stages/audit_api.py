"""The ``audit_api`` pipeline stage: findings, and signals on the hunks that hold them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.analysis.api.audit import Auditor
from workbench.analysis.api.definition_changes import History
from workbench.analysis.api.findings import CalleeNote, PathFindings
from workbench.analysis.model import ApiMismatch, FileAnalysis, Signal, SignalKind, SyncAnalysis
from workbench.analysis.readers import Trees
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit


@dataclass(frozen=True)
class _AuditFindings:
    """What the audit found, its mismatches sorted."""

    mismatches: tuple[ApiMismatch, ...]
    notes: tuple[CalleeNote, ...]


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> Auditor | None:
    """An auditor of ``analysis`` (None: no whole-tree reader, nothing to audit)."""
    files, policy = context.repo_files, context.policy
    if files is None:
        return None
    trees = Trees(files, {f.path: f for f in analysis.files}, context.held)
    override = (lambda path: policy.override_rule(path) is not None) if policy is not None else (lambda path: False)
    return Auditor(analysis, trees, History(files, context.read_blob), context.commit, override, context.paths)


def _units(auditor: Auditor | None) -> list[Unit[str]]:
    """The paths to audit (none without a whole-tree reader)."""
    return [Unit(path) for path in auditor.candidates()] if auditor is not None else []


def _find(auditor: Auditor | None, path: str) -> PathFindings:
    """What auditing ``path`` finds: it reads other paths' code, never their findings."""
    assert auditor is not None
    return auditor.found_in(path)


def _fold(analysis: SyncAnalysis, parts: Sequence[PathFindings], auditor: Auditor | None) -> SyncAnalysis:
    """Fill ``api_mismatches`` and put a signal on each hunk (or file) that holds one."""
    return analysis if auditor is None else _with_audit(analysis, _collected(parts))


def _collected(parts: Sequence[PathFindings]) -> _AuditFindings:
    """The findings of every audited path (given in ``candidates()`` order), the mismatches sorted."""
    mismatches = [m for part in parts for m in part.mismatches]
    findings = tuple(sorted(mismatches, key=lambda f: (f.path, f.line, f.kind, f.symbol)))
    return _AuditFindings(findings, tuple(n for part in parts for n in part.notes))


def _with_audit(analysis: SyncAnalysis, found: _AuditFindings) -> SyncAnalysis:
    """``analysis`` holding the audit's findings, with their signals on its hunks and files."""
    entries = tuple(_with_signals(entry, found.mismatches, found.notes) for entry in analysis.files)
    return replace(analysis, files=entries, api_mismatches=found.mismatches)


def _with_signals(entry: FileAnalysis, findings: tuple[ApiMismatch, ...], notes: Sequence[CalleeNote]) -> FileAnalysis:
    mine = [f for f in findings if f.path == entry.path]
    callee = [n for n in notes if n.path == entry.path]
    if not mine and not callee:
        return entry
    by_hunk: dict[int, list[Signal]] = {}
    file_signals: list[Signal] = []
    for finding in mine:
        kind = SignalKind.API_MISMATCH
        signal = Signal(kind, f"line {finding.line}: {finding.message}", finding.commits, kind_weight(kind))
        if finding.hunk is None:
            file_signals.append(signal)
        else:
            by_hunk.setdefault(finding.hunk, []).append(signal)
    seen: set[tuple[int, str]] = set()
    for note in callee:
        if (note.hunk, note.message) not in seen:
            seen.add((note.hunk, note.message))
            by_hunk.setdefault(note.hunk, []).append(
                Signal(SignalKind.API_MISMATCH_CALLEE, note.message, note.commits, kind_weight(SignalKind.API_MISMATCH_CALLEE))
            )
    hunks = tuple(
        replace(h, signals=h.signals + tuple(by_hunk[h.index])) if h.index in by_hunk else h for h in entry.hunks
    )
    return replace(entry, hunks=hunks, signals=entry.signals + tuple(file_signals))


STAGE = Stage("audit_api", frozenset(), frozenset({Fact.API_MISMATCHES, Fact.SIGNALS}), _prepare, _units, _find, _fold)
"""The API audit, path by path: reads the engine's facts and the context's policy (override-from-main files)."""
