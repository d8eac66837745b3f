"""Deciding edit hunks (changes beyond git's merge): keep the result, restore git's merge, or a side.

Each test builds a repository where the resolution changed what git merged
cleanly, decides the edit hunk, and checks the bytes written against git's
own automatic merge (``git merge-tree --write-tree``), the index, and the
CI gate that reads the decisions back from the journal.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers.syncs import open_analysis
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.model import FileStatus, HunkKind, Taken
from workbench.analysis.xdiff import Favor
from workbench.cli import main
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder

CLEAN = "pkg/clean.py"
CONFLICT = "pkg/conflict.py"
BODY = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))
DEV_BODY = BODY.replace("return 1\n", "return dev_value(1)\n")
MAIN_BODY = BODY.replace("return 1\n", "return main_value(1)\n").replace("return 4\n", "return fused(4)\n")


def _git(b: RepoBuilder, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=b.path, capture_output=True, check=True).stdout


def _auto_merge(b: RepoBuilder, path: str) -> bytes:
    """What git's automatic merge of dev and main holds at ``path`` (``git merge-tree --write-tree``)."""
    tree = subprocess.run(["git", "merge-tree", "--write-tree", "dev", "main"], cwd=b.path, capture_output=True,
                          check=False).stdout.decode().split("\n", 1)[0]
    return _git(b, "cat-file", "blob", f"{tree}:{path}")


def _theirs_merge(b: RepoBuilder, path: str, tmp: Path) -> bytes:
    """git's own ``-X theirs`` merge of ``path`` between the merge commit's parents (``git merge-file --theirs``)."""
    base = _git(b, "merge-base", "HEAD^1", "HEAD^2").decode().strip()
    names = []
    for rev, name in (("HEAD^1", "ours"), (base, "base"), ("HEAD^2", "theirs")):
        target = tmp / name
        target.write_bytes(_git(b, "show", f"{rev}:{path}"))
        names.append(str(target))
    return subprocess.run(["git", "merge-file", "-p", "--theirs", *names], capture_output=True, check=True).stdout


def _conflicted_merge(b: RepoBuilder) -> None:
    """The merge below, stopped on its conflict (nothing resolved or committed)."""
    b.write(CLEAN, BODY).commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(CLEAN, DEV_BODY).commit("[dev] Dev work (#11)")
    b.checkout("main")
    b.write(CLEAN, MAIN_BODY).commit("Main work (#21)")
    b.checkout("dev")
    assert b.merge("main", no_commit=True) == 1


def _conflict_and_reverted_main_change(b: RepoBuilder) -> str:
    """A merge whose file holds a conflict (hunk 1) and, after it, main's clean change undone (hunk 2, an edit)."""
    _conflicted_merge(b)
    b.write(CLEAN, DEV_BODY)
    return b.commit("Merge main into dev (bot resolution)")


def test_restoring_gits_merge_puts_mains_clean_change_back_and_keeps_the_conflicts_decision(
    builder: RepoBuilder, tmp_path: Path
) -> None:
    merge = _conflict_and_reverted_main_change(builder)
    repo, analysis = open_analysis(builder.path, rev=merge)
    entry = analysis.file(CLEAN)
    assert entry is not None and len(entry.hunks) == 1 and len(entry.edits) == 1
    edit = entry.edits[0]
    assert edit.kind is HunkKind.EDIT and edit.taken is Taken.DEV
    assert edit.merged_text == (b"    return fused(4)\n",)
    session = Session(analysis)
    assert session.undecided(CLEAN) == 2, "the edit is to be reviewed like the conflict"

    session.decide(CLEAN, edit.index, Decision(Choice.MERGED))
    assert session.preview(CLEAN) == DEV_BODY.replace("return 4\n", "return fused(4)\n").encode()
    assert session.is_dirty(CLEAN)
    session.decide(CLEAN, 0, Decision(Choice.MAIN))
    theirs = _theirs_merge(builder, CLEAN, tmp_path)
    assert session.preview(CLEAN) == theirs, "main in the conflict and git's merge elsewhere: git's -X theirs"
    assert session.undecided(CLEAN) == 0

    session.decide(CLEAN, edit.index, Decision(Choice.RESULT))
    session.decide(CLEAN, 0, None)
    assert session.preview(CLEAN) == DEV_BODY.encode()
    assert not session.is_dirty(CLEAN), "keeping what the result holds writes nothing"
    session.decide(CLEAN, edit.index, Decision(Choice.MAIN))
    assert session.preview(CLEAN) == DEV_BODY.replace("return 4\n", "return fused(4)\n").encode()
    session.decide(CLEAN, edit.index, Decision(Choice.DEV))
    assert session.preview(CLEAN) == DEV_BODY.encode()


