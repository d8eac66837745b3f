"""The ``audit_api`` pipeline stage: findings, and signals on the hunks that hold them."""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.api.audit import Auditor
from workbench.analysis.api.definition_changes import History
from workbench.analysis.api.findings import CalleeNote
from workbench.analysis.model import ApiMismatch, FileAnalysis, Signal, SyncAnalysis
from workbench.analysis.readers import Trees
from workbench.analysis.stages.context import AnalysisContext

API_MISMATCH = "api-mismatch"
API_MISMATCH_CALLEE = "api-mismatch-callee"
WEIGHTS = {API_MISMATCH: 50, API_MISMATCH_CALLEE: 45}
"""On the 0..100 risk scale (high from 60): a main-taken hunk (baseline 15) holding
a mismatch becomes high; see docs/api-audit.md."""


def audit_api(analysis: SyncAnalysis, context: AnalysisContext) -> SyncAnalysis:
    """Fill ``api_mismatches`` and put a signal on each hunk (or file) that holds one."""
    files, policy = context.repo_files, context.policy
    if files is None:
        return analysis
    trees = Trees(files, {f.path: f for f in analysis.files})
    override = (lambda path: policy.override_rule(path) is not None) if policy is not None else (lambda path: False)
    auditor = Auditor(analysis, trees, History(files, context.read_blob), context.commit, override, context.paths)
    auditor.run()
    findings = tuple(sorted(auditor.findings.mismatches, key=lambda f: (f.path, f.line, f.kind, f.symbol)))
    entries = tuple(_with_signals(entry, findings, auditor.findings.notes) for entry in analysis.files)
    return replace(analysis, files=entries, api_mismatches=findings)


def _with_signals(entry: FileAnalysis, findings: tuple[ApiMismatch, ...], notes: list[CalleeNote]) -> FileAnalysis:
    mine = [f for f in findings if f.path == entry.path]
    callee = [n for n in notes if n.path == entry.path]
    if not mine and not callee:
        return entry
    by_hunk: dict[int, list[Signal]] = {}
    file_signals: list[Signal] = []
    for finding in mine:
        signal = Signal(API_MISMATCH, f"line {finding.line}: {finding.message}", finding.commits, WEIGHTS[API_MISMATCH])
        if finding.hunk is None:
            file_signals.append(signal)
        else:
            by_hunk.setdefault(finding.hunk, []).append(signal)
    seen: set[tuple[int, str]] = set()
    for note in callee:
        if (note.hunk, note.message) not in seen:
            seen.add((note.hunk, note.message))
            by_hunk.setdefault(note.hunk, []).append(
                Signal(API_MISMATCH_CALLEE, note.message, note.commits, WEIGHTS[API_MISMATCH_CALLEE])
            )
    hunks = tuple(
        replace(h, signals=h.signals + tuple(by_hunk[h.index])) if h.index in by_hunk else h for h in entry.hunks
    )
    return replace(entry, hunks=hunks, signals=entry.signals + tuple(file_signals))
