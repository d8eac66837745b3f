"""Loading a sync in phases: relaying progress from the loading thread to the app.

``open_sync`` reports an outline first, then files done, then each
enrichment stage.  The loading thread may start before the App exists
(``launch`` starts it before Textual is imported), so ``ProgressRelay``
keeps what it heard until the screen listens; ``Throttle`` keeps a sync of
10,000 files from posting 10,000 messages.  Nothing here imports Textual.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from workbench.services.sync import LoadProgress

Report = Callable[[LoadProgress], None]
"""Hears how far loading got (called from the loading thread)."""

STAGE_WORDS = {
    "apply_policy": "sync policy",
    "audit_api": "API audit",
    "find_deleted": "deleted files",
    "score_risk": "risk",
}


def describe(progress: LoadProgress) -> str:
    """A few words for the progress note: "files 57/126", "API audit (2/4)"."""
    if progress.phase == "outline":
        return f"{progress.total} files found"
    if progress.phase == "files":
        return f"hunks and history: {progress.done}/{progress.total} files"
    word = STAGE_WORDS.get(progress.phase, progress.phase.replace("_", " "))
    return f"{word} ({progress.done + 1}/{progress.total})"


def fraction(progress: LoadProgress, files: int, stages: int = len(STAGE_WORDS)) -> tuple[int, int]:
    """(done, total) steps over the whole load: one per file of the outline, then one per stage.

    The files phase may count more files than the outline lists (the paths a
    resolution changed beyond the conflicts): its share of the bar stays the outline's.
    """
    total = files + stages
    if progress.phase == "outline":
        return 0, total
    if progress.phase == "files":
        return progress.done * files // max(progress.total, 1), total
    return files + progress.done, files + max(progress.total, stages)


class Throttle:
    """Passes every phase change on, but files done at most every ``interval`` seconds."""

    def __init__(self, report: Report, interval: float = 0.05) -> None:
        self._report = report
        self._interval = interval
        self._last = 0.0

    def __call__(self, progress: LoadProgress) -> None:
        if progress.phase == "files" and progress.done < progress.total:
            now = time.monotonic()
            if now - self._last < self._interval:
                return
            self._last = now
        self._report(progress)


class ProgressRelay:
    """Progress heard before anyone listens is kept (the outline, the latest step) and handed over.

    With ``hold``, the loading thread waits (at most that long) after the
    outline until someone listens, leaving the interpreter to the app that
    is starting to show it.
    """

    def __init__(self, hold: float = 0.0) -> None:
        self._lock = threading.Lock()
        self._outline: LoadProgress | None = None
        self._latest: LoadProgress | None = None
        self._listener: Report | None = None
        self._attached = threading.Event()
        self._hold = hold

    def __call__(self, progress: LoadProgress) -> None:
        with self._lock:
            if self._listener is not None:
                self._listener(progress)
                return
            if progress.phase == "outline":
                self._outline = progress
            else:
                self._latest = progress
        if progress.phase == "outline" and self._hold > 0:
            self._attached.wait(self._hold)

    def attach(self, listener: Report) -> None:
        """From now on ``listener`` hears everything, starting with what was kept."""
        with self._lock:
            for kept in (self._outline, self._latest):
                if kept is not None:
                    listener(kept)
            self._outline = self._latest = None
            self._listener = listener
        self._attached.set()
