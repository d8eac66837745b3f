"""What every stage is handed besides the analysis: a leaf, so stages and the pipeline never import each other.

A stage is a pure function ``(SyncAnalysis, AnalysisContext) -> SyncAnalysis``
that fills its own fields; the context holds the snapshot, the repository
readers and the caller's choices, each as a typed field (a stage whose input
is absent, such as the policy, leaves the analysis as it is).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from workbench.analysis.blame import LineChanges, LineMapper
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.policy.rules import Policy
from workbench.analysis.readers import HeldBlobs, RepoFiles
from workbench.git.types import CommitLookup, ReadBlob, SyncSnapshot


@dataclass(frozen=True)
class AnalysisContext:
    """What stages may read besides the analysis: the snapshot, the readers, the policy."""

    snapshot: SyncSnapshot
    read_blob: ReadBlob
    commit: CommitLookup
    line_changes: LineChanges
    mapper: LineMapper
    policy: Policy | None = None
    """The sync policy (None: the repository has none; the policy stage does nothing)."""
    repo_files: RepoFiles | None = None
    """Whole-tree reads by role (None: only the conflicted files are known; the
    stages that look beyond them, the API audit and deleted files, do nothing)."""
    paths: frozenset[str] | None = None
    """The caller asked about these paths only (None: the whole sync).  Stages
    that look beyond the conflicted files (changed files, deleted files) keep
    to them, so one file's analysis costs one file's work."""
    held: HeldBlobs | None = None
    """The conflicted files' versions the analysis holds (``read_blob`` answers from them too), for ``Trees``."""


Stage = Callable[[SyncAnalysis, AnalysisContext], SyncAnalysis]
