"""The report's "what was decided" marks each decision as the app does, once the record names the agent.

The scripted agent decides the sample's merge in progress; the report then counts its decisions as
agent-verified and agent-unverified (each claim checked again), lists each once, and an edited record that
claims more than the file shows turns agent-contradicted, not green.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from helpers.agent import Agent, workbench

from workbench.resolve.marks import Mark
from workbench.sample import SampleSync
from workbench.services.agent.provenance import decision_marks
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace


def _marks(path: Path) -> Counter[str]:
    repo, analysis = open_sync(SyncRequest(repo=path))
    return Counter(m.mark.value for m in decision_marks(repo, Workspace.load(repo, analysis)).values())


def _report_counts(path: Path) -> tuple[str, Counter[str]]:
    ran = workbench("report", "--format", "json", "--repo", str(path))
    assert ran.code in (0, 1), ran.stderr
    listed = Counter(d["mark"] for d in json.loads(ran.stdout)["decisions"])
    md = workbench("report", "--format", "md", "--repo", str(path)).stdout
    found = re.search(r"^(\d+) decisions: (.*)$", md, re.MULTILINE)
    assert found is not None, md
    return found.group(0), listed


def test_the_report_counts_the_agents_decisions_as_the_app_marks_them(sample_in_progress: SampleSync) -> None:
    agent = Agent(sample_in_progress.path, batch=True)
    agent.finish(commit=False)
    sentence, listed = _report_counts(sample_in_progress.path)
    marks = _marks(sample_in_progress.path)
    assert listed == marks  # each decision once, marked as the app marks it
    verified = sum(1 for a in agent.decided for m in a["members"] if a["claim"]["status"] == "verified")
    assert marks[Mark.AGENT_VERIFIED.value] == verified
    assert marks[Mark.AGENT_UNVERIFIED.value] and not marks[Mark.HUMAN.value]
    assert sentence.startswith(f"{sum(marks.values())} decisions: {marks['agent-verified']} agent-verified, "
                               f"{marks['agent-unverified']} agent-unverified")


def test_an_edited_claim_is_counted_contradicted(sample_in_progress: SampleSync) -> None:
    Agent(sample_in_progress.path, batch=True).finish(commit=False)
    record = Path(sample_in_progress.path, ".workbench", "acks.toml")
    text = record.read_text()
    judged = text.count('claim = "judgement"')
    assert judged
    record.write_text(text.replace('claim = "judgement"', 'claim = "restored"'))  # "nothing is lost": untrue
    marks = _marks(sample_in_progress.path)
    assert marks[Mark.AGENT_CONTRADICTED.value] >= 1
    _sentence, listed = _report_counts(sample_in_progress.path)
    assert listed == marks
