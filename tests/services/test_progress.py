"""Loading in phases: an outline first (paths and kinds), then files, then stages."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from workbench.analysis.engine import outline
from workbench.git import snapshot
from workbench.git.history import side_history
from workbench.git.repo import GitRepo
from workbench.git.snapshot import load_sync
from workbench.git.types import SideHistory
from workbench.sample import SampleSync
from workbench.services.sync import LoadProgress, SyncRequest, open_sync


def test_outline_then_files_then_every_stage(sample_in_progress: SampleSync) -> None:
    seen: list[LoadProgress] = []
    _repo, final = open_sync(SyncRequest(repo=sample_in_progress.path), seen.append)
    assert seen[0].phase == "outline" and seen[0].analysis is not None
    outline = seen[0].analysis
    assert not outline.complete and final.complete
    assert [f.path for f in outline.files] == [f.path for f in final.files]
    assert all(not f.hunks for f in outline.files)
    files = [p for p in seen if p.phase == "files"]
    assert files[-1].done == files[-1].total == len(final.files)
    stages = [p.phase for p in seen if p.phase not in ("outline", "files")]
    assert stages == ["apply_policy", "audit_api", "find_deleted", "find_duplicates", "score_files", "score_risk",
                      "score_edits", "suggest_resolutions", "build_worklist"]
    assert [p.done for p in seen if p.phase in stages] == list(range(len(stages)))


def test_the_outline_comes_before_the_histories_are_read(
    sample_merge_commit: SampleSync, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file list can be shown while git's histories and line scripts are still being read: the outline
    is reported before any of them is, and it is the outline of the whole snapshot."""
    events: list[str] = []
    def recorded(repo: GitRepo, tip: str, base: str | None, paths: Iterable[str]) -> SideHistory:
        events.append("history")
        return side_history(repo, tip, base, paths)

    monkeypatch.setattr(snapshot, "side_history", recorded)
    seen: list[LoadProgress] = []

    def heard(progress: LoadProgress) -> None:
        events.append(progress.phase)
        seen.append(progress)

    repo, final = open_sync(SyncRequest(repo=sample_merge_commit.path, cache=False), heard)
    assert events[0] == "outline" and events[1:3] == ["history", "history"]
    whole = outline(load_sync(repo, final.merge), repo.read_blob)
    assert seen[0].analysis == whole
