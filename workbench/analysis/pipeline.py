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
from dataclasses import dataclass
from functools import cache

from workbench.analysis.api.findings import PathFindings
from workbench.analysis.forked import Claims, Forked, gathered, worth_forking
from workbench.analysis.model import DeletedFile, SyncAnalysis
from workbench.analysis.stages.apply_policy import apply_policy
from workbench.analysis.stages.audit_api import audit_api, collected, new_auditor, with_audit
from workbench.analysis.stages.context import AnalysisContext, Stage
from workbench.analysis.stages.find_deleted import deleted_files, find_deleted, with_deleted
from workbench.analysis.stages.reword import reword
from workbench.analysis.stages.score_edits import edits_view, score_edits, with_edit_scores
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
    shared = _shared_stages(analysis, context)
    report(find_deleted.__name__, 2, total)
    analysis = shared.audited if shared.deleted is None else with_deleted(shared.audited, shared.deleted)
    report(score_risk.__name__, 3, total)
    analysis = fold_risk(analysis, shared.risk)
    report(score_edits.__name__, 4, total)
    analysis = with_edit_scores(analysis, shared.edit_risk)
    for done, stage in enumerate(DEFAULT_STAGES[5:], start=5):
        report(stage.__name__, done, total)
        analysis = stage(analysis, context)
    return analysis


@dataclass(frozen=True)
class _Shared:
    """What the two processes computed: the audited analysis, the deleted files, risk's own findings."""

    audited: SyncAnalysis
    deleted: tuple[DeletedFile, ...] | None
    risk: list[OwnRisk]
    """On every file."""
    edit_risk: list[OwnRisk]
    """On every file of ``edits_view`` (its edits that lost some side's lines)."""


def _shared_stages(policed: SyncAnalysis, context: AnalysisContext) -> _Shared:
    """The stages' large computations on ``policed`` (the analysis after the policy stage), on two cores.

    The audit's paths and the risk findings (on every file, then on the
    edits that lost lines) are shared out with a forked child, first come
    first served: the child starts on the audit, this process on the
    deleted files and risk, and whichever is done first helps with the
    other's.  Whatever the child does not answer, this process computes.
    """
    auditor = new_auditor(policed, context)
    paths = auditor.candidates() if auditor is not None else []
    view = edits_view(policed)
    edit_files = len(view.files) if view is not None else 0
    count = len(policed.files)
    audits, risks = Claims(len(paths)), Claims(count + edit_files)

    def audit(claimed: Iterable[int]) -> dict[int, PathFindings]:
        return {k: auditor.found_in(paths[k]) for k in claimed} if auditor is not None else {}

    def child_work() -> tuple[dict[int, PathFindings], dict[int, OwnRisk]]:
        found = audit(audits.take())
        helper = _Scorers(policed, view, context, lambda: deleted_files(policed, context))
        return found, {k: helper.finding(k) for k in risks.take()}

    try:
        child = Forked(child_work)
        try:
            deleted = deleted_files(policed, context)
            mine_scorer = _Scorers(policed, view, context, lambda: deleted)
            mine = {k: mine_scorer.finding(k) for k in risks.take()}
            my_audit = audit(audits.take())
        except BaseException:
            child.cancel()
            raise
        answer = child.result()
    finally:
        audits.close()
        risks.close()
    their_audit, theirs = answer if answer is not None else ({}, {})
    risk = gathered(count + edit_files, mine, theirs, mine_scorer.finding)
    audited = policed
    if auditor is not None:
        parts = gathered(len(paths), my_audit, their_audit, lambda k: auditor.found_in(paths[k]))
        audited = with_audit(policed, collected(parts))
    return _Shared(audited, deleted, risk[:count], risk[count:])


class _Scorers:
    """Risk's own findings on the analysis's files (indexes ``0..n-1``), then on its edits view's (``n..``).

    Each scorer is built when first needed: it needs the deleted files,
    which cost git runs in a process that has not found them yet.
    """

    def __init__(self, policed: SyncAnalysis, view: SyncAnalysis | None, context: AnalysisContext,
                 deleted: Callable[[], tuple[DeletedFile, ...] | None]) -> None:
        self._policed, self._view, self._context = policed, view, context
        self._deleted = cache(deleted)
        self._scorers: dict[bool, RiskScorer] = {}

    def finding(self, k: int) -> OwnRisk:
        count = len(self._policed.files)
        return self._scorer(k >= count).file(k if k < count else k - count)

    def _scorer(self, edits: bool) -> RiskScorer:
        if edits not in self._scorers:
            analysis = self._view if edits else self._policed
            assert analysis is not None
            deleted = self._deleted()
            self._scorers[edits] = RiskScorer(
                analysis if deleted is None else with_deleted(analysis, deleted), self._context
            )
        return self._scorers[edits]
