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


def _filter_script(repo: Path, body: str) -> None:
    script = repo / "clean.sh"
    script.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    script.chmod(0o755)


def _filtered_by_script(repo: Path) -> None:
    _git(repo, "config", "filter.x.clean", "./clean.sh")
    (repo / ".git" / "info" / "attributes").write_text(f"{CONFLICTED} filter=x\n", encoding="utf-8")
    _filter_script(repo, "cat")


def _relative_attributes_file(repo: Path) -> None:
    _git(repo, "config", "core.attributesFile", "attrs")
    _git(repo, "config", "filter.up.clean", "tr a-z A-Z")
    (repo / "attrs").write_text("", encoding="utf-8")


def _stat_kept_edit(repo: Path) -> None:
    """Under ``core.trustctime=false`` an edit of the same size with its mtime put back is no change to git."""
    _git(repo, "config", "core.trustctime", "false")
    _git(repo, "update-index", "-q", "--unmerged", "--refresh")
    target = repo / CLEAN
    info = target.stat()
    data = target.read_bytes()
    target.write_bytes(data[:-2] + b"#\n")
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


def _stat_reset(repo: Path) -> None:
    listing = subprocess.run(["git", "-C", str(repo), "ls-files", "-s", "--", CLEAN], capture_output=True,
                             check=True, text=True).stdout.split()
    _git(repo, "update-index", "--cacheinfo", f"{listing[0]},{listing[1]},{CLEAN}")


def _recreated(repo: Path) -> None:
    (repo / CLEAN).parent.mkdir(parents=True, exist_ok=True)
    (repo / CLEAN).write_text("hello\n", encoding="utf-8")


def _linked_to_itself(repo: Path) -> None:
    """The directory moved aside and a symlink to it in its place: every file's ``lstat`` is the same."""
    folder = (repo / CLEAN).parent
    folder.rename(folder.with_name("moved"))
    folder.symlink_to("moved")


def _shell_script(repo: Path) -> None:
    _filtered_by_script(repo)
    _git(repo, "config", "filter.x.clean", "sh ./clean.sh")