def test_edit_only_choices_are_refused_on_a_conflict(builder: RepoBuilder) -> None:
    merge = _conflict_and_reverted_main_change(builder)
    _repo, analysis = open_analysis(builder.path, rev=merge)
    session = Session(analysis)
    for choice in (Choice.MERGED, Choice.RESULT):
        with pytest.raises(SessionError, match="is a conflict"):
            session.decide(CLEAN, 0, Decision(choice))
    assert session.decision(CLEAN, 0) is None


def test_keeping_an_edit_on_the_merge_commit_closes_the_gate(
    builder: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    merge = _conflict_and_reverted_main_change(builder)
    repo, analysis = open_analysis(builder.path, rev=merge)
    entry = analysis.file(CLEAN)
    assert entry is not None
    edit = entry.edits[0]
    args = ["report", merge, "--repo", str(builder.path), "--format", "json", "--fail-on", "low"]

    def open_hunks() -> set[tuple[str, int]]:
        main(args)
        return {(o["path"], o["index"]) for o in json.loads(capsys.readouterr().out)["gate"]["open"]}

    assert (CLEAN, edit.index) in open_hunks()
    session = Session(analysis)
    journal = Journal.for_situation(repo.gitdir, Situation.of(analysis))
    journal.append(session.decide(CLEAN, edit.index, Decision(Choice.RESULT)))
    assert (CLEAN, edit.index) not in open_hunks(), "a reviewer kept the resolution's edit"
    main(args[:-4])
    section = capsys.readouterr().out.split("### Decisions recorded in the app", 1)[1]
    assert f"`{CLEAN}` hunk 2: kept the result" in section


def test_restore_and_write_during_a_merge_in_progress_writes_and_stages_gits_merge(builder: RepoBuilder) -> None:
    """A clean file the user edited mid-merge: G then w puts back exactly git's merge, and stages it."""
    builder.write(CLEAN, BODY).write(CONFLICT, "value = 0\n").commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(CLEAN, DEV_BODY).write(CONFLICT, "value = 1\n").commit("[dev] Dev work (#11)")
    builder.checkout("main")
    builder.write(CLEAN, BODY.replace("return 4\n", "return fused(4)\n")).write(CONFLICT, "value = 2\n")
    builder.commit("Main work (#21)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    merged = builder.read(CLEAN)
    builder.write(CLEAN, merged.decode().replace("return fused(4)\n", "return 4\n"))
    repo, analysis = open_analysis(builder.path)
    entry = analysis.file(CLEAN)
    assert entry is not None and entry.status is FileStatus.TOOK_DEV_FILE and not entry.hunks  # main's change undone
    session = Session(analysis)
    session.decide(CLEAN, entry.edits[0].index, Decision(Choice.MERGED))
    outcome = write_file(repo, session, CLEAN, stage=True)
    assert outcome.written and outcome.staged, outcome.message
    assert builder.read(CLEAN) == merged == _auto_merge(builder, CLEAN)
    staged = subprocess.run(["git", "show", f":{CLEAN}"], cwd=builder.path, capture_output=True, check=True).stdout
    assert staged == merged


def test_a_conflicted_file_in_progress_with_an_edit_outside_its_block(builder: RepoBuilder) -> None:
    """The conflict decided, the user's edit of a clean region restored: no marker, git's text there, staged."""
    _conflicted_merge(builder)
    on_disk = builder.read(CLEAN)
    assert b"<<<<<<<" in on_disk
    builder.write(CLEAN, on_disk.decode().replace("return fused(4)\n", "return 4\n"))
    repo, analysis = open_analysis(builder.path)
    entry = analysis.file(CLEAN)
    assert entry is not None and entry.status is FileStatus.CONFLICTED and len(entry.edits) == 1
    session = Session(analysis)
    session.decide(CLEAN, entry.edits[0].index, Decision(Choice.MERGED))
    assert write_file(repo, session, CLEAN, stage=True).written is False, "the conflict is still undecided"
    session.decide(CLEAN, 0, Decision(Choice.DEV))
    outcome = write_file(repo, session, CLEAN, stage=True)
    assert outcome.written and outcome.staged, outcome.message
    assert builder.read(CLEAN) == DEV_BODY.replace("return 4\n", "return fused(4)\n").encode()


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([Choice.RESULT, Choice.MERGED, Choice.MAIN, Choice.DEV, None]), min_size=3,
                max_size=3), st.sampled_from([Choice.MAIN, Choice.DEV, None]))
