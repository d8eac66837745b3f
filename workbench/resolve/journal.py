"""The decision journal: every session event, appended and fsynced as it happens.

One JSON object per line under ``.git/workbench/journal/``, one file per
situation (``Situation``): a merge in progress (its HEAD and MERGE_HEAD), a
merge commit under review (with the commit whose tree is the result), or a
preview.  Decisions made reviewing the bot's merge commit therefore never
come back in a later local re-merge of the same two tips, nor the other way
round; ``git mergetool`` on a merge in progress uses that merge's journal,
so the app, the report and the gate see one set of decisions.

The first line says which situation the file belongs to and when it was
started (it is not an event; older readers skip it).  A crash (even
``kill -9`` mid-write) loses at most the event being written: a torn last
line is ignored on load, and the next append starts on a fresh line.

Only one workbench may append to a journal at a time: ``claim`` takes an
exclusive lock for the life of the process; a second instance on the same
situation is told who holds it and works read-only (it must neither journal
nor write, or the journal would claim a state the files do not hold).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from workbench.analysis.model import Mode, SyncAnalysis
from workbench.resolve.events import Event
from workbench.resolve.journal_files import JOURNAL_DIR, JOURNAL_SUFFIX

HEADER_KEY = "situation"
"""The key of the first line's object (events have ``op`` instead)."""


@dataclass(frozen=True, slots=True)
class Situation:
    """Where decisions are made: the journal's key.

    ``kind`` is the analysis mode (``in-progress``, ``merge-commit``,
    ``preview``, ``mergetool`` for one file outside a merge); ``commits`` the
    commits (or blobs) that pin it down: HEAD and MERGE_HEAD, the merge
    commit and its result commit, or the two tips of a preview.
    """

    kind: Mode
    commits: tuple[str, ...]

    @classmethod
    def of(cls, analysis: SyncAnalysis) -> Situation:
        if analysis.mode is Mode.MERGE_COMMIT and analysis.merge is not None:
            return cls(Mode.MERGE_COMMIT, (analysis.merge, analysis.result_commit or analysis.merge))
        return cls(analysis.mode, (analysis.dev, analysis.main))

    @classmethod
    def merging(cls, head: str, merge_head: str) -> Situation:
        """A merge in progress, whoever opens it (the app, or ``git mergetool`` on one of its files)."""
        return cls(Mode.IN_PROGRESS, (head, merge_head))

    @property
    def file_name(self) -> str:
        return "-".join((self.kind.value, *(sha[:16] for sha in self.commits))) + JOURNAL_SUFFIX

    def describe(self) -> str:
        """In words, for "resumed decisions made ... in <this>"."""
        short = [sha[:10] for sha in self.commits]
        if self.kind is Mode.IN_PROGRESS:
            return f"the merge in progress of {short[1]} into {short[0]}"
        if self.kind is Mode.MERGE_COMMIT:
            merge, result = short
            return f"the review of merge {merge}" + (f" with result {result}" if result != merge else "")
        if self.kind is Mode.PREVIEW:
            return f"the preview of {short[1]} into {short[0]}"
        return "git mergetool on this file"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "commits": list(self.commits)}


@dataclass(frozen=True, slots=True)
class Claim:
    """The outcome of ``Journal.claim``: None in ``problem`` when this process may append."""

    problem: str | None
    fd: int | None = None


class EventLog(Protocol):
    """Where a workspace keeps its session's events: the repository's journal, or a trainee's progress file."""

    situation: Situation | None
    where: str

    def exists(self) -> bool: ...

    def load(self) -> list[Event]: ...

    def header(self) -> dict[str, Any]: ...

    def claim(self) -> str | None:
        """Why events cannot be appended here (another process holds the log), or None."""
        ...

    def append(self, event: Event) -> None: ...


class Journal:
    """Append-only event log for one situation (an ``EventLog``)."""

    def __init__(self, path: Path, situation: Situation | None = None, where: str = "") -> None:
        self.path = path
        self.situation = situation
        self.where = where
        """The work tree (or git dir) it was opened in, written into the header."""
        self._claim: Claim | None = None

    @classmethod
    def for_sync(cls, gitdir: str | os.PathLike[str], dev: str, main: str) -> Journal:
        """The journal of a merge in progress of ``main`` into ``dev``."""
        return cls.for_situation(gitdir, Situation.merging(dev, main))

    @classmethod
    def for_situation(cls, gitdir: str | os.PathLike[str], situation: Situation, where: str = "") -> Journal:
        return cls(Path(gitdir, *JOURNAL_DIR, situation.file_name), situation, where)

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> list[Event]:
        """Every complete event; a torn or garbled line (from a crash) is skipped."""
        events: list[Event] = []
        for record in self._records():
            if HEADER_KEY in record:
                continue
            try:
                events.append(Event.from_json(record))
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
        return events

    def header(self) -> dict[str, Any]:
        """The first line's facts (situation, where, started), or {} for a journal without one."""
        for record in self._records():
            return record if HEADER_KEY in record else {}
        return {}

    def _records(self) -> list[dict[str, Any]]:
        try:
            raw = self.path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return []
        records: list[dict[str, Any]] = []
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
        return records

    def claim(self) -> str | None:
        """Take the journal for this process; None, or why decisions cannot be saved (then do not append)."""
        if self._claim is None:
            self._claim = _lock(self.path.with_suffix(".lock"))
        return self._claim.problem

    def append(self, event: Event) -> None:
        """Write one event durably before returning (``OSError`` when it cannot be written)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(event.to_json(), separators=(",", ":")).encode("utf-8")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            size = os.fstat(fd).st_size
            if not size and self.situation is not None:
                line = self._header_line() + b"\n" + line
            elif size and not _ends_with_newline(fd):
                line = b"\n" + line
            os.write(fd, line + b"\n")
            os.fsync(fd)
        finally:
            os.close(fd)

    def _header_line(self) -> bytes:
        assert self.situation is not None
        header = {HEADER_KEY: self.situation.to_json(), "where": self.where, "started": time.time()}
        return json.dumps(header, separators=(",", ":")).encode("utf-8")


def _lock(path: Path) -> Claim:
    """An exclusive, non-blocking lock on ``path`` held until the process exits (or the reason there is none)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        return Claim(f"decisions cannot be saved: {path.parent} is not writable ({exc.strerror or exc})")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
        os.close(fd)
        if holder == str(os.getpid()):
            return Claim(None)  # this process holds it already (the app reopening, a test)
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            who = f" (process {holder})" if holder.isdigit() else ""
            return Claim(f"another workbench{who} has this sync open: decisions here are not saved or written")
        return Claim(f"decisions cannot be saved: cannot lock {path} ({exc.strerror or exc})")
    try:
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode("ascii"), 0)
    except OSError:
        pass  # the pid is a courtesy for the other instance's message; the lock is what counts
    return Claim(None, fd)


def _ends_with_newline(fd: int) -> bool:
    size = os.fstat(fd).st_size
    return os.pread(fd, 1, size - 1) == b"\n"
