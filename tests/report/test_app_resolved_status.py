"""A file a person decided in the app says so in its status, not "theirs-resolved" (the strategy's word)."""

from __future__ import annotations

import json

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import FileStatus
from workbench.cli import main
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest


def test_a_file_resolved_to_main_in_the_app_is_app_resolved(sample_in_progress: SampleSync,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.services.workspace import Workspace

    _, analysis = open_analysis(sample_in_progress.path)
    entry = next(f for f in analysis.files if f.status is FileStatus.THEIRS_RESOLVED and f.hunks)
    ws = Workspace.open(SyncRequest(repo=sample_in_progress.path))
    for hunk in entry.hunks:
        ws.decide(entry.path, hunk.index, Decision(Choice.MAIN))
    outcome = ws.write(entry.path)
    assert outcome.written and outcome.staged, outcome.message
    assert main(["analyze", "--json", "--repo", str(sample_in_progress.path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    [written] = [f for f in doc["files"] if f["path"] == entry.path]
    assert (written["status"], written["decided_by"]) == ("app-resolved", "app")
    assert doc["summary"]["statuses"].get("app-resolved") == 1
    assert main(["report", "--repo", str(sample_in_progress.path), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    taken = [t for t in report["main_taken"] if t["path"] == entry.path]
    assert taken == [] or taken[0]["status"] == "app-resolved" and taken[0]["reason"] == "decided in the app"
