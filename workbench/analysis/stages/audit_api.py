"""The ``audit_api`` pipeline stage: findings, and signals on the hunks that hold them.

A path's audit reads other paths' code.  With a unit memo, each path is
audited by an auditor of its own, noting which of the analysis' files it
read (``_Touching``), so that a finding is reused only while those read the
same (a module that stops defining a name changes its importers' findings).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from workbench.analysis.api.audit import Auditor
from workbench.analysis.api.definition_changes import History
from workbench.analysis.api.findings import CalleeNote, PathFindings
from workbench.analysis.memo import Fingerprint, UnitMemo
from workbench.analysis.model import ApiMismatch, FileAnalysis, Signal, SignalKind, SyncAnalysis
from workbench.analysis.readers import HeldBlobs, RepoFiles, Trees
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit
from workbench.git.types import TreeRole


@dataclass(frozen=True)
class _AuditFindings:
    """What the audit found, its mismatches sorted."""

    mismatches: tuple[ApiMismatch, ...]
    notes: tuple[CalleeNote, ...]


@dataclass(frozen=True)
class Audited:
    """What auditing one path found, and what it read beyond the scope (when a memo keeps it: a finding is
    reused only while these read the same)."""

    found: PathFindings
    read: tuple[tuple[str, Fingerprint], ...] = ()
    """The analysis' own files it read, with their facts' digests."""
    results: tuple[tuple[str, str | None], ...] = ()
    """The other files of the result it read, with their blob ids then (None: absent): a merge in
    progress's work tree is read as the audit goes, and may have changed since the snapshot."""


class _Touching(Trees):
    """``Trees`` noting what an audit reads beyond the scope (``memo.py``): every path of the analysis' own
    files (in any role), and the result's other files by their blob ids."""

    def __init__(self, files: RepoFiles, conflicted: Mapping[str, FileAnalysis], held: HeldBlobs | None) -> None:
        super().__init__(files, conflicted, held)
        self.own = conflicted
        self.touched: set[str] = set()
        self.results: dict[str, str | None] = {}

    def blob_id(self, role: TreeRole, path: str) -> str | None:
        self._note(role, path)
        return super().blob_id(role, path)

    def read(self, role: TreeRole, path: str) -> bytes | None:
        self._note(role, path)
        return super().read(role, path)

    def _note(self, role: TreeRole, path: str) -> None:
        if path in self.own:
            self.touched.add(path)
        elif role == "result" and path not in self.results:
            self.results[path] = self.files.blob_id("result", path)

    def clear(self) -> None:
        self.touched.clear()
        self.results.clear()


@dataclass(frozen=True)
class _Audit:
    """The audit of one analysis: one auditor for every path, or (with a memo) one per path, so that each
    path's reads are its own (an auditor's caches would carry one path's reads into another's findings)."""

    auditor: Auditor
    make: Callable[[], Auditor]
    trees: _Touching
    memo: UnitMemo | None

    def token(self, path: str) -> Fingerprint:
        return self.memo.part(self.trees.own[path]) if self.memo is not None else b""


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> _Audit | None:
    """An auditor of ``analysis`` (None: no whole-tree reader, nothing to audit)."""
    files, policy = context.repo_files, context.policy
    if files is None:
        return None
    trees = _Touching(files, {f.path: f for f in analysis.files}, context.held)
    override = (lambda path: policy.override_rule(path) is not None) if policy is not None else (lambda path: False)
    history = History(files, context.read_blob)

    def make() -> Auditor:
        return Auditor(analysis, trees, history, context.commit, override, context.paths)

    return _Audit(make(), make, trees, context.memo)


def _units(audit: _Audit | None) -> list[Unit[str]]:
    """The paths to audit (none without a whole-tree reader)."""
    return [Unit(path) for path in audit.auditor.candidates()] if audit is not None else []


def _find(audit: _Audit | None, path: str) -> Audited:
    """What auditing ``path`` finds: it reads other paths' code, never their findings."""
    assert audit is not None
    if audit.memo is None:
        return Audited(audit.auditor.found_in(path))
    audit.trees.clear()
    found = audit.make().found_in(path)
    trees = audit.trees
    return Audited(found, tuple((p, audit.token(p)) for p in sorted(trees.touched)), tuple(sorted(trees.results.items())))


def _inputs(audit: _Audit | None, path: str) -> tuple[object, ...] | None:
    """What auditing ``path`` reads besides the scope and the files it records: its own file's facts."""
    assert audit is not None
    return (path, audit.trees.own.get(path))


def _valid(audit: _Audit | None, found: Audited) -> bool:
    """Whether every file ``found`` read holds the same facts, or the same bytes, now."""
    assert audit is not None
    trees = audit.trees
    return (all(p in trees.own and audit.token(p) == token for p, token in found.read)
            and all(p not in trees.own and trees.files.blob_id("result", p) == blob for p, blob in found.results))


def _fold(analysis: SyncAnalysis, parts: Sequence[Audited], audit: _Audit | None) -> SyncAnalysis:
    """Fill ``api_mismatches`` and put a signal on each hunk (or file) that holds one."""
    return analysis if audit is None else _with_audit(analysis, _collected([part.found for part in parts]))


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


STAGE = Stage("audit_api", frozenset(), frozenset({Fact.API_MISMATCHES, Fact.SIGNALS}), _prepare, _units, _find, _fold,
              _inputs, _valid)
"""The API audit, path by path: reads the engine's facts and the context's policy (override-from-main files)."""
