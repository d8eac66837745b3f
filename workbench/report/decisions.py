"""The decisions the app saved for this sync, as the report lists them."""

from __future__ import annotations

from pathlib import Path

from workbench.analysis.model import SyncAnalysis
from workbench.report.model import RecordedDecision


def load_decisions(gitdir: Path, analysis: SyncAnalysis) -> tuple[tuple[RecordedDecision, ...] | None, str]:
    """(decisions, note); decisions is None, with a note saying why, when none can be read."""
    return None, "the app's decision journal is not available yet"
