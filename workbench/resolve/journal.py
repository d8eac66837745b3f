"""The decision journal: every session event, appended and fsynced as it happens.

One JSON object per line under ``.git/workbench/journal/``, keyed by the dev
and main commits, so a crash (even ``kill -9`` mid-write) loses at most the
event being written: a torn last line is ignored on load, and the next
append starts on a fresh line.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from workbench.resolve.events import Event

JOURNAL_DIR = ("workbench", "journal")


class Journal:
    """Append-only event log for one sync (dev, main)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def for_sync(cls, gitdir: str | os.PathLike[str], dev: str, main: str) -> Journal:
        return cls(Path(gitdir, *JOURNAL_DIR, f"{dev[:16]}-{main[:16]}.jsonl"))

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> list[Event]:
        """Every complete event; a torn or garbled line (from a crash) is skipped."""
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return []
        events: list[Event] = []
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            try:
                events.append(Event.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
        return events

    def append(self, event: Event) -> None:
        """Write one event durably before returning."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(event.to_json(), separators=(",", ":")).encode("utf-8")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            if os.fstat(fd).st_size and not _ends_with_newline(fd):
                line = b"\n" + line
            os.write(fd, line + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return os.pread(fd, 1, size - 1) == b"\n"
