"""The one place the agent's commands get a sync's worklist from."""

from __future__ import annotations

from workbench.analysis import worklist
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.worklist import Worklist


def worklist_of(analysis: SyncAnalysis) -> Worklist:
    """The analysis' worklist (the stage's, whole-file items included), or one grouped from it alone."""
    return worklist.worklist_of(analysis)


def sync_commits_of(analysis: SyncAnalysis) -> frozenset[str]:
    """Commits of the sync itself the analysis recognised (never a side's intent); none until it says."""
    found = getattr(analysis, "sync_commits", None)
    return frozenset(found) if isinstance(found, (frozenset, set, tuple, list)) else frozenset()
