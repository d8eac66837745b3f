"""Small dev/main histories (one commit a side) and the bot's merge of them, for the audit and policy tests."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

from helpers.syncs import analyze_repo
from workbench.analysis.model import SyncAnalysis
from workbench.sample import RepoBuilder
from workbench.sample.bot import finish_sync, start_sync

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


def bot_merge(b: RepoBuilder) -> SyncAnalysis:
    """The bot's finished ``-X theirs`` merge commit, analysed as REV."""
    start_sync(b, "main2dev/sync", dev="dev", main="main")
    return analyze_repo(b.path, finish_sync(b, "main2dev/sync", main="main"))
