"""Enrichment stages run after the engine: policy, API audit, risk.

Each stage is a pure function ``(SyncAnalysis, AnalysisContext) -> SyncAnalysis``
that fills its own fields (``policy``, ``api_mismatches``, ``risk``/``level``/
``signals``).  Order matters: the API audit reads policy (override-from-main
files are audited), and risk scoring reads both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.analysis.blame import LineChanges, LineMapper
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.risk import score_risk
from workbench.git.types import CommitLookup, ReadBlob, SyncSnapshot


@dataclass(frozen=True)
class AnalysisContext:
    """What stages may read besides the analysis: the snapshot and the readers."""

    snapshot: SyncSnapshot
    read_blob: ReadBlob
    commit: CommitLookup
    line_changes: LineChanges
    mapper: LineMapper
    options: dict[str, Any] = field(default_factory=dict)
    """Stage options from the caller (e.g. ``{"policy": Policy(...)}``)."""
    paths: frozenset[str] | None = None
    """The caller asked about these paths only (None: the whole sync).  Stages
    that look beyond the conflicted files (changed files, deleted files) keep
    to them, so one file's analysis costs one file's work."""


Stage = Callable[[SyncAnalysis, AnalysisContext], SyncAnalysis]


def run_stages(analysis: SyncAnalysis, context: AnalysisContext, stages: Sequence[Stage]) -> SyncAnalysis:
    for stage in stages:
        analysis = stage(analysis, context)
    return analysis


def default_stages() -> tuple[Stage, ...]:
    """The stages every front end runs, in order."""
    from workbench.analysis.api import audit_api
    from workbench.analysis.deleted import find_deleted
    from workbench.analysis.edit_risk import score_edits
    from workbench.analysis.policy_stage import apply_policy
    from workbench.analysis.resolver import reword

    return (apply_policy, audit_api, find_deleted, score_risk, score_edits, reword)
