"""The enrichment stages every front end runs after the engine, in order.

Each stage (``analysis/stages/``) fills its own fields: ``policy``,
``api_mismatches``, ``deleted_files``, ``risk``/``level``/``signals``.
Order matters: the API audit reads the policy (override-from-main files are
audited), risk scoring reads all of them, edits are scored like conflicts,
and the wording follows who resolved the sync last.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import SyncAnalysis
from workbench.analysis.stages.apply_policy import apply_policy
from workbench.analysis.stages.audit_api import audit_api
from workbench.analysis.stages.context import AnalysisContext, Stage
from workbench.analysis.stages.find_deleted import find_deleted
from workbench.analysis.stages.reword import reword
from workbench.analysis.stages.score_edits import score_edits
from workbench.analysis.stages.score_risk import score_risk

DEFAULT_STAGES: tuple[Stage, ...] = (apply_policy, audit_api, find_deleted, score_risk, score_edits, reword)
"""The stages every front end runs, in order."""


def run_stages(analysis: SyncAnalysis, context: AnalysisContext, stages: Sequence[Stage]) -> SyncAnalysis:
    for stage in stages:
        analysis = stage(analysis, context)
    return analysis
