"""A scripted agent (no model) finishes each built sample sync through queue, show, decide and gate.

It decides every item with the ready ``decide`` line ``show`` gives (the claim that checks out, a
judgement where none does), commits each round, and fixes API failures as an agent edits code (the
sample's ground truth stands in for its editor).  The gate blocked before; it passes after, with nothing
blocking, every decision in the record, and judgements listed for a person.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers.agent import Agent, git, truth_fix, workbench

from workbench.resolve.acks import worktree_acks
from workbench.sample import RECIPES, SampleSync, build_scenario


def _finish(sample: SampleSync) -> tuple[Agent, dict[str, object]]:
    before = workbench("gate", "--json", "--repo", str(sample.path))
    assert before.code == 1 and before.json()["blocking"], "the gate should block the bot's merge"
    agent = Agent(sample.path, fix=truth_fix(sample))
    return agent, agent.finish(commit=True)


def _assert_finished(agent: Agent, verdict: dict[str, object]) -> None:
    assert verdict["verdict"] == "pass", verdict["blocking"]
    assert verdict["blocking"] == []
    assert agent.decided, "the agent decided nothing"
    assert all(answer["claim"]["status"] != "contradicted" for answer in agent.decided)
    record = worktree_acks(agent.repo)
    assert record and all(a.by == "agent" and a.claim for a in record)
    assert workbench("queue", "--json", "--repo", str(agent.repo)).json()["items"] == []


def test_the_agent_finishes_the_bots_merge_commit(sample_merge_commit: SampleSync) -> None:
    agent, verdict = _finish(sample_merge_commit)
    _assert_finished(agent, verdict)
    listed = {f["rule"] for f in verdict["for_human"]}  # type: ignore[attr-defined]
    assert "judgement" in listed  # what no evidence supports stays for a person


def test_the_agent_finishes_the_merge_in_progress(sample_in_progress: SampleSync) -> None:
    agent, verdict = _finish(sample_in_progress)
    _assert_finished(agent, verdict)
    assert not (agent.repo / ".git" / "MERGE_HEAD").exists()  # it committed the merge once nothing was open


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RECIPES))
def test_the_agent_finishes_each_scenario_merged_without_theirs(name: str, tmp_path: Path) -> None:
    scenario = build_scenario(name, tmp_path / "repo")
    merged = subprocess.run(["git", "merge", "--no-edit", "main"], cwd=scenario.path, capture_output=True, text=True)
    sample = SampleSync(scenario.name, scenario.path, scenario.dev, scenario.main, scenario.base, scenario.files)
    if merged.returncode == 0:  # git merged it cleanly: the agent reviews the merge commit
        git(scenario.path, "log", "-1")
    agent = Agent(sample.path, fix=truth_fix(sample))
    verdict = agent.finish(commit=True)
    assert verdict["verdict"] == "pass", verdict["blocking"]
