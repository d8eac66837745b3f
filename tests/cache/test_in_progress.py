"""A merge in progress is cached under the digest of its index and work tree, and only under it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import workbench.services.sync as sync_module
from workbench.cli import main
from workbench.git.identity import identify_sync
from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest, open_sync

RESTORED = "megatron/legacy/model/rms_norm.py"
"""Deleted by main, modified by dev: left unmerged in the sample's merge."""
CONFLICTED = "megatron/core/transformer/transformer_layer.py"


def _analyze(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> str:
    assert main(["analyze", "--json", "--repo", str(repo), *args]) == 0
    return capsys.readouterr().out


def _entries(cache_dir: Path) -> list[Path]:
    root = cache_dir / "analyses"
    return sorted(root.glob("*.entry")) if root.is_dir() else []


def _digest(repo: Path) -> str | None:
    found = identify_sync(repo, None, None, None, None)
    assert found is not None and found.mode == "in-progress"
    return found.worktree


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the analyses computed (not read from the cache)."""
    calls: list[int] = []
    compute = sync_module._compute

    def counting(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        calls.append(1)
        return compute(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sync_module, "_compute", counting)
    return calls


def test_a_second_run_on_the_same_merge_in_progress_prints_the_cold_json(
    sample_in_progress: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], computed: list[int]
) -> None:
    repo = sample_in_progress.path
    cold = _analyze(capsys, repo)
    assert len(computed) == 1 and len(_entries(isolated_cache)) == 2
    assert _analyze(capsys, repo) == cold
    assert open_sync(SyncRequest(repo=repo))[1].files  # the analysis entry serves the app
    assert len(computed) == 1
    assert _analyze(capsys, repo, "--no-cache") == cold
    assert len(computed) == 2


def test_editing_or_staging_a_file_is_a_new_key(
    sample_in_progress: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], computed: list[int]
) -> None:
    repo = sample_in_progress.path
    before = _analyze(capsys, repo)
    first = _digest(repo)
    path = repo / CONFLICTED
    path.write_bytes(path.read_bytes() + b"# resolved by hand\n")
    edited = _analyze(capsys, repo)
    assert len(computed) == 2 and edited != before and _digest(repo) != first
    assert edited == _analyze(capsys, repo, "--no-cache")
    subprocess.run(["git", "add", CONFLICTED], cwd=repo, check=True)
    staged = _digest(repo)
    assert staged not in (first, None)
    _analyze(capsys, repo)
    assert len(computed) == 4
    path.unlink()  # a tracked file gone from the work tree
    assert _digest(repo) not in (first, staged, None)


def test_editing_a_file_the_merge_left_alone_changes_the_key(sample_in_progress: SampleSync) -> None:
    repo = sample_in_progress.path
    first = _digest(repo)
    subprocess.run(["git", "diff", "--quiet", "--", "README.md"], cwd=repo, check=True)  # clean: as in the index
    readme = repo / "README.md"
    readme.write_bytes(readme.read_bytes() + b"More words.\n")
    assert _digest(repo) not in (first, None)


def test_an_unmerged_file_taken_one_way_changes_the_key(sample_in_progress: SampleSync) -> None:
    repo = sample_in_progress.path
    first = _digest(repo)
    subprocess.run(["git", "add", RESTORED], cwd=repo, check=True)  # the index loses the file's stages
    assert _digest(repo) not in (first, None)


def test_untracked_files_are_not_part_of_the_result_nor_of_the_key(
    sample_in_progress: SampleSync, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file nobody added is not in what ``git commit`` records: the deleted-file check does not see it."""
    repo = sample_in_progress.path
    deleted = "megatron/core/transformer/custom_layers/transformer_engine.py"
    subprocess.run(["git", "rm", "-q", "--cached", deleted], cwd=repo, check=True)
    assert (repo / deleted).is_file()  # still in the work tree, untracked now
    first = _digest(repo)
    cold = _analyze(capsys, repo, "--no-cache")
    assert deleted in {d["path"] for d in json.loads(cold)["deleted_files"]}
    (repo / "notes.txt").write_text("scratch\n")
    assert _digest(repo) == first
    assert _analyze(capsys, repo, "--no-cache") == cold


def test_nothing_is_cached_while_a_clean_filter_or_sparse_checkout_reads_the_work_tree(
    sample_in_progress: SampleSync, isolated_cache: Path
) -> None:
    repo = sample_in_progress.path
    subprocess.run(["git", "config", "filter.lfs.clean", "cat"], cwd=repo, check=True)
    assert identify_sync(repo, None, None, None, None) is None
    open_sync(SyncRequest(repo=repo))
    assert _entries(isolated_cache) == []
    subprocess.run(["git", "config", "--unset", "filter.lfs.clean"], cwd=repo, check=True)
    subprocess.run(["git", "config", "core.sparseCheckout", "true"], cwd=repo, check=True)
    assert identify_sync(repo, None, None, None, None) is None


def test_a_file_changed_while_the_analysis_runs_stores_nothing(
    sample_in_progress: SampleSync, isolated_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What was read then belongs to neither state of the work tree."""
    repo = sample_in_progress.path
    compute = sync_module._compute

    def edited_meanwhile(*args: object, **kwargs: object):  # type: ignore[no-untyped-def]
        analysis = compute(*args, **kwargs)  # type: ignore[arg-type]
        path = repo / CONFLICTED
        path.write_bytes(path.read_bytes() + b"# typed while the analysis ran\n")
        return analysis

    monkeypatch.setattr(sync_module, "_compute", edited_meanwhile)
    open_sync(SyncRequest(repo=repo))
    assert _entries(isolated_cache) == []


def test_an_octopus_merge_has_no_key(sample_in_progress: SampleSync) -> None:
    repo = sample_in_progress.path
    head = (repo / ".git" / "MERGE_HEAD").read_text()
    (repo / ".git" / "MERGE_HEAD").write_text(head + head)
    assert identify_sync(repo, None, None, None, None) is None


def test_a_warm_report_follows_the_acknowledgements_in_the_work_tree(
    sample_in_progress: SampleSync, isolated_cache: Path, capsys: pytest.CaptureFixture[str], computed: list[int]
) -> None:
    """A merge in progress reads ``.workbench/acks.toml`` from the work tree, untracked as it is: it is in the key."""
    repo = str(sample_in_progress.path)

    def report() -> tuple[int, str]:
        status = main(["report", "--repo", repo, "--format", "json", "--fail-on", "high"])
        return status, capsys.readouterr().out

    cold = report()
    assert report() == cold and len(computed) == 1
    gate = json.loads(cold[1])["gate"]
    assert cold[0] == 1 and gate["open"]
    hunk = gate["open"][0]
    assert main(["ack", "--repo", repo, "--file", hunk["path"], "--hunk", str(hunk["index"] + 1),
                 "--reason", "checked by hand"]) == 0
    capsys.readouterr()
    acked = report()  # a new document, made from the cached analysis (the acknowledgements are not in it)
    assert acked != cold and len(json.loads(acked[1])["gate"]["open"]) == len(gate["open"]) - 1
    assert report() == acked and len(computed) == 1
    assert main(["report", "--repo", repo, "--format", "json", "--fail-on", "high", "--no-cache"]) == acked[0]
    assert capsys.readouterr().out == acked[1]
