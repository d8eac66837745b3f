"""Helpers for the risk tests: analyse a built repository and find hunks and signals."""

from __future__ import annotations

from pathlib import Path

from workbench.analysis.model import FileAnalysis, Hunk, Signal, SyncAnalysis
from workbench.services.sync import SyncRequest, open_sync


def analyze_preview(path: Path | str, dev: str = "dev", main: str = "main") -> SyncAnalysis:
    """What ``git merge MAIN -X theirs`` onto DEV would do, scored."""
    return open_sync(SyncRequest(repo=path, dev=dev, main=main))[1]


def analyze_repo(path: Path | str, rev: str | None = None) -> SyncAnalysis:
    """A merge commit REV, or the merge in progress when REV is None."""
    return open_sync(SyncRequest(repo=path, rev=rev))[1]


def only_file(analysis: SyncAnalysis, path: str) -> FileAnalysis:
    found = analysis.file(path)
    assert found is not None, [f.path for f in analysis.files]
    return found


def kinds(hunk: Hunk) -> list[str]:
    return [s.kind for s in hunk.signals]


def signal(hunk: Hunk, kind: str) -> Signal:
    found = [s for s in hunk.signals if s.kind == kind]
    assert found, f"no {kind} on hunk {hunk.index}: {[(s.kind, s.message) for s in hunk.signals]}"
    return found[0]
