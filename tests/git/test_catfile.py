"""The blob reader: what it reads, and the delta-base cache it asks git for unless the user chose one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from workbench.git.catfile import DELTA_BASE_CACHE, CatFile, _cache_setting
from workbench.git.runner import run_git


def _repo(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    return path


def test_reads_blobs_and_says_when_one_is_missing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    data = b"first\nsecond\n"
    oid = run_git(repo, ["hash-object", "-w", "--stdin"], input_bytes=data).stdout.decode().strip()
    reader = CatFile(repo)
    assert reader.read(oid) == ("blob", data)
    assert reader.read("0" * 40) is None


def test_raises_the_delta_base_cache_when_nothing_sets_it(tmp_path: Path) -> None:
    assert _cache_setting(_repo(tmp_path), None) == ["-c", f"core.deltaBaseCacheLimit={DELTA_BASE_CACHE}"]


def test_keeps_the_users_delta_base_cache_from_the_repository(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    run_git(repo, ["config", "core.deltaBaseCacheLimit", "32m"])
    assert _cache_setting(repo, None) == []


def test_keeps_the_users_delta_base_cache_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.deltaBaseCacheLimit")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", "8m")
    assert _cache_setting(repo, None) == []
