"""A person's choice is not ``-X theirs``: files the app wrote keep their evidence and say who decided them.

The demo sample merged plainly (``git merge main``, conflicts in progress):
decide the riskiest conflicted file to dev and another to main in the app,
write both, reopen, then commit the merge and report on the merge commit.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import Decider, FileStatus, Level, Mode, SignalKind
from workbench.cli import main
from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.glyphs import status_letters

Template = Callable[[str], SampleSync]


@pytest.fixture
def merging(sample_template: Template, tmp_path: Path) -> Path:
    source = sample_template("branches")
    dest = tmp_path / "repo"
    shutil.copytree(source.path, dest, symlinks=True)
    assert RepoBuilder.open(dest).merge("main") == 1
    return dest


def _evidence(ws: Workspace, path: str) -> tuple[object, ...]:
    """Each hunk's risk, level and signals; "still conflicted" left out, which deciding ends."""
    entry = ws.entry(path)
    return tuple(
        (h.risk, h.level, tuple(s for s in h.signals if s.kind is not SignalKind.STILL_CONFLICTED)) for h in entry.hunks
    )


def test_written_decisions_keep_their_evidence_and_say_the_app_decided(
    merging: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = Workspace.open(SyncRequest(repo=merging))
    conflicted = [f for f in ws.files if f.status is FileStatus.CONFLICTED and f.hunks and f.merge is not None]
    high = next(f for f in conflicted if any(h.level is Level.HIGH for h in f.hunks))
    other = next(f for f in conflicted if f.path != high.path)
    before = {path: _evidence(ws, path) for path in (high.path, other.path)}
    ws.decide_file(high.path, Choice.DEV)
    ws.decide_file(other.path, Choice.MAIN)
    assert ws.write(high.path).written and ws.write(other.path).written

    again = Workspace.open(SyncRequest(repo=merging))
    for path in (high.path, other.path):
        entry = again.entry(path)
        assert entry.status is not FileStatus.CONFLICTED, "git now sees it resolved"
        assert entry.decided_by == "app" and entry.decided_at is not None
        assert _evidence(again, path) == before[path], "the evidence it had when decided"
        assert not any(s.kind is SignalKind.STILL_CONFLICTED for h in entry.hunks for s in h.signals), "no longer true"
        assert status_letters(entry).startswith("W")
    assert any(h.level is Level.HIGH for h in again.entry(high.path).hunks)

    assert main(["analyze", "--repo", str(merging), "--json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files[high.path]["decided_by"] == "app" and files[high.path]["decided_at"].endswith("Z")
    assert files[other.path]["decided_by"] == "app"

    b = RepoBuilder.open(merging)
    for path in b.git("diff", "--name-only", "--diff-filter=U").decode().split():
        b.run("checkout", "--theirs", "--", path)  # main deleted some: those stay as the work tree has them
    b.git("add", "-A", ".")
    b.git("commit", "-q", "--no-edit", "--date=now")  # made after the writes, as a real commit is
    assert main(["report", "HEAD", "--repo", str(merging), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    reasons = {t["path"]: t["reason"] for t in doc["main_taken"]}
    assert reasons.get(other.path) == "decided in the app", reasons
    decided = {(d["path"], d["index"]) for d in doc["decisions"] if d["decided_by"] == "app"}
    assert {(high.path, h.index) for h in high.hunks} <= decided, "the gate sees the person's decisions"
    risky = [r for r in doc["risky_hunks"] if r["path"] == high.path]
    assert risky and all(r["open"] is False for r in risky)


def test_a_file_changed_after_the_app_wrote_it_is_analysed_as_it_is(merging: Path) -> None:
    ws = Workspace.open(SyncRequest(repo=merging))
    entry = next(f for f in ws.files if f.status is FileStatus.CONFLICTED and f.hunks and f.merge is not None)
    ws.decide_file(entry.path, Choice.DEV)
    assert ws.write(entry.path).written
    with Path(merging, entry.path).open("a") as handle:
        handle.write("# a fix by hand\n")
    again = Workspace.open(SyncRequest(repo=merging))
    assert again.entry(entry.path).decided_by is None


def test_a_later_local_merge_does_not_claim_the_bots_merge_commit(sample_template: Template, tmp_path: Path) -> None:
    """Writes made after a merge commit was made cannot explain it."""
    from workbench.resolve.events import Event, Op
    from workbench.resolve.provenance import restore

    sample = sample_template("merge-commit")
    _, analysis = open_analysis(sample.path, rev=sample.merge)
    assert analysis.mode is Mode.MERGE_COMMIT
    entry = next(f for f in analysis.files if f.result_present)
    late = Event(Op.WRITTEN, path=entry.path, oid=entry.result_oid, at=4_000_000_000.0)
    stale = restore(analysis, [late], before=1_000_000_000.0).file(entry.path)
    assert stale is not None and stale.decided_by is None
    fresh = restore(analysis, [replace(late, at=10.0)], before=1_000_000_000.0).file(entry.path)
    assert fresh is not None and fresh.decided_by == "app"


def test_a_fix_commit_after_the_merge_says_so(sample_template: Template, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    source = sample_template("merge-commit")
    dest = tmp_path / "repo"
    shutil.copytree(source.path, dest, symlinks=True)
    b = RepoBuilder.open(dest)
    from workbench.sample.dropped_lines import SPECS

    b.write(SPECS, b.read(SPECS, source.dev)).commit("fix: restore dev's qk_l2_norm")
    assert main(["analyze", str(source.merge), "--repo", str(dest), "--result", "HEAD", "--json"]) == 0
    files = {f["path"]: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert files[SPECS]["decided_by"] == "fix commit"
    assert {f["decided_by"] for p, f in files.items() if p != SPECS} <= {"-X theirs", "hand", None}


def test_restored_evidence_names_its_signals_by_kind_and_an_unknown_kind_is_not_restored(
    sample_template: Template,
) -> None:
    """The journal stores each signal's kind as its JSON string; reading it back gives the closed set's member."""
    from workbench.resolve.events import Event, Op, evidence_json
    from workbench.resolve.provenance import restore
    from workbench.services.sync import open_sync

    sample = sample_template("merge-commit")
    _, analysis = open_sync(SyncRequest(repo=sample.path, rev=sample.merge))
    entry = next(f for f in analysis.files if f.result_present and any(h.signals for h in f.hunks))
    written = Event(Op.WRITTEN, path=entry.path, oid=entry.result_oid, at=10.0, evidence=evidence_json(entry))
    restored = restore(analysis, [written]).file(entry.path)
    assert restored is not None and restored.decided_by is Decider.APP
    kinds = [s.kind for h in restored.hunks for s in h.signals]
    assert kinds and all(type(kind) is SignalKind for kind in kinds), kinds

    hunk = next(h for h in entry.hunks if h.signals)
    forged = evidence_json(entry).replace(f'"{hunk.signals[0].kind.value}"', '"no-such-signal"')
    unknown = restore(analysis, [replace(written, evidence=forged)]).file(entry.path)
    assert unknown is not None and unknown.decided_by == "app", "still the app's decision"
    assert all(type(s.kind) is SignalKind for h in unknown.hunks for s in h.signals), "no foreign kind restored"
