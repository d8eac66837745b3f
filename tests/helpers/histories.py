"""Build a small dev/main history and analyse its sync, for the audit and policy tests."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

from workbench.analysis.model import ApiMismatch, SyncAnalysis
from workbench.sample import RepoBuilder
from workbench.sample.bot import finish_sync, start_sync
from workbench.services.sync import SyncRequest, open_sync

Files = Mapping[str, str | None]
"""Path -> text (dedented); None deletes the file."""


@dataclass(frozen=True)
class Sync:
    base: str
    dev: str
    main: str


def py(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _apply(b: RepoBuilder, files: Files) -> None:
    for path, text in files.items():
        if text is None:
            b.delete(path)
        else:
            b.write(path, py(text))


def history(b: RepoBuilder, base: Files, dev: Files, main: Files,
            dev_subject: str = "[dev] Change the API (#101)", main_subject: str = "Change the callers (#201)") -> Sync:
    """Base commit on ``main``, one commit on ``dev``, one on ``main``; HEAD on dev."""
    _apply(b, base)
    base_sha = b.commit("Initial import")
    b.branch("dev").checkout("dev")
    _apply(b, dev)
    dev_sha = b.commit(dev_subject)
    b.checkout("main")
    _apply(b, main)
    main_sha = b.commit(main_subject)
    b.checkout("dev")
    return Sync(base_sha, dev_sha, main_sha)


def preview(b: RepoBuilder, policy: str | None = None) -> SyncAnalysis:
    """What ``git merge main -X theirs`` onto dev gives, analysed."""
    return open_sync(SyncRequest(repo=b.path, dev="dev", main="main", policy=policy))[1]


def bot_merge(b: RepoBuilder, policy: str | None = None) -> SyncAnalysis:
    """The bot's finished ``-X theirs`` merge commit, analysed as REV."""
    start_sync(b, "main2dev/sync", dev="dev", main="main")
    merge = finish_sync(b, "main2dev/sync", main="main")
    return open_sync(SyncRequest(repo=b.path, rev=merge, policy=policy))[1]


def findings(analysis: SyncAnalysis, kind: str | None = None, path: str | None = None) -> list[ApiMismatch]:
    return [
        f for f in analysis.api_mismatches
        if (kind is None or f.kind == kind) and (path is None or f.path == path)
    ]
