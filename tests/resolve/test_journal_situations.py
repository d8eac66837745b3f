"""One journal per situation, shared by the app and git mergetool, claimed by one process at a time.

Built repositories: a sync merged with ``-X theirs`` (a merge commit to
review) and the same tips merged again locally (a merge in progress).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from workbench.analysis.model import Mode
from workbench.report.decisions import load_decisions
from workbench.resolve.events import Change, Event, Field, Op
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked
from workbench.sample import RepoBuilder
from workbench.services.mergetool_file import load_mergetool
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace

BASE = "".join(f"line_{i} = {i}\n" for i in range(12))
DEV = BASE.replace("line_2 = 2\n", "DEV_A = 1\n").replace("line_9 = 9\n", "DEV_B = 1\n")
MAIN = BASE.replace("line_2 = 2\n", "MAIN_A = 1\n").replace("line_9 = 9\n", "MAIN_B = 1\n")


def _fork(b: RepoBuilder) -> RepoBuilder:
    b.write("x.py", BASE).commit("base")
    b.branch("dev").checkout("dev").write("x.py", DEV).commit("dev (#2)")
    b.checkout("main").write("x.py", MAIN).commit("main (#3)")
    return b.checkout("dev")


def _bot_merge_then_local_merge(b: RepoBuilder) -> str:
    """The bot's ``-X theirs`` merge commit on a sync branch, then dev merging main again by hand (in progress)."""
    _fork(b)
    b.branch("sync").checkout("sync")
    b.merge("main", "theirs")
    merge = b.git("rev-parse", "HEAD").decode().strip()
    b.checkout("dev")
    assert b.merge("main") == 1
    return merge


def test_decisions_on_the_bots_merge_stay_with_it(builder: RepoBuilder) -> None:
    merge = _bot_merge_then_local_merge(builder)
    review = Workspace.open(SyncRequest(repo=builder.path, rev=merge))
    assert review.analysis.mode is Mode.MERGE_COMMIT
    review.decide("x.py", 0, Decision(Choice.DEV))
    local = Workspace.open(SyncRequest(repo=builder.path))
    assert local.analysis.mode is Mode.IN_PROGRESS
    assert not local.resumed and local.session.decision("x.py", 0) is None, "the review's choice is not this merge's"
    local.decide("x.py", 1, Decision(Choice.MAIN))
    decided, _ = load_decisions(Path(builder.path, ".git"), review.analysis)
    assert [(d.path, d.index, d.choice) for d in decided] == [("x.py", 0, "dev")], "the local merge's choice stays out"
    again = Workspace.open(SyncRequest(repo=builder.path, rev=merge))
    assert again.resumed and again.session.decision("x.py", 0) == Decision(Choice.DEV)
    words = again.resumed_words()
    assert f"the review of merge {merge[:10]}" in words and "today" in words, words


def test_git_mergetool_and_the_app_share_the_merges_journal(builder: RepoBuilder) -> None:
    _fork(builder)
    assert builder.merge("main") == 1
    root = Path(builder.path)
    out = builder.git("checkout-index", "--stage=all", "--temp", "--", "x.py").decode()
    base, local, remote = (str(root / name) for name in out.split("\t")[0].split())
    tool = Workspace.load(*load_mergetool(base, local, remote, str(root / "x.py")))
    assert tool.analysis.mode is Mode.MERGETOOL
    tool.decide("x.py", 1, Decision(Choice.DEV))
    app = Workspace.open(SyncRequest(repo=builder.path))
    assert _journal(app).path == _journal(tool).path
    assert app.session.decision("x.py", 1) == Decision(Choice.DEV)
    decided, _ = load_decisions(root / ".git", app.analysis)
    assert [(d.path, d.index, d.choice) for d in decided] == [("x.py", 1, "dev")]


_HOLDER = """
import sys, time
from pathlib import Path
from workbench.resolve.journal import Journal, Situation
from workbench.analysis.model import Mode
journal = Journal.for_situation(sys.argv[1], Situation(Mode(sys.argv[2]), tuple(sys.argv[3:])))
assert journal.claim() is None
print("ready", flush=True)
time.sleep(60)
"""


def test_a_second_instance_works_read_only_and_writes_nothing(builder: RepoBuilder) -> None:
    _fork(builder)
    assert builder.merge("main") == 1
    head = builder.git("rev-parse", "HEAD", "MERGE_HEAD").decode().split()
    situation = Situation.merging(head[0], head[1])
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(Path(builder.path, ".git")), situation.kind.value,
                               *situation.commits], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"ready"
        second = Workspace.open(SyncRequest(repo=builder.path))
        assert second.journal.situation == situation
        second.decide("x.py", 0, Decision(Choice.DEV))  # the first change claims the journal, and learns
        assert second.unsaved is not None and f"process {holder.pid}" in second.unsaved and second.unsaved_news
        second.decide("x.py", 1, Decision(Choice.DEV))
        assert second.journal.load() == [], "the second instance journals nothing"
        blocker = second.write_blocker()
        assert blocker is not None and "read-only" in blocker
        assert not second.write("x.py").written
        assert "<<<<<<<" in Path(builder.path, "x.py").read_text()
    finally:
        holder.kill()
        holder.wait()


