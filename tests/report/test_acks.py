"""Acknowledgements: ``workbench ack`` writes ``.workbench/acks.toml``; committed with the PR, the gate honours it.

On the demo sample's bot merge, ``report --fail-on high`` fails on its open
high hunks; acknowledging each (with a reason) and committing the file on
the sync branch closes their items on the PR head, and every format says who
acknowledged what and why.  What breaks the build outside any hunk (dev's
import of a module main deleted) still fails the gate: no acknowledgement of
hunks covers it.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import LineRange
from workbench.cli import main
from workbench.git.types import ACKS_PATH
from workbench.resolve.acks import Ack, fingerprint, parse_acks, record_ack
from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_acknowledged_hunks_close_their_items_and_the_report_says_why(
    sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = str(sample_merge_commit.path)
    merge = sample_merge_commit.merge
    assert merge is not None
    code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--fail-on", "high", "--format", "json")
    gate = json.loads(out)["gate"]
    assert code == 1 and gate["open"], "the bot's merge leaves high hunks open"
    for hunk in gate["open"]:
        code, out, err = _cli(capsys, "ack", merge, "--repo", repo, "--file", hunk["path"], "--hunk",
                              str(hunk["index"] + 1), "--reason", f"keep main: checked {hunk['path']}")
        assert (code, err) == (0, ""), err
        assert "acknowledged hunk" in out and ACKS_PATH in out
    b = RepoBuilder.open(sample_merge_commit.path)
    b.git("add", ACKS_PATH)
    b.git("commit", "-q", "-m", "Acknowledge the reviewed hunks")
    code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--result", "HEAD", "--fail-on", "high",
                        "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["gate"]["open"] == []
    (left,) = [i for i in doc["worklist"] if i["id"] in doc["gate"]["items"]]
    assert left["kind"] == "api-break" and left["waiting"] == [{"path": left["members"][0]["path"], "hunk": None}]
    still = [i for i in doc["worklist"] if i["level"] == "high" and i is not left and i["state"] != "decided"]
    # every acknowledged item is decided; what stays open is a file without hunks to decide whole (listed, as in
    # the agent's queue, but losing no line the gate counts)
    assert [i["kind"] for i in still] == ["whole-file"] and still[0]["id"] not in doc["gate"]["items"]
    acked = [d for d in doc["decisions"] if d["decided_by"] == "ack"]
    assert len(acked) == len(gate["open"])
    assert all(d["reason"].startswith("keep main: checked ") and d["who"] for d in acked)
    assert all(d["decided_by"] == "ack" for r in doc["risky_hunks"] if r["decision"] for d in [r["decision"]])
    code, out, _ = _cli(capsys, "report", merge, "--repo", repo, "--result", "HEAD", "--fail-on", "high")
    assert code == 1 and "acknowledged in .workbench/acks.toml" in out and "keep main: checked" in out
    assert "failed, 1 item at or above high still waits for a decision (0 losing lines of dev or main, 1 breaking" in out
    # Without the committed file (the merge commit's own tree) the gate still fails: acks travel with the PR.
    code, _, _ = _cli(capsys, "report", merge, "--repo", repo, "--fail-on", "high")
    assert code == 1


def test_the_fingerprint_survives_line_shifts_and_not_a_text_change(sample_merge_commit: SampleSync) -> None:
    _, analysis = open_analysis(sample_merge_commit.path)
    entry = next(f for f in analysis.files if f.hunks)
    hunk = entry.hunks[0]
    shifted = replace(hunk, base=LineRange(hunk.base.start + 40, hunk.base.end + 40),
                      dev=LineRange(hunk.dev.start + 40, hunk.dev.end + 40),
                      main=LineRange(hunk.main.start + 7, hunk.main.end + 7), index=hunk.index + 2)
    assert fingerprint(entry.path, shifted) == fingerprint(entry.path, hunk)
    assert fingerprint(entry.path, replace(hunk, main_text=(*hunk.main_text, b"more\n"))) != fingerprint(entry.path, hunk)
    assert fingerprint("other/" + entry.path, hunk) != fingerprint(entry.path, hunk)


def test_record_ack_keeps_a_hand_edited_file_and_replaces_the_same_hunk(tmp_path: Path) -> None:
    target = tmp_path / ACKS_PATH
    target.parent.mkdir()
    target.write_text("# reviewed by the sync rotation\n\n[[ack]]\npath = \"a.py\"\nhunk = \"f1\"\n"
                      "decision = \"main\"\nreason = \"first\"  # see #12\n")
    record_ack(tmp_path, Ack("b.py", "f2", Choice.DEV, "second", "Ada <ada@example.com>", "2026-01-01T00:00:00Z"))
    record_ack(tmp_path, Ack("a.py", "f1", Choice.DEV, "changed my mind", "Ada <ada@example.com>"))
    text = target.read_text()
    assert text.startswith("# reviewed by the sync rotation\n")
    acks = parse_acks(text)
    assert [(a.path, a.decision, a.reason) for a in acks] == [("b.py", "dev", "second"), ("a.py", "dev", "changed my mind")]
    assert all(type(a.decision) is Choice for a in acks), "the file's string read back as the closed set's member"
    assert 'decision = "dev"' in text


@pytest.mark.parametrize(("args", "words"), [
    (["--file", "nope.py", "--hunk", "1", "--reason", "x"], "has no hunks in this sync"),
    (["--hunk", "99", "--reason", "x"], "--hunk goes from 1 to"),
    (["--hunk", "1", "--reason", "  "], "--reason must say why"),
])
def test_bad_ack_input_is_one_line_and_exit_2(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str],
                                              args: list[str], words: str) -> None:
    _, analysis = open_analysis(sample_merge_commit.path)
    path = next(f.path for f in analysis.files if f.hunks)
    full = ["ack", "--repo", str(sample_merge_commit.path), *([] if "--file" in args else ["--file", path]), *args]
    code, out, err = _cli(capsys, *full)
    assert code == 2 and words in err and err.count("\n") == 1 and out == ""
    assert not Path(sample_merge_commit.path, ACKS_PATH).exists()


def test_an_invalid_acks_file_is_named(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str]) -> None:
    Path(sample_merge_commit.path, ".workbench").mkdir()
    Path(sample_merge_commit.path, ACKS_PATH).write_text("[[ack]]\npath = 1\n")
    b = RepoBuilder.open(sample_merge_commit.path)
    b.git("add", ACKS_PATH)
    b.git("commit", "-q", "-m", "bad acks")
    code, _, err = _cli(capsys, "report", "HEAD~1", "--repo", str(sample_merge_commit.path), "--result", "HEAD")
    assert code == 2 and ACKS_PATH in err and "lacks path" in err


def test_the_app_acknowledges_only_in_the_prs_work_tree(sample_merge_commit: SampleSync) -> None:
    from workbench.services.workspace import Workspace

    ws = Workspace.open(SyncRequest(repo=sample_merge_commit.path))
    entry = next(f for f in ws.files if f.hunks and f.hunks[0].taken.value == "main")
    assert ws.ack_blocker(entry.path, 0) is None
    ws.acknowledge(entry.path, 0, "keep main: reviewed")
    assert [a.reason for a in parse_acks(Path(sample_merge_commit.path, ACKS_PATH).read_text())] == ["keep main: reviewed"]
    RepoBuilder.open(sample_merge_commit.path).git("checkout", "-q", "--detach", "HEAD~1")
    elsewhere = Workspace.open(SyncRequest(repo=sample_merge_commit.path, rev=sample_merge_commit.merge))
    blocker = elsewhere.ack_blocker(entry.path, 0)
    assert blocker is not None and "work tree" in blocker
