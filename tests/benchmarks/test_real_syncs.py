"""Pytest's view of ``real_syncs.py``: skipped without MEGATRON_GIT, a smoke run with it.

The figures themselves are for people (run the script); this only checks
that the ground truth and the scores can be computed on the development
syncs, so a change that breaks the benchmark is noticed.
"""

from __future__ import annotations

import os

import pytest
from ground_truth import DEVELOPMENT, SyncCase
from real_syncs import ENV, evaluate

from workbench.analysis.model import Level

pytestmark = pytest.mark.skipif(not os.environ.get(ENV), reason=f"{ENV} is not set (a Megatron-LM clone)")


@pytest.mark.parametrize("case", DEVELOPMENT, ids=lambda case: case.name)
def test_development_sync_is_scored_against_what_was_restored(case: SyncCase) -> None:
    report = evaluate(os.environ[ENV], case)
    named = report.truths["named fixes"]
    inside = [f for f in named if f.hunks]
    assert inside, "the named fixes restored nothing inside a -X theirs hunk"
    assert all(f.rank is not None for f in inside)
    assert any(f.level is Level.HIGH for f in inside)
    assert 0 < report.high <= report.hunks
    assert all(entry.signals for entry, _ in report.whole_files), "a file without hunks has no evidence"
