"""Opening the sync of a repository a test built: the one place tests call ``open_sync``.

Each helper names the sync the way the command line does (a preview of
``dev`` and ``main``, a merge commit REV, the merge in progress) and returns
what the test reads: the analysis, the repository with it, or a session.
"""

from __future__ import annotations

from pathlib import Path

from workbench.analysis.model import SyncAnalysis
from workbench.git.repo import GitRepo
from workbench.resolve.session import Session
from workbench.services.sync import SyncRequest, open_sync


def open_analysis(path: Path | str, *, rev: str | None = None, dev: str | None = None, main: str | None = None,
                  result: str | None = None, policy: str | None = None) -> tuple[GitRepo, SyncAnalysis]:
    """The repository and its sync's analysis, the rest as ``SyncRequest``'s fields."""
    return open_sync(SyncRequest(repo=path, rev=rev, dev=dev, main=main, result=result, policy=policy))


def analyze(path: Path | str, **request: str | None) -> SyncAnalysis:
    """The sync's analysis alone."""
    return open_analysis(path, **request)[1]


def analyze_preview(path: Path | str, dev: str = "dev", main: str = "main", **request: str | None) -> SyncAnalysis:
    """What ``git merge MAIN -X theirs`` onto DEV would do, scored."""
    return analyze(path, dev=dev, main=main, **request)


def analyze_repo(path: Path | str, rev: str | None = None, **request: str | None) -> SyncAnalysis:
    """A merge commit REV, or the merge in progress when REV is None."""
    return analyze(path, rev=rev, **request)


def open_session(path: Path | str, **request: str | None) -> tuple[GitRepo, Session]:
    """The repository and a session to decide in, reading blobs from it (what the app and mergetool open)."""
    repo, analysis = open_analysis(path, **request)
    return repo, Session(analysis, read_blob=repo.read_blob)
