"""Messages workers post to the main screen when their work is done.

Workers never touch widgets: they compute in a thread and post one of
these (``post_message`` is thread-safe); the screen's handler hands the
result down to its widgets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from textual.message import Message

from workbench.errors import WorkbenchError
from workbench.services.sync import LoadProgress
from workbench.services.workspace import Workspace
from workbench.tui.fileview import BothDiffs, PreparedFile
from workbench.tui.loading import Report, Throttle


@dataclass
class LoadProgressed(Message):
    """The loading thread got further: the outline (``progress.analysis``), files, or a stage."""

    progress: LoadProgress


@dataclass
class WorkspaceLoaded(Message):
    """The sync is analysed and the decisions journal replayed."""

    workspace: Workspace
    seconds: float
    """How long loading took (shown in the log, used by benchmarks)."""
    view: PreparedFile | None = None
    """The file it opens on, already prepared (a first look), or None."""


@dataclass
class LoadFailed(Message):
    """Opening the sync failed; ``error`` is one line for the user (handled by the App)."""

    error: str


@dataclass
class FilePrepared(Message):
    """A file's rows, folds and syntax are ready to draw."""

    view: PreparedFile
    workspace: Workspace
    """What it was prepared from (a first look's view is stale once the complete analysis is in)."""
    opening: int
    """The cursor's opening it was prepared for (``Cursor.opened``): an earlier one's is stale."""


@dataclass
class DiffsReady(Message):
    """The result-vs-dev and result-vs-main diffs of a file are ready."""

    diffs: BothDiffs


def load_posting(load: Callable[[Report], Workspace], post: Callable[[Message], object]) -> None:
    """Run ``load`` (in a worker thread), posting its progress, then the workspace or why it failed.

    A failure is one line (the CLI contract), never a traceback."""
    start = time.perf_counter()

    def tell(progress: LoadProgress) -> None:
        post(LoadProgressed(progress))

    try:
        workspace = load(Throttle(tell))
    except WorkbenchError as exc:
        post(LoadFailed(str(exc)))
        return
    except Exception as exc:  # noqa: BLE001 - the CLI contract: one line, never a traceback
        post(LoadFailed(f"internal error: {type(exc).__name__}: {exc}"))
        return
    post(WorkspaceLoaded(workspace, time.perf_counter() - start))
