"""Finding what a test checks in an analysis: a file, a hunk's signal kinds, a signal, API findings."""

from __future__ import annotations

from workbench.analysis.model import ApiMismatch, FileAnalysis, Hunk, Signal, SyncAnalysis


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


def findings(analysis: SyncAnalysis, kind: str | None = None, path: str | None = None) -> list[ApiMismatch]:
    """The API mismatches of one kind and/or at one path."""
    return [
        f for f in analysis.api_mismatches
        if (kind is None or f.kind == kind) and (path is None or f.path == path)
    ]
