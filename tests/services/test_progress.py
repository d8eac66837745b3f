"""Loading in phases: an outline first (paths and kinds), then files, then stages."""

from __future__ import annotations

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
    assert stages and stages[-3:] == ["score_risk", "score_edits", "reword"]
    assert [p.done for p in seen if p.phase in stages] == list(range(len(stages)))
