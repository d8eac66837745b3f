"""Pytest's view of ``unit_memo.py``: skipped without MEGATRON_GIT, slow with it.  It prints each figure as a
ratio against ``git merge-tree`` measured in the same run (``pytest -s`` shows them); the machine being shared,
it checks only that each was measured."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from agent_speed import CHILD_ENV
from unit_memo import decisions

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEGATRON_GIT"), reason="MEGATRON_GIT is not set (a Megatron-LM clone)")]


def test_a_decisions_reanalysis() -> None:
    with tempfile.TemporaryDirectory(prefix="workbench-memo-bench-") as scratch:
        cache = Path(scratch, "cache")
        env = {**CHILD_ENV, "XDG_CACHE_HOME": str(cache)}
        decided = decisions(os.environ["MEGATRON_GIT"], Path(scratch, "merging"), env, count=3)
    print("\n" + "\n".join(decided.lines()))
    assert decided.merge_tree and len(decided.timed) == 3