def test_edit_decisions_touch_only_their_regions(
    sync_with_three_edits: tuple[Session, bytes, bytes], edits: list[Choice | None], conflict: Choice | None
) -> None:
    """Any mix of decisions: every region ends up holding what its decision says, and nothing else moves;
    git's merge in every edit and main in the conflict is exactly git's ``-X theirs`` file."""
    analysis_session, result, theirs = sync_with_three_edits
    session = Session(analysis_session.analysis)
    entry = session.file(CLEAN)
    session.decide(CLEAN, 0, Decision(conflict) if conflict else None)
    for hunk, choice in zip(entry.edits, edits, strict=True):
        session.decide(CLEAN, hunk.index, Decision(choice) if choice else None)
    out = session.preview(CLEAN)
    assert out is not None
    if conflict is Choice.MAIN and all(c is Choice.MERGED for c in edits):
        assert out == theirs
    if conflict is None and all(c in (Choice.RESULT, None) for c in edits):
        assert out == result
    lines = out.splitlines(keepends=True)
    for hunk, choice in zip(entry.edits, edits, strict=True):
        wanted = {Choice.MERGED: hunk.merged_text, Choice.MAIN: hunk.main_text, Choice.DEV: hunk.dev_text}.get(
            choice, hunk.result_text) if choice else hunk.result_text
        assert b"".join(wanted or ()) in b"".join(lines)


@pytest.fixture(scope="module")
def sync_with_three_edits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, bytes, bytes]:
    """A merge commit: one conflict and three edits (main's change undone, dev's undone, a line added)."""
    b = RepoBuilder.init(tmp_path_factory.mktemp("three-edits"))
    lines = [f"def f{i}():\n    return {i}\n\n\n" for i in range(10)]
    b.write(CLEAN, "".join(lines)).commit("Initial import")
    b.branch("dev").checkout("dev")
    dev = list(lines)
    dev[0] = dev[0].replace("return 0", "return dev(0)")
    dev[5] = dev[5].replace("return 5", "return dev(5)")
    b.write(CLEAN, "".join(dev)).commit("[dev] Dev work (#11)")
    b.checkout("main")
    main_ = list(lines)
    main_[0] = main_[0].replace("return 0", "return main(0)")
    main_[3] = main_[3].replace("return 3", "return main(3)")
    b.write(CLEAN, "".join(main_)).commit("Main work (#21)")
    b.checkout("dev")
    assert b.merge("main", no_commit=True) == 1
    resolved = list(dev)  # the conflict: dev's; main's clean change to f3 undone, dev's f5 undone, a line added
    resolved[5] = lines[5]
    resolved[8] = resolved[8] + "# added by the resolution\n"
    b.write(CLEAN, "".join(resolved))
    merge = b.commit("Merge main into dev (bot resolution)")
    _repo, analysis = open_analysis(b.path, rev=merge)
    entry = analysis.file(CLEAN)
    assert entry is not None and entry.merge is not None and len(entry.edits) == 3, entry
    theirs = _theirs_merge(b, CLEAN, tmp_path_factory.mktemp("theirs"))
    assert theirs == entry.merge.render(Favor.THEIRS)
    return Session(analysis), "".join(resolved).encode(), theirs


def test_gits_merge_in_every_edit_and_main_in_the_conflict_is_gits_theirs_merge(
    sync_with_three_edits: tuple[Session, bytes, bytes],
) -> None:
    session = Session(sync_with_three_edits[0].analysis)
    entry = session.file(CLEAN)
    session.decide(CLEAN, 0, Decision(Choice.MAIN))
    for hunk in entry.edits:
        session.decide(CLEAN, hunk.index, Decision(Choice.MERGED))
    assert session.preview(CLEAN) == sync_with_three_edits[2]


def test_an_edit_hunk_acknowledged_on_the_command_line_keeps_the_result_and_passes_the_gate(
    builder: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    merge = _conflict_and_reverted_main_change(builder)
    repo = str(builder.path)
    assert main(["report", merge, "--repo", repo, "--format", "json", "--fail-on", "low"]) == 1
    # Both directions: the conflict (hunk 1) holds dev's side and drops main's lines, so it waits too.
    assert [(o["path"], o["index"]) for o in json.loads(capsys.readouterr().out)["gate"]["open"]] == [
        (CLEAN, 0), (CLEAN, 1)]
    assert main(["ack", merge, "--repo", repo, "--file", CLEAN, "--hunk", "1", "--decision", "merged",
                 "--reason", "x"]) == 2
    assert "is one of git's conflicts" in capsys.readouterr().err
    assert main(["ack", merge, "--repo", repo, "--file", CLEAN, "--hunk", "1", "--decision", "dev",
                 "--reason", "dev's body replaces main's"]) == 0
    capsys.readouterr()
    assert main(["ack", merge, "--repo", repo, "--file", CLEAN, "--hunk", "2", "--reason", "f4 stays unfused"]) == 0
    assert "keep result" in capsys.readouterr().out
    builder.git("add", ".workbench/acks.toml")
    builder.git("commit", "-q", "-m", "Acknowledge the edit")
    assert main(["report", merge, "--repo", repo, "--result", "HEAD", "--format", "json", "--fail-on", "low"]) == 0
    assert json.loads(capsys.readouterr().out)["gate"]["open"] == [], "the acks file itself is no edit to review"
