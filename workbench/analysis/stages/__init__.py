"""The enrichment stages run after the engine: one module per stage, each exporting one ``STAGE``.

A stage (``analysis/seam.py``) says what it reads and writes and cuts its
work into units the scheduler (``pipeline.py``) may share out; the modules
never import each other (``score_edits`` runs ``score_risk``'s scorer on a
view of the edits).  A new stage is a module and an entry below.
import-linter keeps it that way (``pyproject.toml``).
"""

from __future__ import annotations

from workbench.analysis.seam import AnyStage
from workbench.analysis.stages import (
    apply_policy,
    audit_api,
    build_worklist,
    find_deleted,
    find_duplicates,
    score_edits,
    score_files,
    score_risk,
    suggest_resolutions,
)

DEFAULT_STAGES: tuple[AnyStage, ...] = (
    apply_policy.STAGE,
    audit_api.STAGE,
    find_deleted.STAGE,
    find_duplicates.STAGE,
    score_files.STAGE,
    score_risk.STAGE,
    score_edits.STAGE,
    suggest_resolutions.STAGE,
    build_worklist.STAGE,
)
"""The stages every front end runs, in order: the answer is the one running them in this order gives."""
