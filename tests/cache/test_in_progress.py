"""A merge in progress is cached under the state of its index and work tree, and never served stale.

Each change below is one a review found a first cache blind to (it keyed
on ``git status``): after it, a warm run must print what ``--no-cache``
prints, because the key moved.  ``RACY_SECONDS`` is 0 here (files the
fixtures just copied would otherwise be too recent to store).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.git import work_state
from workbench.git.identity import SyncIdentity, identify_sync
from workbench.git.repo import GitRepo
from workbench.sample import SampleSync
from workbench.services import sync
from workbench.services.sync import SyncRequest, _verified_inputs, open_sync

CLEAN = "megatron/core/fusions/fused_router.py"
"""A tracked file of the sample that neither side changed."""
CONFLICTED = "megatron/legacy/model/rms_norm.py"


@pytest.fixture(autouse=True)
def _no_racy_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(work_state, "RACY_SECONDS", 0.0)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _run(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> tuple[int, str]:
    status = main(["analyze", "--repo", str(repo), "--json", *extra])
    return status, capsys.readouterr().out


def _entries(cache_dir: Path) -> int:
    root = cache_dir / "analyses"
    return len(list(root.glob("*.entry"))) if root.is_dir() else 0


def _identity(repo: Path) -> SyncIdentity:
    found = identify_sync(repo, None, None, None, None)
    assert found is not None and found.work is not None
    return found


def test_a_merge_in_progress_has_the_identity_pygit2_reads(sample_in_progress: SampleSync) -> None:
    identity = _identity(sample_in_progress.path)
    assert (identity.mode, identity.dev, identity.main) == ("in-progress", sample_in_progress.dev,
                                                           sample_in_progress.main)
    request = SyncRequest(repo=sample_in_progress.path)
    assert _verified_inputs(GitRepo.open(sample_in_progress.path), request, identity) is not None


def test_a_warm_run_prints_exactly_the_cold_runs_json(sample_in_progress: SampleSync, isolated_cache: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    cold = _run(capsys, sample_in_progress.path)
    assert _entries(isolated_cache) == 2  # the analysis and the printed document
    assert _run(capsys, sample_in_progress.path) == cold
    assert _run(capsys, sample_in_progress.path, "--no-cache") == cold


def _crlf(repo: Path) -> None:
    target = repo / CLEAN
    target.write_bytes(target.read_bytes().replace(b"\n", b"\r\n"))


def _touch(repo: Path) -> None:
    target = repo / CLEAN
    info = target.stat()
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns + 5_000_000_000))


def _skip_worktree_edit(repo: Path) -> None:
    (repo / CLEAN).write_text("def route():\n    return None\n", encoding="utf-8")


CHANGES: dict[str, tuple[Callable[[Path], None] | None, Callable[[Path], None]]] = {
    "untracked policy file": (None, lambda r: (r / ".workbench.toml").write_text(
        'override_from_main = ["README.md"]\nkeep_dev = ["megatron/core/*.py"]\n', encoding="utf-8")),
    "untracked nested attributes": (None, lambda r: (r / "megatron/core/.gitattributes").write_text(
        "*.py -diff binary\n", encoding="utf-8")),
    "skip-worktree file edited": (lambda r: _git(r, "update-index", "--skip-worktree", CLEAN), _skip_worktree_edit),
    "assume-unchanged file edited": (lambda r: _git(r, "update-index", "--assume-unchanged", CLEAN),
                                     _skip_worktree_edit),
    "line ends only, under core.autocrlf": (lambda r: _git(r, "config", "core.autocrlf", "true"), _crlf),
    "file only touched": (None, _touch),
    "executable bit, core.fileMode=false": (lambda r: _git(r, "config", "core.fileMode", "false"),
                                            lambda r: (r / CONFLICTED).chmod(0o755)),
    "conflicted file resolved on disk": (None, lambda r: (r / CONFLICTED).write_text("gone\n", encoding="utf-8")),
    "file staged": (None, lambda r: _git(r, "add", "--", CONFLICTED)),
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_after_a_change_the_warm_run_prints_what_no_cache_prints(
    sample_in_progress: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    repo = sample_in_progress.path
    before, change = CHANGES[name]
    if before is not None:
        before(repo)
    _run(capsys, repo)
    stored = _entries(isolated_cache)
    assert stored == 2
    key = _identity(repo).work
    change(repo)
    now = _identity(repo).work
    assert now is not None and key is not None and now.digest != key.digest
    warm = _run(capsys, repo)
    assert warm == _run(capsys, repo, "--no-cache")
    assert _entries(isolated_cache) == stored + (2 if now.settled else 0)  # the new state's own entries


def test_a_state_with_files_too_recent_is_not_stored(sample_in_progress: SampleSync, isolated_cache: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Within the clock's granularity a file can change and keep its ``lstat``: git's racy-git case."""
    monkeypatch.setattr(work_state, "RACY_SECONDS", 3600.0)
    assert not _identity(sample_in_progress.path).work.settled  # type: ignore[union-attr]
    open_sync(SyncRequest(repo=sample_in_progress.path))
    assert _entries(isolated_cache) == 0


def test_an_index_written_during_the_analysis_is_not_stored(sample_in_progress: SampleSync, isolated_cache: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """git changing the index while the analysis reads it: what was read matches neither state."""
    computing = sync._compute

    def with_a_git_add(*args: object, **kwargs: object) -> object:
        found = computing(*args, **kwargs)  # type: ignore[arg-type]
        _git(sample_in_progress.path, "add", "--", CONFLICTED)
        return found

    monkeypatch.setattr(sync, "_compute", with_a_git_add)
    open_sync(SyncRequest(repo=sample_in_progress.path))
    assert _entries(isolated_cache) == 0


def test_an_index_git_only_rewrote_is_not_stored_but_the_next_run_is(
    sample_in_progress: SampleSync, isolated_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``git status`` refreshes and rewrites the index, same listing: that run stores nothing, the next does."""
    computing = sync._compute

    def with_a_status(*args: object, **kwargs: object) -> object:
        found = computing(*args, **kwargs)  # type: ignore[arg-type]
        _git(sample_in_progress.path, "update-index", "-q", "--unmerged", "--force-write-index", "--refresh")
        return found

    before = _identity(sample_in_progress.path)
    monkeypatch.setattr(sync, "_compute", with_a_status)
    open_sync(SyncRequest(repo=sample_in_progress.path))
    assert _entries(isolated_cache) == 0
    after = _identity(sample_in_progress.path).work
    assert after is not None and before.work is not None
    assert after.digest == before.work.digest and after.stamp != before.work.stamp
    monkeypatch.setattr(sync, "_compute", computing)
    open_sync(SyncRequest(repo=sample_in_progress.path))
    assert _entries(isolated_cache) == 1


def test_a_submodule_has_no_identity(sample_in_progress: SampleSync) -> None:
    """``diff-index`` reads a submodule's own checkout, which no ``lstat`` of the work tree tells."""
    _git(sample_in_progress.path, "update-index", "--add", "--cacheinfo", f"160000,{sample_in_progress.dev},vendored")
    assert identify_sync(sample_in_progress.path, None, None, None, None) is None
