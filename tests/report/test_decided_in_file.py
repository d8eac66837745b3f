"""A recorded decision closes the gate only when the file holds it (issue 37).

An acknowledgement or a decision saved in the app says what the hunk
should hold; until the result holds it, the hunk stays open and every
report says "decided, not in the file" instead of "restored dev".
"""

from __future__ import annotations

import json

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import ACKS_PATH, Level, Taken
from workbench.cli import main
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest

NOT_IN_FILE = "decided, not in the file"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_ack_of_dev_on_main_text_keeps_the_gate_open(sample_merge_commit: SampleSync,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    repo, merge = str(sample_merge_commit.path), sample_merge_commit.merge
    assert merge is not None
    code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--fail-on", "high", "--format", "json")
    target = json.loads(out)["gate"]["open"][0]
    assert code == 1 and target["taken"] == "main"
    code, out, err = _cli(capsys, "ack", merge, "--repo", repo, "--file", target["path"], "--hunk",
                          str(target["index"] + 1), "--decision", "dev", "--reason", "dev's text is right")
    assert code == 0 and "acknowledged" in out
    assert err.count("\n") == 1 and "main's text" in err and "until" in err
    b = RepoBuilder.open(sample_merge_commit.path)
    b.git("add", ACKS_PATH)
    b.git("commit", "-q", "-m", "acknowledge")
    code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--result", "HEAD", "--fail-on", "high",
                        "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert (target["path"], target["index"]) in {(o["path"], o["index"]) for o in doc["gate"]["open"]}
    [acked] = [d for d in doc["decisions"] if (d["path"], d["index"]) == (target["path"], target["index"])]
    assert acked["decided_by"] == "ack" and acked["choice"] == "dev" and acked["in_file"] is False
    for fmt in ("md", "text", "github"):
        code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--result", "HEAD", "--fail-on", "high",
                            "--format", fmt)
        said = NOT_IN_FILE if fmt != "github" else "1 decision the file does not hold yet"  # github: per item
        assert code == 1 and said in out, fmt


def test_an_ack_of_what_the_file_holds_closes_it(sample_merge_commit: SampleSync,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    repo, merge = str(sample_merge_commit.path), sample_merge_commit.merge
    assert merge is not None
    _, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--fail-on", "high", "--format", "json")
    target = json.loads(out)["gate"]["open"][0]
    code, _, err = _cli(capsys, "ack", merge, "--repo", repo, "--file", target["path"], "--hunk",
                        str(target["index"] + 1), "--decision", "main", "--reason", "main is right")
    assert (code, err) == (0, "")
    b = RepoBuilder.open(sample_merge_commit.path)
    b.git("add", ACKS_PATH)
    b.git("commit", "-q", "-m", "acknowledge")
    _, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--result", "HEAD", "--fail-on", "high",
                     "--format", "json")
    doc = json.loads(out)
    assert (target["path"], target["index"]) not in {(o["path"], o["index"]) for o in doc["gate"]["open"]}
    assert all(d["in_file"] for d in doc["decisions"] if d["decided_by"] == "ack")


def test_a_decision_saved_but_not_written_is_not_done(sample_in_progress: SampleSync,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The app's ``d`` saved in the journal, never written: the file holds main, and the report says so."""
    from workbench.services.workspace import Workspace

    _, analysis = open_analysis(sample_in_progress.path)
    entry = next(f for f in analysis.files if any(h.taken is Taken.MAIN and h.dev_text != h.main_text
                                                   for h in f.hunks))
    hunk = next(h for h in entry.hunks if h.taken is Taken.MAIN)
    ws = Workspace.open(SyncRequest(repo=sample_in_progress.path))
    ws.decide(entry.path, hunk.index, Decision(Choice.DEV))
    assert ws.ack_blocker(entry.path, hunk.index) is None
    ws.acknowledge(entry.path, hunk.index, "dev's text, to be written")  # K after d, before w
    repo = str(sample_in_progress.path)
    code, out, _ = _cli(capsys, "report", "--repo", repo, "--fail-on", "low", "--format", "json")
    doc = json.loads(out)
    assert code == 1
    assert (entry.path, hunk.index) in {(o["path"], o["index"]) for o in doc["gate"]["open"]}
    mine = [d for d in doc["decisions"] if (d["path"], d["index"]) == (entry.path, hunk.index)]
    assert mine and all(d["in_file"] is False and d["choice"] == "dev" for d in mine)
    code, out, _ = _cli(capsys, "report", "--repo", repo, "--fail-on", "low", "--format", "text")
    assert NOT_IN_FILE in out and f"decided in the app: hunk {hunk.index + 1}: restored dev\n" not in out

    written = Workspace.open(SyncRequest(repo=sample_in_progress.path))
    outcome = written.write(entry.path)
    assert outcome.written, outcome.message
    code, out, _ = _cli(capsys, "report", "--repo", repo, "--fail-on", "low", "--format", "json")
    doc = json.loads(out)
    assert (entry.path, hunk.index) not in {(o["path"], o["index"]) for o in doc["gate"]["open"]}
    mine = [d for d in doc["decisions"] if (d["path"], d["index"]) == (entry.path, hunk.index)]
    assert mine and all(d["in_file"] is True for d in mine)
    assert hunk.level in Level
