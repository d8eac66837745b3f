"""The enrichment stages every front end runs after the engine, in order.

Each stage (``analysis/stages/``) fills its own fields: ``policy``,
``api_mismatches``, ``deleted_files``, ``risk``/``level``/``signals``.
Order matters: the API audit reads the policy (override-from-main files are
audited), risk scoring reads all of them, edits are scored like conflicts,
and the wording follows who resolved the sync last.

``run_default_stages`` runs them with the API audit in a forked child
(``forked.py``) while this process computes risk's own evidence file by
file; the child takes the files left when it is done.  The two read none
of each other's output (risk only adds the audit's signal weights, folded
in after), and together they are most of a cold analysis.  The answer is
the same as running the stages in order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workbench.analysis.forked import Claims, Forked, can_fork
from workbench.analysis.model import DeletedFile, SyncAnalysis
from workbench.analysis.stages.apply_policy import apply_policy
from workbench.analysis.stages.audit_api import AuditFindings, audit_api, audit_findings, with_audit
from workbench.analysis.stages.context import AnalysisContext, Stage
from workbench.analysis.stages.find_deleted import deleted_files, find_deleted, with_deleted
from workbench.analysis.stages.reword import reword
from workbench.analysis.stages.score_edits import score_edits
from workbench.analysis.stages.score_risk import OwnRisk, RiskScorer, fold_risk, score_risk

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
    claims = Claims(len(analysis.files))
    try:
        audited, deleted, own = _audit_beside_risk(analysis, context, claims)
    finally:
        claims.close()
    report(find_deleted.__name__, 2, total)
    analysis = audited if deleted is None else with_deleted(audited, deleted)
    report(score_risk.__name__, 3, total)
    analysis = fold_risk(analysis, own)
    for done, stage in enumerate(DEFAULT_STAGES[4:], start=4):
        report(stage.__name__, done, total)
        analysis = stage(analysis, context)
    return analysis


def _audit_beside_risk(
    policed: SyncAnalysis, context: AnalysisContext, claims: Claims
) -> tuple[SyncAnalysis, tuple[DeletedFile, ...] | None, list[OwnRisk]]:
    """The audited analysis, the deleted files, and risk's own findings on every file.

    A forked child audits, then helps with the risk findings this process
    has not claimed yet; whatever the child does not answer, this process computes.
    """

    def scorer(deleted: tuple[DeletedFile, ...] | None) -> RiskScorer:
        return RiskScorer(policed if deleted is None else with_deleted(policed, deleted), context)

    def child_work() -> tuple[AuditFindings | None, dict[int, OwnRisk]]:
        found = audit_findings(policed, context)
        helper: RiskScorer | None = None  # built only when files are left (its deleted files cost git runs)
        share: dict[int, OwnRisk] = {}
        for k in claims.take():
            helper = helper or scorer(deleted_files(policed, context))
            share[k] = helper.file(k)
        return found, share

    child = Forked(child_work)
    try:
        deleted = deleted_files(policed, context)
        mine_scorer = scorer(deleted)
        mine = {k: mine_scorer.file(k) for k in claims.take()}
    except BaseException:
        child.cancel()
        raise
    answer = child.result()
    found, theirs = answer if answer is not None else (audit_findings(policed, context), {})
    own = [mine[k] if k in mine else theirs[k] if k in theirs else mine_scorer.file(k) for k in range(len(policed.files))]
    return (policed if found is None else with_audit(policed, found)), deleted, own
