"""Matching acknowledgements to hunks: by fingerprint, and only for the files that have one."""

from __future__ import annotations

import pytest

from workbench.resolve import acks
from workbench.resolve.acks import Ack, fingerprint, matched
from workbench.resolve.splice import Choice
from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest, open_sync


def test_only_acknowledged_files_are_fingerprinted(sample_merge_commit: SampleSync,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _repo, analysis = open_sync(SyncRequest(repo=str(sample_merge_commit.path), cache=False))
    entry = next(e for e in analysis.files if e.all_hunks)
    assert len([e for e in analysis.files if e.all_hunks]) > 1  # other files' hunks are there to be skipped
    hunk = entry.all_hunks[-1]
    given = [Ack(entry.path, fingerprint(entry.path, hunk), Choice.MAIN, "checked", "me")]
    taken: list[str] = []

    def counted(path: str, of: object) -> str:
        taken.append(path)
        return fingerprint(path, of)  # type: ignore[arg-type]

    monkeypatch.setattr(acks, "fingerprint", counted)
    assert matched(given, analysis) == {(entry.path, hunk.index): given[0]}
    assert set(taken) == {entry.path} and len(taken) == len(entry.all_hunks)
    taken.clear()
    assert matched([], analysis) == {} and taken == []
