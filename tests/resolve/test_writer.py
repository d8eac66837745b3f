"""Writing: atomic, staged during a merge, blocked by markers/syntax/changes on disk."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers.syncs import open_analysis, open_session

from workbench.resolve.events import FileChoice
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, check_write, conflict_markers, write_file
from workbench.sample import SampleSync


def _py_with_hunks(session: Session) -> str:
    return next(f.path for f in session.analysis.files if f.path.endswith(".py") and f.hunks and f.merge)


def test_write_and_stage_during_a_merge(sample_in_progress: SampleSync) -> None:
    repo, session = open_session(sample_in_progress.path)
    path = _py_with_hunks(session)
    session.decide_file(path, Choice.DEV)
    outcome = write_file(repo, session, path)
    assert outcome.written and outcome.staged, outcome.message
    on_disk = Path(sample_in_progress.path, path).read_bytes()
    assert on_disk == session.preview(path)
    staged = repo.index_entry(path)
    assert staged is not None and staged == (repo.hash_bytes(on_disk), staged[1])
    assert path not in session.dirty_paths()


def test_resolving_a_modify_delete_conflict_clears_the_index_stages(sample_in_progress: SampleSync) -> None:
    repo, session = open_session(sample_in_progress.path)
    unmerged = repo.index_unmerged()
    path = next(p for p in unmerged if p in {f.path for f in session.analysis.files})
    session.choose_file(path, FileChoice.DELETE)
    outcome = write_file(repo, session, path)
    assert outcome.written, outcome.message
    assert path not in repo.index_unmerged()
    assert not Path(sample_in_progress.path, path).exists()


def test_a_file_changed_behind_our_back_is_not_overwritten(sample_in_progress: SampleSync) -> None:
    repo, session = open_session(sample_in_progress.path)
    path = _py_with_hunks(session)
    session.decide_file(path, Choice.DEV)
    target = Path(sample_in_progress.path, path)
    target.write_bytes(target.read_bytes() + b"# someone else's edit\n")
    check = check_write(repo, session, path)
    assert check.blocked is Blocked.CHANGED_ON_DISK
    outcome = write_file(repo, session, path)
    assert not outcome.written and target.read_bytes().endswith(b"# someone else's edit\n")
    assert write_file(repo, session, path, overwrite_changed=True).written


def test_syntax_errors_and_markers_block_the_write(sample_in_progress: SampleSync) -> None:
    repo, session = open_session(sample_in_progress.path)
    path = _py_with_hunks(session)
    before = Path(sample_in_progress.path, path).read_bytes()
    session.decide(path, 0, Decision(Choice.CUSTOM, b"def broken(:\n"))
    assert check_write(repo, session, path).blocked is Blocked.SYNTAX
    session.decide(path, 0, Decision(Choice.CUSTOM, b"<<<<<<< dev\nx = 1\n=======\nx = 2\n>>>>>>> main\n"))
    check = check_write(repo, session, path)
    assert check.blocked is Blocked.MARKERS
    assert f"{path} still holds conflict markers in your edit of hunk 1" in check.message
    assert not write_file(repo, session, path).written
    assert Path(sample_in_progress.path, path).read_bytes() == before


def test_marked_hunks_are_the_edits_that_kept_markers(sample_in_progress: SampleSync) -> None:
    _repo, session = open_session(sample_in_progress.path)
    path = next(f.path for f in session.analysis.files if len(f.hunks) >= 3 and f.merge)
    marked = b"<<<<<<< dev\nx = 1\n=======\nx = 2\n>>>>>>> main\n"
    session.decide(path, 0, Decision(Choice.CUSTOM, marked))
    session.decide(path, 1, Decision(Choice.CUSTOM, b"x = 3\n"))
    session.decide(path, 2, Decision(Choice.CUSTOM, marked))
    assert session.marked_hunks(path) == (0, 2)
    assert session.marked_count() == 2
    assert session.is_decided(path), "the user did decide them: they are flagged, not undecided"
    session.decide(path, 2, Decision(Choice.DEV))
    assert session.marked_hunks(path) == (0,)
    assert session.marked_count() == sum(len(session.marked_hunks(f.path)) for f in session.analysis.files) == 1
    session.choose_file(path, FileChoice.KEEP_DEV)
    assert session.marked_hunks(path) == () and session.marked_count() == 0, "a whole-file choice replaces the edits"


def test_merge_commit_mode_writes_the_worktree_only(sample_merge_commit: SampleSync) -> None:
    repo, session = open_session(sample_merge_commit.path)
    path = _py_with_hunks(session)
    staged_before = repo.index_entry(path)
    session.decide_file(path, Choice.DEV)
    outcome = write_file(repo, session, path)
    assert outcome.written and not outcome.staged
    assert repo.index_entry(path) == staged_before


def test_paths_escaping_the_worktree_are_refused(sample_in_progress: SampleSync, tmp_path: Path) -> None:
    repo, session = open_session(sample_in_progress.path)
    path = _py_with_hunks(session)
    directory = Path(sample_in_progress.path, path).parent
    outside = tmp_path / "outside"
    outside.mkdir()
    moved = directory.with_name(directory.name + "-real")
    directory.rename(moved)
    directory.symlink_to(outside, target_is_directory=True)
    session.decide_file(path, Choice.DEV)
    assert check_write(repo, session, path).blocked is Blocked.UNSAFE_PATH
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (b"<<<<<<< dev\na\n=======\nb\n>>>>>>> main\n", True),
        (b"Title\n=======\n", False),
        (b"<<<<<<< HEAD\r\na\r\n=======\r\nb\r\n>>>>>>> x\r\n", True),
    ],
)
def test_conflict_marker_detection(text: bytes, found: bool) -> None:
    assert conflict_markers(text) is found


def test_a_model_git_does_not_confirm_is_written_only_as_a_whole_file(sample_merge_commit: SampleSync) -> None:
    """``exact`` false (the hunks do not re-create git's conflict text): no hunk-level splice is written, a
    whole-file choice (a side's own blob) still is."""
    repo, analysis = open_analysis(sample_merge_commit.path)
    path = next(f.path for f in analysis.files if f.path.endswith(".py") and f.hunks and f.merge and f.exact)
    files = tuple(replace(f, exact=False) if f.path == path else f for f in analysis.files)
    session = Session(replace(analysis, files=files), read_blob=repo.read_blob)
    session.decide_file(path, Choice.DEV)
    check = check_write(repo, session, path)
    assert check.blocked is Blocked.CONFLICT_TEXT and "choose the whole file" in check.message
    before = (sample_merge_commit.path / path).read_bytes()
    assert not write_file(repo, session, path).written
    assert (sample_merge_commit.path / path).read_bytes() == before
    session.choose_file(path, FileChoice.KEEP_DEV)
    assert check_write(repo, session, path).ok
    assert write_file(repo, session, path).written
    assert (sample_merge_commit.path / path).read_bytes() == repo.read_blob(session.file(path).dev.oid or "")
