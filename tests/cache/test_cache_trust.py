"""The cache is believed only when this user's key signed it, and only in a directory no other user can write.

Whoever can write the cache directory (a shared ``XDG_CACHE_HOME``, a CI cache
restored from another branch) must not be able to make ``report --fail-on``
print anything, nor run code by planting a pickle: an entry is authenticated
with a per-user key kept 0600 outside the cache, and a forged, replayed or
damaged one is computed again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from pathlib import Path

import pytest

from workbench.cache import DiskCache
from workbench.cache.store import MAGIC, key_file
from workbench.cli import main
from workbench.sample import SampleSync


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _entries(cache_dir: Path) -> list[Path]:
    root = cache_dir / "analyses"
    return sorted(root.glob("*.entry")) if root.is_dir() else []


class _Planted:
    """A pickle that, when loaded, creates a file: proof that loading an entry ran code."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Path.touch, (self.marker,))


@pytest.mark.parametrize("magic", ["current", "old"])
def test_a_planted_pickle_is_never_loaded(sample_merge_commit: SampleSync, isolated_cache: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str], magic: str) -> None:
    repo = str(sample_merge_commit.path)
    cold = _run(capsys, "report", "--repo", repo, "--format", "text", "--fail-on", "high")
    assert cold[0] == 1
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_Planted(marker))
    for entry in _entries(isolated_cache):
        header = MAGIC if magic == "current" else b"workbench-cache/1\n"
        entry.write_bytes(header + payload + hashlib.sha256(payload).digest())
    assert _run(capsys, "report", "--repo", repo, "--format", "text", "--fail-on", "high") == cold
    assert not marker.exists(), "loading a cache entry ran code"


def test_a_forged_document_is_not_served(sample_merge_commit: SampleSync, isolated_cache: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A report's text planted with a valid checksum (the gate "passed") is computed again, and the gate fails."""
    repo = str(sample_merge_commit.path)
    cold = _run(capsys, "report", "--repo", repo, "--format", "md", "--fail-on", "high")
    assert cold[0] == 1
    forged = b"all clear\n"
    for entry in _entries(isolated_cache):
        entry.write_bytes(MAGIC + forged + hashlib.sha256(forged).digest())
    assert _run(capsys, "report", "--repo", repo, "--format", "md", "--fail-on", "high") == cold


def test_an_entry_moved_under_another_key_is_not_believed(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path / "c")
    assert cache.put("a" * 64, b"the answer for a")
    cache.path("a" * 64).rename(cache.path("b" * 64))
    assert cache.get("b" * 64) is None
    assert cache.put("c" * 64, b"the answer for c")
    assert bytes(cache.get("c" * 64) or b"") == b"the answer for c"


def test_another_users_key_cannot_sign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Entries signed with one key are absent for another (a cache restored from another machine or user)."""
    cache = DiskCache(tmp_path / "c")
    assert cache.put("k" * 64, b"payload")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "other-state"))
    assert DiskCache(tmp_path / "c").get("k" * 64) is None


def test_the_key_is_private_and_outside_the_cache(isolated_cache: Path, tmp_path: Path) -> None:
    cache = DiskCache(isolated_cache / "analyses")
    assert cache.put("k" * 64, b"payload")
    key = key_file()
    assert key.is_file() and not key.is_symlink()
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert isolated_cache not in key.parents
    assert stat.S_IMODE(key.parent.stat().st_mode) & 0o077 == 0


@pytest.mark.parametrize("problem", ["loose", "symlink"])
def test_a_key_others_could_read_or_swap_turns_the_cache_off(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch, problem: str) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    cache = DiskCache(tmp_path / "c")
    assert cache.put("k" * 64, b"payload")
    key = key_file()
    if problem == "loose":
        key.chmod(0o644)
    else:
        elsewhere = tmp_path / "their-key"
        elsewhere.write_bytes(key.read_bytes())
        key.unlink()
        key.symlink_to(elsewhere)
    fresh = DiskCache(tmp_path / "c")
    assert fresh.get("k" * 64) is None
    assert not fresh.put("j" * 64, b"other")
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cache" in err and str(key) in err


@pytest.mark.parametrize("bits", [0o002, 0o020])
def test_a_cache_directory_others_can_write_is_not_used(sample_merge_commit: SampleSync, isolated_cache: Path,
                                                        capsys: pytest.CaptureFixture[str], bits: int) -> None:
    repo = str(sample_merge_commit.path)
    isolated_cache.mkdir(parents=True)
    isolated_cache.chmod(0o700 | bits)
    if bits & 0o070:  # a group of others: the directory's group must not be the user's own private one
        others = [g for g in os.getgroups() if g != os.getegid()]
        if os.geteuid() == 0:
            os.chown(isolated_cache, -1, 65534)
        elif others:
            os.chown(isolated_cache, -1, others[0])
        else:
            pytest.skip("no group of other users to give the directory")
    cold = _run(capsys, "analyze", "--json", "--repo", repo, "--no-cache")
    code, out, err = _run(capsys, "analyze", "--json", "--repo", repo)
    assert (code, out) == (0, cold[1])
    assert err.count("\n") == 1 and "writable by other users" in err and str(isolated_cache) in err
    assert _entries(isolated_cache) == []


def test_a_sticky_parent_such_as_tmp_is_not_another_users_directory(tmp_path: Path) -> None:
    """A sticky, world-writable parent (``/tmp``) is fine: nobody else can rename what is in it."""
    sticky = tmp_path / "sticky"
    sticky.mkdir()
    sticky.chmod(0o1777)
    cache = DiskCache(sticky / "mine" / "analyses")
    assert cache.put("k" * 64, b"payload")
    assert bytes(cache.get("k" * 64) or b"") == b"payload"
    assert stat.S_IMODE((sticky / "mine").stat().st_mode) & 0o077 == 0
    assert os.stat(sticky / "mine").st_uid == os.getuid()


def test_the_apps_lookup_does_not_count_an_entry_it_will_not_believe(sample_merge_commit: SampleSync,
                                                                   isolated_cache: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """``look_up`` decides whether the app forks an analysis process: a refused cache is no cache."""
    from workbench.services.sync import SyncRequest, look_up

    repo = str(sample_merge_commit.path)
    assert _run(capsys, "analyze", "--json", "--repo", repo)[0] == 0
    request = SyncRequest(repo=repo)
    assert look_up(request).cached
    isolated_cache.chmod(0o777)
    assert not look_up(request).cached
    assert "writable by other users" in capsys.readouterr().err
