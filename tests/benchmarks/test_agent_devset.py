"""Pytest's run of ``agent_devset.py``: the scripted agent finishes each development-set sync.

Slow (minutes per sync) and skipped without MEGATRON_GIT.  Each sync starts as a merge in progress in a
private shared clone; the agent decides every item through ``decide --batch`` and the gate must end with
nothing blocking; the scorecard (decisions by claim, the share equal to what shipped, time) is printed
(``-s`` shows it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from agent_devset import run_sync, syncs

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("MEGATRON_GIT"), reason="MEGATRON_GIT is not set (a Megatron-LM clone)")]


def _devset() -> list[dict[str, Any]]:
    try:
        return syncs()
    except OSError:
        return []


@pytest.mark.parametrize("sync", _devset(), ids=lambda s: f"pr{s['pr']}")
def test_the_scripted_agent_finishes_the_development_sync(sync: dict[str, Any], tmp_path: Path) -> None:
    card = run_sync(os.environ["MEGATRON_GIT"], sync, tmp_path)
    print("\n".join(card.lines()))
    assert card.agent.decided, "the agent decided nothing"
    assert all(a["claim"]["status"] != "contradicted" for a in card.agent.decided)
    assert card.after["blocking"] == [], card.after["blocking"]
