"""The one place the agent's commands get a sync's worklist from."""

from __future__ import annotations

from workbench.analysis.model import SyncAnalysis
from workbench.analysis.worklist import Worklist, WorklistFacts, build_worklist


def worklist_of(analysis: SyncAnalysis) -> Worklist:
    """The analysis' worklist: the stage's when the analysis carries one, else grouped here without extra facts."""
    wired = getattr(analysis, "worklist", None)
    if isinstance(wired, Worklist):
        return wired
    return build_worklist(analysis, WorklistFacts())


def sync_commits_of(analysis: SyncAnalysis) -> frozenset[str]:
    """Commits of the sync itself the analysis recognised (never a side's intent); none until it says."""
    found = getattr(analysis, "sync_commits", None)
    return frozenset(found) if isinstance(found, (frozenset, set, tuple, list)) else frozenset()
