"""git commands run beside the caller (``StartedGit``): what ``run_git`` gives, and nothing left behind."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from workbench.errors import WorkbenchError
from workbench.git.line_scripts import PendingScripts
from workbench.git.repo import GitRepo
from workbench.git.runner import DELTA_BASE_CACHE, StartedGit, delta_cache_options, run_git
from workbench.git.snapshot import load_sync, start_sync
from workbench.sample.truth import SampleSync


def _repo(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_output_larger_than_a_pipe_is_collected_whole(tmp_path: Path) -> None:
    """git writes freely while the caller works: the output is not held back by a full pipe."""
    repo = _repo(tmp_path)
    data = b"".join(b"line %d of a file larger than any pipe buffer\n" % n for n in range(40_000))
    oid = run_git(repo, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()
    with StartedGit(repo, ["cat-file", "blob", oid]) as started:
        answer = started.wait()
    direct = run_git(repo, ["cat-file", "blob", oid])
    assert (answer.args, answer.returncode, answer.stdout, answer.stderr) == (direct.args, 0, data, b"")


def test_failure_is_the_same_one_line_error_as_run_git(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    with pytest.raises(WorkbenchError) as direct:
        run_git(repo, ["rev-parse", "--verify", "no-such-branch"])
    with StartedGit(repo, ["rev-parse", "--verify", "no-such-branch"]) as started, pytest.raises(WorkbenchError) as side:
        started.wait()
    assert str(side.value) == str(direct.value) == "git rev-parse failed: fatal: Needed a single revision"
    with StartedGit(repo, ["rev-parse", "--verify", "no-such-branch"]) as started:
        assert started.wait(check=False).returncode == 128


def test_leaving_without_waiting_stops_the_command(tmp_path: Path) -> None:
    """An error in the work done meanwhile leaves no git process behind (here: git reading a pipe
    nobody writes to is stopped, not orphaned)."""
    repo = _repo(tmp_path)
    os.mkfifo(repo / "never-written")
    with pytest.raises(KeyError), StartedGit(repo, ["hash-object", "never-written"]) as started:
        proc = started._proc  # noqa: SLF001 - the test looks at the process it must not leave behind
        assert proc is not None
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=0.5)  # still running: blocked on the pipe
        raise KeyError("the caller's work failed")
    assert proc is not None and proc.poll() is not None
    with pytest.raises(ProcessLookupError):
        os.kill(proc.pid, 0)


def test_pending_scripts_equal_the_scripts_computed_at_once(tmp_path: Path) -> None:
    repo_dir = _repo(tmp_path)
    repo = GitRepo.open(repo_dir)

    def store(data: bytes) -> str:
        return run_git(repo_dir, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()

    pairs = [(store(b"a\nb\nc\n"), store(b"a\nB\nc\nd\n")), (None, store(b"x\n"))]
    with PendingScripts(repo, pairs) as pending:
        assert pending.scripts() == [((1, 1, 1, 1), (3, 0, 3, 1)), ((0, 0, 0, 1),)]
    with PendingScripts(repo, []) as nothing:
        assert nothing.scripts() == []


def test_a_sync_left_before_its_snapshot_leaves_no_git_and_no_trace(sample_merge_commit: SampleSync) -> None:
    """``start_sync`` starts git's merge; leaving without the snapshot (an error meanwhile) stops it, and
    ``.git`` is as it was (the merge's objects went to the quarantine, freshened times put back)."""
    path = sample_merge_commit.path
    objects = path / ".git" / "objects"
    before = {p: p.stat().st_mtime_ns for p in objects.rglob("*") if p.is_file()}
    repo = GitRepo.open(path)
    with pytest.raises(KeyError), start_sync(repo, sample_merge_commit.merge) as started:
        proc = started.merging._git._proc  # noqa: SLF001 - the test looks at the process it must not leave behind
        assert proc is not None
        raise KeyError("the caller's work failed")
    assert proc is not None and proc.poll() is not None
    assert {p: p.stat().st_mtime_ns for p in objects.rglob("*") if p.is_file()} == before
    with start_sync(repo, sample_merge_commit.merge) as started:
        assert started.snapshot() == load_sync(repo, sample_merge_commit.merge)


def test_a_merge_in_progress_hashes_the_files_the_index_has_unmerged_while_git_merges(
    sample_in_progress: SampleSync,
) -> None:
    """The early hashing covers the index's conflicts (only the asked paths), and the snapshot is the one
    read in turns: the same results, blob ids and bytes, and the same for one path."""
    repo = GitRepo.open(sample_in_progress.path)
    unmerged = sorted(repo.index_unmerged())
    with start_sync(repo) as started:
        assert started.cleaning is not None and started.cleaning.paths == frozenset(unmerged)
        whole = started.snapshot()
    assert whole == load_sync(repo)
    assert set(unmerged) <= set(whole.results) and all(whole.results[p].oid for p in unmerged)
    with start_sync(repo, paths={unmerged[0]}) as started:
        assert started.cleaning is not None and started.cleaning.paths == {unmerged[0]}
        one = started.snapshot()
    assert one.results == {unmerged[0]: whole.results[unmerged[0]]}


def test_a_larger_delta_base_cache_is_asked_for_when_nothing_sets_one(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert delta_cache_options(repo) == ("-c", f"core.deltaBaseCacheLimit={DELTA_BASE_CACHE}")
    assert GitRepo.open(repo).reading_options() == delta_cache_options(repo)


def test_the_users_delta_base_cache_is_kept_from_the_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    run_git(repo, ["config", "core.deltaBaseCacheLimit", "32m"])
    assert delta_cache_options(repo) == ()


def test_the_users_delta_base_cache_is_kept_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.deltaBaseCacheLimit")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "8m")
    assert delta_cache_options(repo) == ()