CHANGES: dict[str, tuple[Callable[[Path], object] | None, Callable[[Path], object]]] = {
    "untracked file at a path of git's result": (lambda r: _git(r, "rm", "-q", "-f", "--", CLEAN), _recreated),
    "relative core.attributesFile": (_relative_attributes_file, lambda r: (r / "attrs").write_text(
        f"{CONFLICTED} filter=up\n", encoding="utf-8")),
    "filter script edited in place": (_filtered_by_script, lambda r: _filter_script(r, "tr a-z A-Z")),
    "index stat reset, core.trustctime=false": (_stat_kept_edit, _stat_reset),
    "directory replaced by a symlink to itself": (None, _linked_to_itself),
    "script a shell runs edited in place": (_shell_script, lambda r: _filter_script(r, "tr a-z A-Z")),
    "file out of the index edited": (lambda r: _git(r, "rm", "-q", "--cached", "--", CONFLICTED),
                                     lambda r: (r / CONFLICTED).write_text("edited\n", encoding="utf-8")),
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
    key = _identity(repo)
    change(repo)
    now = _identity(repo)
    assert now.work is not None and key.work is not None
    assert (now.settings, now.work.digest) != (key.settings, key.work.digest)
    warm = _run(capsys, repo)
    assert warm == _run(capsys, repo, "--no-cache")
    assert _entries(isolated_cache) == stored + (2 if now.work.settled else 0)  # the new state's own entries


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

    _git(sample_in_progress.path, "update-index", "-q", "--unmerged", "--refresh")  # the copy's times, refreshed
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


def test_settings_git_config_alone_reads_are_in_the_key(sample_in_progress: SampleSync, isolated_cache: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``GIT_CONFIG`` points ``git config`` alone elsewhere: the digest still reads the repository's settings."""
    repo = sample_in_progress.path
    (repo / ".git" / "info" / "attributes").write_text(f"{CONFLICTED} filter=up\n", encoding="utf-8")
    empty = tmp_path / "empty.cfg"
    empty.write_text("", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG", str(empty))
    _run(capsys, repo)
    _git(repo, "config", "--file", str(repo / ".git" / "config"), "filter.up.clean", "tr a-z A-Z")
    warm = _run(capsys, repo)
    assert warm == _run(capsys, repo, "--no-cache")
    assert _entries(isolated_cache) == 4  # the filter changed the key


@pytest.mark.parametrize(("variable", "value"), [("GIT_NO_REPLACE_OBJECTS", "1"),
                                                 ("GIT_REPLACE_REF_BASE", "refs/none/")])
def test_git_variables_are_in_the_key(sample_in_progress: SampleSync, isolated_cache: Path,
                                      capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                      variable: str, value: str) -> None:
    _run(capsys, sample_in_progress.path)
    monkeypatch.setenv(variable, value)
    assert _run(capsys, sample_in_progress.path) == _run(capsys, sample_in_progress.path, "--no-cache")
    assert _entries(isolated_cache) == 4  # its own key


@pytest.mark.parametrize("written", [b"%s", b"%s\r\n", b"\n%s\n", b" %s\n"])
def test_a_merge_head_libgit2_would_refuse_has_no_identity(sample_in_progress: SampleSync, written: bytes) -> None:
    """git reads these; libgit2 refuses them, so a warm run would print what the cold run cannot."""
    (sample_in_progress.path / ".git" / "MERGE_HEAD").write_bytes(written % sample_in_progress.main.encode())
    assert identify_sync(sample_in_progress.path, None, None, None, None) is None


def test_a_policy_file_edited_during_the_analysis_is_not_stored(sample_in_progress: SampleSync, isolated_cache: Path,
                                                                monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    """Its bytes are in the key: read before the analysis and again after, they must be the same."""
    policy = tmp_path / "policy.toml"
    policy.write_text('keep_dev = ["pyproject.toml"]\n', encoding="utf-8")
    computing = sync._compute

    def with_an_edit(*args: object, **kwargs: object) -> object:
        found = computing(*args, **kwargs)  # type: ignore[arg-type]
        policy.write_text('keep_dev = ["uv.lock"]\n', encoding="utf-8")
        return found

    monkeypatch.setattr(sync, "_compute", with_an_edit)
    open_sync(SyncRequest(repo=sample_in_progress.path, policy=str(policy)))
    assert _entries(isolated_cache) == 0


def test_a_file_taken_out_of_the_index_is_not_the_result(sample_in_progress: SampleSync) -> None:
    """``git rm --cached`` leaves the file on disk, and out of the commit: the result has none."""
    _git(sample_in_progress.path, "rm", "-q", "--cached", "--", CONFLICTED)
    assert (sample_in_progress.path / CONFLICTED).is_file()
    _, analysis = open_sync(SyncRequest(repo=sample_in_progress.path, cache=False))
    entry = analysis.file(CONFLICTED)
    assert entry is not None and not entry.result_present


def test_a_split_index_has_no_identity(sample_in_progress: SampleSync) -> None:
    """libgit2 cannot read it (the cold run says so): a warm run must not print what the cold one cannot."""
    _git(sample_in_progress.path, "update-index", "--split-index")
    assert identify_sync(sample_in_progress.path, None, None, None, None) is None


def test_the_configuration_libgit2_reads_is_in_the_key(sample_in_progress: SampleSync, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``GIT_CONFIG_GLOBAL`` hides ``~/.gitconfig`` from git, not from pygit2 (a report's links read it)."""
    home = tmp_path / "home"
    home.mkdir()
    empty = home / "empty.gitconfig"
    empty.write_text("", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(empty))
    before = _identity(sample_in_progress.path).settings
    (home / ".gitconfig").write_text('[remote "origin"]\n\turl = https://github.com/o/r.git\n', encoding="utf-8")
    assert _identity(sample_in_progress.path).settings != before