def test_opening_changes_nothing_under_git(builder: RepoBuilder) -> None:
    """Only a decision claims the journal: opening and looking leave ``.git`` as it was."""
    _fork(builder)
    assert builder.merge("main") == 1
    ws = Workspace.open(SyncRequest(repo=builder.path))
    assert not Path(builder.path, ".git", "workbench").exists()
    ws.decide("x.py", 0, Decision(Choice.MAIN))
    assert _journal(ws).path.with_suffix(".lock").exists() and ws.unsaved is None


def test_a_repository_where_decisions_cannot_be_saved_keeps_working(builder: RepoBuilder) -> None:
    """``.git/workbench`` cannot be created (a read-only repository): the first decision must not raise."""
    _fork(builder)
    assert builder.merge("main") == 1
    Path(builder.path, ".git", "workbench").write_text("not a directory\n")
    ws = Workspace.open(SyncRequest(repo=builder.path))
    ws.decide("x.py", 0, Decision(Choice.MAIN))
    assert ws.unsaved is not None and "cannot be saved" in ws.unsaved
    assert ws.session.decision("x.py", 0) == Decision(Choice.MAIN)
    assert ws.write_blocker() is not None


def test_an_append_that_fails_mid_session_turns_the_session_read_only(builder: RepoBuilder) -> None:
    _fork(builder)
    assert builder.merge("main") == 1
    ws = Workspace.open(SyncRequest(repo=builder.path))
    ws.decide("x.py", 0, Decision(Choice.MAIN))
    _journal(ws).path.unlink()
    _journal(ws).path.mkdir()  # the next append cannot open it
    ws.decide("x.py", 1, Decision(Choice.MAIN))
    assert ws.unsaved is not None and ws.unsaved_news


def test_the_journal_header_names_its_situation_and_old_readers_skip_it(tmp_path: Path) -> None:
    situation = Situation(Mode.MERGE_COMMIT, ("a" * 40, "b" * 40))
    journal = Journal.for_situation(tmp_path, situation, "/some/tree")
    journal.append(_event())
    assert journal.path.name == f"merge-commit-{'a' * 16}-{'b' * 16}.jsonl"
    assert journal.header()["situation"] == {"kind": "merge-commit", "commits": ["a" * 40, "b" * 40]}
    assert [e.label for e in journal.load()] == ["e"]


def _journal(ws: Workspace) -> Journal:
    """The workspace's event log, which in a repository is the merge's journal."""
    assert isinstance(ws.journal, Journal)
    return ws.journal


def _event() -> Event:
    return Event(Op.DO, (Change(Field.HUNK, "f.py", 0, None, Decision(Choice.MAIN)),), "e")


def test_a_hand_resolution_made_after_deciding_is_not_overwritten_on_resume(builder: RepoBuilder) -> None:
    """Decide, quit without writing, resolve by hand and ``git add``, reopen: ``w`` must ask first."""
    _fork(builder)
    assert builder.merge("main") == 1
    first = Workspace.open(SyncRequest(repo=builder.path))
    first.decide_file("x.py", Choice.MAIN)
    hand = BASE.replace("line_2 = 2\n", "HAND_A = 1\n").replace("line_9 = 9\n", "HAND_B = 1\n")
    Path(builder.path, "x.py").write_text(hand)
    builder.git("add", "x.py")
    again = Workspace.open(SyncRequest(repo=builder.path))
    assert again.resumed and again.session.decided("x.py") == 2
    assert again.session.changed_since_decided() == ["x.py"]
    assert "x.py changed on disk since then" in again.resumed_words()
    assert again.check("x.py").blocked is Blocked.CHANGED_ON_DISK
    assert not again.write("x.py").written
    assert Path(builder.path, "x.py").read_text() == hand
    assert again.write("x.py", overwrite_changed=True).written, "the user may still say yes"


def test_a_decision_over_an_unchanged_file_resumes_and_writes_without_asking(builder: RepoBuilder) -> None:
    _fork(builder)
    assert builder.merge("main") == 1
    Workspace.open(SyncRequest(repo=builder.path)).decide_file("x.py", Choice.MAIN)
    again = Workspace.open(SyncRequest(repo=builder.path))
    assert again.session.changed_since_decided() == []
    assert again.check("x.py").ok
    assert again.write("x.py").written
    assert Path(builder.path, "x.py").read_text() == MAIN


def test_a_write_the_work_tree_no_longer_holds_is_to_be_written_again(builder: RepoBuilder) -> None:
    """Write, then ``git merge --abort`` and merge again (same HEAD and MERGE_HEAD): on resume the file is
    conflicted again, so it must not read as written (no ●, nothing for ``w``) while git says UU."""
    _fork(builder)
    assert builder.merge("main") == 1
    first = Workspace.open(SyncRequest(repo=builder.path))
    first.decide_file("x.py", Choice.MAIN)
    assert first.write("x.py").written
    del first
    builder.git("merge", "--abort")
    assert builder.merge("main") == 1
    again = Workspace.open(SyncRequest(repo=builder.path))
    assert again.resumed
    assert not again.session.was_written("x.py")
    assert again.session.is_dirty("x.py"), "the work tree holds git's conflict again, not the decision"
    assert again.check("x.py").blocked is Blocked.CHANGED_ON_DISK, "w asks before replacing what changed"
    assert again.write("x.py", overwrite_changed=True).written
    assert Path(builder.path, "x.py").read_text() == MAIN
