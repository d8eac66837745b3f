"""The enrichment stages every front end runs after the engine, in order.

Each stage (``analysis/stages/``) fills its own fields: ``policy``,
``api_mismatches``, ``deleted_files``, ``risk``/``level``/``signals``.
Order matters: the API audit reads the policy (override-from-main files are
audited), risk scoring reads all of them, edits are scored like conflicts,
and the wording follows who resolved the sync last.

``run_default_stages`` shares the API audit (path by path) and risk's own
evidence (file by file) with a forked child (``forked.py``): the child
starts on the audit, this process on risk, and each then takes what the
other has not claimed.  The two read none of each other's output (risk
only adds the audit's signal weights, folded in after), and together they
are most of a cold analysis.  The answer is the same as running the
stages in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from workbench.analysis.api.findings import PathFindings
from workbench.analysis.forked import Claims, Forked, worth_forking
from workbench.analysis.model import DeletedFile, SyncAnalysis
from workbench.analysis.stages.apply_policy import apply_policy
from workbench.analysis.stages.audit_api import audit_api, collected, new_auditor, with_audit
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


def run_default_stages(analysis: SyncAnalysis, context: AnalysisContext, report: StageProgress) -> SyncAnalysis:
    """``DEFAULT_STAGES`` in order, the audit beside deleted files and risk when a second process pays."""
    total = len(DEFAULT_STAGES)
    if context.repo_files is None or not worth_forking(len(analysis.files)):
        for done, stage in enumerate(DEFAULT_STAGES):
            report(stage.__name__, done, total)
            analysis = stage(analysis, context)
        return analysis
    report(apply_policy.__name__, 0, total)
    analysis = apply_policy(analysis, context)
    report(audit_api.__name__, 1, total)
    audited, deleted, own = _audit_beside_risk(analysis, context)
    report(find_deleted.__name__, 2, total)
    analysis = audited if deleted is None else with_deleted(audited, deleted)
    report(score_risk.__name__, 3, total)
    analysis = fold_risk(analysis, own)
    for done, stage in enumerate(DEFAULT_STAGES[4:], start=4):
        report(stage.__name__, done, total)
        analysis = stage(analysis, context)
    return analysis


def _audit_beside_risk(
    policed: SyncAnalysis, context: AnalysisContext
) -> tuple[SyncAnalysis, tuple[DeletedFile, ...] | None, list[OwnRisk]]:
    """The audited analysis, the deleted files, and risk's own findings on every file.

    The audit's paths and risk's files are shared out with a forked child,
    first come first served: the child starts on the audit, this process on
    the deleted files and risk, and whichever is done first helps with the
    other's.  Whatever the child does not answer, this process computes.
    """
    auditor = new_auditor(policed, context)
    paths = auditor.candidates() if auditor is not None else []
    audits, risks = Claims(len(paths)), Claims(len(policed.files))

    def scorer(deleted: tuple[DeletedFile, ...] | None) -> RiskScorer:
        return RiskScorer(policed if deleted is None else with_deleted(policed, deleted), context)

    def audit(claimed: Iterable[int]) -> dict[int, PathFindings]:
        return {k: auditor.found_in(paths[k]) for k in claimed} if auditor is not None else {}

    def child_work() -> tuple[dict[int, PathFindings], dict[int, OwnRisk]]:
        found = audit(audits.take())
        helper: RiskScorer | None = None  # built only when files are left (its deleted files cost git runs)
        share: dict[int, OwnRisk] = {}
        for k in risks.take():
            helper = helper or scorer(deleted_files(policed, context))
            share[k] = helper.file(k)
        return found, share

    try:
        child = Forked(child_work)
        try:
            deleted = deleted_files(policed, context)
            mine_scorer = scorer(deleted)
            mine = {k: mine_scorer.file(k) for k in risks.take()}
            my_audit = audit(audits.take())
        except BaseException:
            child.cancel()
            raise
        answer = child.result()
    finally:
        audits.close()
        risks.close()
    their_audit, theirs = answer if answer is not None else ({}, {})
    own = [mine[k] if k in mine else theirs[k] if k in theirs else mine_scorer.file(k) for k in range(len(policed.files))]
    if auditor is None:
        return policed, deleted, own
    parts = [
        my_audit[k] if k in my_audit else their_audit[k] if k in their_audit else auditor.found_in(path)
        for k, path in enumerate(paths)
    ]
    return with_audit(policed, collected(parts)), deleted, own
