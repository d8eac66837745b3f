"""Pytest's view of ``agent_speed.py`` on a merge in progress of Megatron-LM #4291: skipped without
MEGATRON_GIT, slow with it.  It prints the decide median and the warm queue and show as ratios against
``git merge-tree`` measured in the same run (``pytest -s`` shows them); the figures are for people, the
machine being shared, so it checks only that each was measured."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from agent_speed import CHILD_ENV, in_progress, situation

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEGATRON_GIT"), reason="MEGATRON_GIT is not set (a Megatron-LM clone)")]


def test_the_agents_commands_on_a_merge_in_progress_of_4291() -> None:
    with tempfile.TemporaryDirectory(prefix="workbench-agent-bench-") as scratch:
        env = {**CHILD_ENV, "XDG_CACHE_HOME": str(Path(scratch, "cache"))}
        repo = in_progress(os.environ["MEGATRON_GIT"], Path(scratch), env)
        found = situation(repo, env, "#4291 merged without -X theirs, in progress", runs=3, decisions=4)
    print("\n" + "\n".join(found.lines()) + f"\nload: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    assert found.merge_tree and found.queue and found.show and len(found.decide) == len(found.after) == 4
