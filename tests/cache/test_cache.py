"""The persistent analysis cache: warm equals cold byte for byte, damage is recomputed, --no-cache, the bound."""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.cache import DiskCache, cache_key, source_digest
from workbench.cache.analyses import load_analysis, save_analysis
from workbench.cache.store import MAGIC
from workbench.cli import main
from workbench.git.repo import GitRepo
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest, _identity, _verified_inputs, open_sync


def _cache_key(repo: GitRepo, request: SyncRequest, kind: str = "analysis") -> str | None:
    """The key the CLI stores ``request``'s analysis under (None: not cached)."""
    inputs = _verified_inputs(repo, request, _identity(request))
    return cache_key(kind, inputs) if inputs is not None else None


def _analyze(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["analyze", "--json", *args]) == 0
    return capsys.readouterr().out


def _entries(cache_dir: Path) -> list[Path]:
    root = cache_dir / "analyses"
    return sorted(root.glob("*.entry")) if root.is_dir() else []


def test_a_warm_run_prints_exactly_the_cold_runs_json(
    sample_merge_commit: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cold = _analyze(capsys, "--repo", str(sample_merge_commit.path))
    entries = _entries(isolated_cache)
    assert len(entries) == 2  # the analysis, and analyze's JSON text
    warm = _analyze(capsys, "--repo", str(sample_merge_commit.path))
    assert warm == cold
    assert _entries(isolated_cache) == entries
    assert _analyze(capsys, "--repo", str(sample_merge_commit.path), "--no-cache") == cold
    # The analysis entry alone (the JSON text gone) gives the same document too.
    inputs = _verified_inputs(GitRepo.open(sample_merge_commit.path), request := SyncRequest(
        repo=sample_merge_commit.path), _identity(request))
    assert inputs is not None
    DiskCache(isolated_cache / "analyses").path(cache_key("analyze-json", {**inputs, "document": {}})).unlink()
    assert _analyze(capsys, "--repo", str(sample_merge_commit.path)) == cold


def test_the_warm_run_reads_the_entry_and_no_cache_does_not(
    sample_merge_commit: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A planted entry under the sync's key is what a cached run returns; --no-cache ignores it."""
    request = SyncRequest(repo=sample_merge_commit.path)
    _repo, analysis = open_sync(replace(request, cache=False))
    assert _entries(isolated_cache) == []
    planted = replace(analysis, files=analysis.files[:1])
    key = _cache_key(GitRepo.open(sample_merge_commit.path), request)
    assert key is not None and save_analysis(DiskCache(isolated_cache / "analyses"), key, planted)
    assert len(open_sync(request)[1].files) == 1
    assert len(open_sync(replace(request, cache=False))[1].files) == len(analysis.files) > 1
    before = {p: p.stat().st_mtime_ns for p in _entries(isolated_cache)}
    _analyze(capsys, "--repo", str(sample_merge_commit.path), "--no-cache")
    assert {p: p.stat().st_mtime_ns for p in _entries(isolated_cache)} == before


@pytest.mark.parametrize("damage", ["truncate", "flip", "foreign", "unreadable"])
def test_a_damaged_entry_is_recomputed_and_rewritten(
    sample_merge_commit: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    cold = _analyze(capsys, "--repo", str(sample_merge_commit.path))
    entries = _entries(isolated_cache)
    cache = DiskCache(isolated_cache / "analyses")
    for entry in entries:
        raw = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(raw[: len(raw) // 2])
        elif damage == "flip":
            entry.write_bytes(raw[:40] + bytes([raw[40] ^ 0xFF]) + raw[41:])
        elif damage == "foreign":
            payload = pickle.dumps({"not": "an analysis"})
            entry.write_bytes(MAGIC + payload + hashlib.sha256(payload).digest())
        else:
            entry.unlink()
            entry.mkdir()
        assert load_analysis(cache, entry.name.removesuffix(".entry")) is None
    assert _analyze(capsys, "--repo", str(sample_merge_commit.path)) == cold
    found: list[Path | None] = [e for e in entries if load_analysis(cache, e.name.removesuffix(".entry")) is not None]
    [analysis_entry] = found or [None]
    if damage == "unreadable":
        assert analysis_entry is None
    else:
        assert analysis_entry is not None
        assert all(cache.get(e.name.removesuffix(".entry")) is not None for e in entries)


def test_the_key_follows_policy_result_and_settings(sample_merge_commit: SampleSync, tmp_path: Path) -> None:
    repo = GitRepo.open(sample_merge_commit.path)
    plain = SyncRequest(repo=sample_merge_commit.path)
    policy = tmp_path / "policy.toml"
    policy.write_text("[tool.workbench]\n", encoding="utf-8")
    keys = {
        _cache_key(repo, plain),
        _cache_key(repo, replace(plain, policy=str(policy))),
        _cache_key(repo, replace(plain, paths=("a.py",))),
        _cache_key(repo, replace(plain, result=sample_merge_commit.dev)),
    }
    policy.write_text("[tool.workbench]\n# edited\n", encoding="utf-8")
    keys.add(_cache_key(repo, replace(plain, policy=str(policy))))
    with open(sample_merge_commit.path / ".git" / "config", "a", encoding="utf-8") as config:
        config.write("[merge]\n\tconflictStyle = diff3\n")
    keys.add(_cache_key(GitRepo.open(sample_merge_commit.path), plain))
    info = sample_merge_commit.path / ".git" / "info"
    info.mkdir(exist_ok=True)
    (info / "attributes").write_text("*.py merge=union\n", encoding="utf-8")
    keys.add(_cache_key(GitRepo.open(sample_merge_commit.path), plain))
    RepoBuilder.open(sample_merge_commit.path).git("replace", sample_merge_commit.main, sample_merge_commit.base)
    keys.add(_cache_key(GitRepo.open(sample_merge_commit.path), plain))
    assert None not in keys and len(keys) == 8
    assert _cache_key(repo, replace(plain, policy=str(tmp_path / "missing.toml"))) is None


def test_the_key_follows_the_default_global_attributes_file(
    sample_merge_commit: SampleSync, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``core.attributesFile``, git reads ``$XDG_CONFIG_HOME/git/attributes``: a merge driver set there
    changes the merge, so it changes the key."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    repo = GitRepo.open(sample_merge_commit.path)
    plain = SyncRequest(repo=sample_merge_commit.path)
    before = _cache_key(repo, plain)
    (tmp_path / "xdg" / "git").mkdir(parents=True)
    (tmp_path / "xdg" / "git" / "attributes").write_text("*.py merge=union\n", encoding="utf-8")
    assert _cache_key(repo, plain) not in (before, None)


def test_the_source_digest_changes_with_any_package_file(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "a.py").write_text("x = 1\n", encoding="utf-8")
    before = source_digest(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0")
    assert source_digest.__wrapped__(package) == before
    (package / "sub" / "a.py").write_text("x = 2\n", encoding="utf-8")
    assert source_digest.__wrapped__(package) != before


def test_the_size_bound_evicts_the_least_recently_used(tmp_path: Path) -> None:
    cache = DiskCache(tmp_path / "c", max_bytes=3 * (1000 + len(MAGIC) + 32))
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / ".tmp-killed").write_bytes(b"x")
    os.utime(tmp_path / "c" / ".tmp-killed", (0, 0))
    for n, key in enumerate("abcd"):
        assert cache.put(key, bytes([n]) * 1000)
        os.utime(cache.path(key), (n, n))
    assert cache.get("a") is None
    assert cache.get("b") is not None
    assert cache.put("e", b"e" * 1000)
    assert cache.get("c") is None and cache.get("b") is not None
    total = sum(p.stat().st_size for p in (tmp_path / "c").iterdir())
    assert total <= cache.max_bytes
    assert not cache.put("huge", b"h" * cache.max_bytes)
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["b.entry", "d.entry", "e.entry"]


def test_computing_an_analysis_leaves_the_collector_as_it_was(sample_branches: SampleSync) -> None:
    import gc

    before = gc.get_threshold()
    open_sync(SyncRequest(repo=sample_branches.path, dev=sample_branches.dev, main=sample_branches.main, cache=False))
    assert gc.get_threshold() == before


def test_an_analysis_too_big_for_the_bound_is_not_stored(sample_merge_commit: SampleSync, isolated_cache: Path) -> None:
    _repo, analysis = open_sync(SyncRequest(repo=sample_merge_commit.path, cache=False))
    roomy = DiskCache(isolated_cache / "roomy")
    assert save_analysis(roomy, "k", analysis)
    size = roomy.path("k").stat().st_size
    tight = DiskCache(isolated_cache / "tight", max_bytes=size // 2)
    assert not save_analysis(tight, "k", analysis)
    assert not (isolated_cache / "tight").exists() or list((isolated_cache / "tight").iterdir()) == []


def test_the_key_follows_python_and_the_libraries_that_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """An upgraded pygit2 or tree-sitter grammar can read the same commits otherwise."""
    from workbench.cache import keys

    before = keys.cache_key("analysis", {"x": 1})
    assert any(name.startswith("pygit2-") for name in keys.runtime_versions())
    monkeypatch.setattr(keys, "runtime_versions", lambda: ("pygit2-0.0.0",))
    assert keys.cache_key("analysis", {"x": 1}) != before


def test_the_key_follows_the_formatters_the_suggestions_lay_main_s_text_out_with() -> None:
    """Installing, upgrading or removing black or isort changes the suggested texts: a cached analysis must miss."""
    import importlib.metadata

    from workbench.cache import keys

    names = keys.runtime_versions()
    for formatter in ("black", "isort"):
        try:
            version = importlib.metadata.version(formatter)
        except importlib.metadata.PackageNotFoundError:
            continue
        assert f"{formatter}-{version}" in names
