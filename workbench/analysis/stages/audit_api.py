"""The ``audit_api`` pipeline stage: findings, and signals on the hunks that hold them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.analysis.api.audit import Auditor
from workbench.analysis.api.definition_changes import History
from workbench.analysis.api.findings import CalleeNote, PathFindings
from workbench.analysis.model import ApiMismatch, FileAnalysis, Signal, SignalKind, SyncAnalysis
from workbench.analysis.readers import Trees
from workbench.analysis.stages.context import AnalysisContext

WEIGHTS = {SignalKind.API_MISMATCH: 50, SignalKind.API_MISMATCH_CALLEE: 45}
"""On the 0..100 risk scale (high from 60): a main-taken hunk (baseline 15) holding
a mismatch becomes high; see docs/api-audit.md."""


def audit_api(analysis: SyncAnalysis, context: AnalysisContext) -> SyncAnalysis:
    """Fill ``api_mismatches`` and put a signal on each hunk (or file) that holds one."""
    found = audit_findings(analysis, context)
    return analysis if found is None else with_audit(analysis, found)


@dataclass(frozen=True)
class AuditFindings:
    """What the audit found: plain data, so it can come back from another process (``pipeline.py``)."""

    mismatches: tuple[ApiMismatch, ...]
    notes: tuple[CalleeNote, ...]


def audit_findings(analysis: SyncAnalysis, context: AnalysisContext) -> AuditFindings | None:
    """The audit's findings, sorted (None: no whole-tree reader, nothing audited)."""
    auditor = new_auditor(analysis, context)
    if auditor is None:
        return None
    return collected([auditor.found_in(path) for path in auditor.candidates()])


def new_auditor(analysis: SyncAnalysis, context: AnalysisContext) -> Auditor | None:
    """An auditor of ``analysis`` (None: no whole-tree reader, nothing to audit)."""
    files, policy = context.repo_files, context.policy
    if files is None:
        return None
    trees = Trees(files, {f.path: f for f in analysis.files}, context.held)
    override = (lambda path: policy.override_rule(path) is not None) if policy is not None else (lambda path: False)
    return Auditor(analysis, trees, History(files, context.read_blob), context.commit, override, context.paths)


def collected(parts: Sequence[PathFindings]) -> AuditFindings:
    """The findings of every audited path (given in ``candidates()`` order), the mismatches sorted."""
    mismatches = [m for part in parts for m in part.mismatches]
    findings = tuple(sorted(mismatches, key=lambda f: (f.path, f.line, f.kind, f.symbol)))
    return AuditFindings(findings, tuple(n for part in parts for n in part.notes))


def with_audit(analysis: SyncAnalysis, found: AuditFindings) -> SyncAnalysis:
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
        signal = Signal(kind, f"line {finding.line}: {finding.message}", finding.commits, WEIGHTS[kind])
        if finding.hunk is None:
            file_signals.append(signal)
        else:
            by_hunk.setdefault(finding.hunk, []).append(signal)
    seen: set[tuple[int, str]] = set()
    for note in callee:
        if (note.hunk, note.message) not in seen:
            seen.add((note.hunk, note.message))
            by_hunk.setdefault(note.hunk, []).append(
                Signal(SignalKind.API_MISMATCH_CALLEE, note.message, note.commits, WEIGHTS[SignalKind.API_MISMATCH_CALLEE])
            )
    hunks = tuple(
        replace(h, signals=h.signals + tuple(by_hunk[h.index])) if h.index in by_hunk else h for h in entry.hunks
    )
    return replace(entry, hunks=hunks, signals=entry.signals + tuple(file_signals))
