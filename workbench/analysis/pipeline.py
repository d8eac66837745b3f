"""The enrichment stages every front end runs after the engine, in order.

Each stage (``analysis/stages/``) fills its own fields: ``policy``,
``api_mismatches``, ``deleted_files``, ``risk``/``level``/``signals``.
Order matters: the API audit reads the policy (override-from-main files are
audited), risk scoring reads all of them, edits are scored like conflicts,
and the wording follows who resolved the sync last.

``run_default_stages`` runs them with the API audit in a forked child
(``forked.py``) while this process finds the deleted files and risk's own
evidence: the two read none of each other's output (risk only adds the
audit's signal weights, folded in after), and together they are most of a
cold analysis.  The answer is the same as running the stages in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workbench.analysis.forked import Forked, can_fork
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.stages.apply_policy import apply_policy
from workbench.analysis.stages.audit_api import AuditFindings, audit_api, audit_findings, with_audit
from workbench.analysis.stages.context import AnalysisContext, Stage
from workbench.analysis.stages.find_deleted import deleted_files, find_deleted, with_deleted
from workbench.analysis.stages.reword import reword
from workbench.analysis.stages.score_edits import score_edits
from workbench.analysis.stages.score_risk import fold_risk, risk_findings, score_risk

DEFAULT_STAGES: tuple[Stage, ...] = (apply_policy, audit_api, find_deleted, score_risk, score_edits, reword)
"""The stages every front end runs, in order."""


def run_stages(analysis: SyncAnalysis, context: AnalysisContext, stages: Sequence[Stage]) -> SyncAnalysis:
    for stage in stages:
        analysis = stage(analysis, context)
    return analysis


StageProgress = Callable[[str, int, int], None]
"""Hears (stage name, stages done, stages in all) before each stage."""
FORK_MIN_FILES = 16
"""Conflicted files from which the audit runs in a child (below, the fork costs more than it saves)."""


def run_default_stages(analysis: SyncAnalysis, context: AnalysisContext, report: StageProgress) -> SyncAnalysis:
    """``DEFAULT_STAGES`` in order, the audit beside deleted files and risk when a second process pays."""
    total = len(DEFAULT_STAGES)
    if context.repo_files is None or len(analysis.files) < FORK_MIN_FILES or not can_fork():
        for done, stage in enumerate(DEFAULT_STAGES):
            report(stage.__name__, done, total)
            analysis = stage(analysis, context)
        return analysis
    report(apply_policy.__name__, 0, total)
    analysis = apply_policy(analysis, context)
    report(audit_api.__name__, 1, total)
    policed = analysis
    child: Forked[AuditFindings | None] = Forked(lambda: audit_findings(policed, context))
    try:
        deleted = deleted_files(analysis, context)
        unaudited = analysis if deleted is None else with_deleted(analysis, deleted)
        own = risk_findings(unaudited, context)
    except BaseException:
        child.cancel()
        raise
    found = child.result() or audit_findings(analysis, context)
    analysis = analysis if found is None else with_audit(analysis, found)
    report(find_deleted.__name__, 2, total)
    analysis = analysis if deleted is None else with_deleted(analysis, deleted)
    report(score_risk.__name__, 3, total)
    analysis = fold_risk(analysis, own)
    for done, stage in enumerate(DEFAULT_STAGES[4:], start=4):
        report(stage.__name__, done, total)
        analysis = stage(analysis, context)
    return analysis
