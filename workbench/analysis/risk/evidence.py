"""What the signals read about one file, computed once and cached.

Every signal asks the same few questions (which versions of the file did
each side go through, what did a version say, which commit is newer, which
main commit deleted a line), so they are answered here once per file, from
the snapshot's per-commit blob table and the shared blob reader: no git
subprocess, and each version of a file is read at most once however many of
its hunks look at it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from workbench.analysis.model import Commit, FileAnalysis, Hunk, Resolver, Whose
from workbench.analysis.risk.line_compare import meaningful, norm
from workbench.analysis.risk.twins import MIN_PATCH_LINES, counterpart, similar_patch
from workbench.git.types import SideHistory

ReadBlob = Callable[[str], bytes]
CommitLookup = Callable[[str], Commit]

MAX_PATCH_VERSIONS = 30
"""How many of dev's newest versions of a file a main patch is compared with."""


class Blobs:
    """Blob bytes and line sets of one file's versions, cached while the file is scored.

    Per file, not per run: a file's hunks share its versions, other files
    never do, and a sync's history can hold hundreds of megabytes of them.
    """

    def __init__(self, read_blob: ReadBlob) -> None:
        self._read = read_blob
        self._data: dict[str, bytes] = {}
        self._lines: dict[str, frozenset[bytes]] = {}
        self._blocks: dict[str, _LineIndex] = {}

    def read(self, oid: str) -> bytes:
        found = self._data.get(oid)
        if found is None:
            found = self._read(oid)
            self._data[oid] = found
        return found

    def stripped_lines(self, oid: str | None) -> frozenset[bytes]:
        """The blob's lines without leading and trailing whitespace, as a set."""
        if oid is None:
            return frozenset()
        found = self._lines.get(oid)
        if found is None:
            found = self._lines[oid] = frozenset(map(bytes.strip, self.read(oid).split(b"\n")))
        return found

    def has_block(self, oid: str | None, lines: Sequence[bytes]) -> bool:
        """Whether the blob holds ``lines`` consecutively (whitespace-blind, blank lines skipped).

        Looked up in an index of the blob's lines built once, not by
        scanning the blob: every hunk of a file asks about the same versions,
        and a scan per hunk made scoring quadratic in the file's hunks.
        """
        if oid is None:
            return False
        wanted = [n for n in map(norm, lines) if n]
        if not wanted:
            return False
        found = self._blocks.get(oid)
        if found is None:
            found = self._blocks[oid] = _LineIndex(self.read(oid))
        return found.holds(wanted)


class _LineIndex:
    """A blob's non-blank lines, normalised, each between newlines: ``b"\\nline\\nline\\n"``.

    Built with a few C-level passes over the blob (whitespace to spaces,
    split, strip, join) instead of a Python call per line: the blobs of a
    file's versions hold hundreds of thousands of lines on a real sync.  The
    first questions are answered by one C-speed search of that text; a blob
    asked more often (a file with many hunks) gets a table of where each
    line occurs, so a scan per hunk never makes scoring quadratic in a file's hunks.
    """

    __slots__ = ("_asked", "_lines", "_text", "_where")

    def __init__(self, data: bytes) -> None:
        lines = filter(None, map(bytes.strip, data.translate(_TO_SPACE).split(b"\n")))
        # Runs inside lines (the ends are stripped) in one pass: a pass of ``replace`` per halving of the
        # longest run copied the whole text 2-4 times (``x = 1  # note`` is in every file).
        self._text = b"\n" + _SPACES.sub(b" ", b"\n".join(lines)) + b"\n"
        self._asked = 0
        self._lines: list[bytes] = []
        self._where: dict[bytes, list[int]] | None = None

    def holds(self, wanted: list[bytes]) -> bool:
        """Whether ``wanted`` (normalised, non-blank) occurs as consecutive lines."""
        self._asked += 1
        if self._asked <= _SCANS:
            return b"\n" + b"\n".join(wanted) + b"\n" in self._text  # the newlines keep a match to whole lines
        if self._where is None:
            self._lines = self._text[1:-1].split(b"\n") if len(self._text) > 2 else []
            self._where = {}
            for at, line in enumerate(self._lines):
                self._where.setdefault(line, []).append(at)
        # Anchored on the rarest wanted line, so a block of common lines (``)``, ``return x``) stays cheap.
        hits = [self._where.get(line, ()) for line in wanted]
        offset = min(range(len(wanted)), key=lambda k: len(hits[k]))
        n = len(wanted)
        return any(at >= offset and self._lines[at - offset:at - offset + n] == wanted for at in hits[offset])


_SCANS = 8
"""Questions a blob answers by scanning before it gets a table of its lines (about a scan's cost to build)."""


_TO_SPACE = bytes.maketrans(b"\t\r\x0b\x0c", b"    ")
"""ASCII whitespace but the newline and the space (``bytes.split``'s set) made spaces, as ``norm`` treats them."""
_SPACES = re.compile(rb"  +")
"""A run of spaces inside a line, made one as ``norm`` does."""


@dataclass(frozen=True)
class RunCache:
    """What every file of one run shares: the readers and each side's commit order."""

    read_blob: ReadBlob
    commit: CommitLookup
    dev_history: SideHistory
    main_history: SideHistory
    dev_order: dict[str, int]
    main_order: dict[str, int]
    resolver: Resolver
    """Who decided the sync's conflicts: the signals' sentences name it."""

    @classmethod
    def build(
        cls, read_blob: ReadBlob, commit: CommitLookup, dev: SideHistory, main: SideHistory, resolver: Resolver
    ) -> RunCache:
        def order(history: SideHistory) -> dict[str, int]:
            return {sha: i for i, sha in enumerate(history.commits)}

        return cls(read_blob, commit, dev, main, order(dev), order(main), resolver)


@dataclass(frozen=True)
class Version:
    """One state of the file on one side: the commit that wrote it, and its blob."""

    commit: str
    blob: str | None
    parent_blob: str | None
    """The file in the commit's first parent (its state just before)."""


@dataclass
class SideFile:
    """One side's history of one path: the versions it went through, newest first."""

    history: SideHistory
    path: str
    versions: tuple[Version, ...]
    _order: dict[str, int] = field(repr=False)

    @classmethod
    def build(cls, history: SideHistory, path: str, order: dict[str, int], touching: Sequence[str]) -> SideFile:
        """``touching``: the commits that changed the file, newest first (the engine's FileHistory);
        ``order``: ``commit -> position`` in ``history.commits``, shared by every file."""
        blobs = history.blobs.get(path, {})
        versions = []
        for sha in touching:
            parents = history.parents.get(sha, ())
            versions.append(Version(sha, blobs.get(sha), blobs.get(parents[0]) if parents else None))
        return cls(history, path, tuple(versions), order)

    def age(self, sha: str) -> int:
        """Larger is older (position in the newest-first walk)."""
        return self._order.get(sha, len(self._order))

    def newer(self, commits: Sequence[str], than: str) -> tuple[str, ...]:
        """The commits among ``commits`` that came after ``than``, oldest first."""
        limit = self.age(than)
        return tuple(sorted((c for c in commits if self.age(c) < limit), key=self.age, reverse=True))

    def oldest_first(self, commits: Sequence[str]) -> tuple[str, ...]:
        return tuple(sorted(dict.fromkeys(commits), key=self.age, reverse=True))

    def parent_blob(self, sha: str) -> str | None:
        """The file as it was just before ``sha`` (first parent)."""
        parents = self.history.parents.get(sha, ())
        return self.history.blobs.get(self.path, {}).get(parents[0]) if parents else None


@dataclass
class FileEvidence:
    """A conflicted file with both sides' histories and the shared readers."""

    file: FileAnalysis
    dev: SideFile
    main: SideFile
    blobs: Blobs
    commit: CommitLookup
    resolver: Resolver
    """Who decided the sync's conflicts (``-X theirs``, or a resolution): the sentences say which."""
    _deleters: dict[tuple[Whose, int], tuple[str, ...]] = field(default_factory=dict, repr=False)
    _twins: dict[str, Commit | None] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls,
        file: FileAnalysis,
        run: RunCache,
    ) -> FileEvidence:
        return cls(
            file,
            SideFile.build(run.dev_history, file.dev.path, run.dev_order, [c.sha for c in file.history.dev]),
            SideFile.build(run.main_history, file.main.path, run.main_order, [c.sha for c in file.history.main]),
            Blobs(run.read_blob),
            run.commit,
            run.resolver,
        )

    def dev_commits(self) -> tuple[Commit, ...]:
        """Dev's commits that touched the file, newest first."""
        return self.file.history.dev

    def counterpart(self, main: Commit) -> Commit | None:
        """The dev commit touching this file that ``main`` is a squash of (cached per commit).

        By message first; else by patch, among dev's newest ``MAX_PATCH_VERSIONS``
        versions of the file (reading them costs, so only when the message says nothing).
        """
        if main.sha not in self._twins:
            twin = counterpart(main, self.dev_commits())
            if twin is None:
                twin = self._patch_twin(main)
            self._twins[main.sha] = twin
        return self._twins[main.sha]

    def _patch_twin(self, main: Commit) -> Commit | None:
        version = next((v for v in self.main.versions if v.commit == main.sha), None)
        if version is None:
            return None
        added = self.added(version)
        if len(added) < MIN_PATCH_LINES:
            return None
        for candidate in self.dev.versions[:MAX_PATCH_VERSIONS]:
            if similar_patch(added, self.added(candidate)):
                return self.commit(candidate.commit)
        return None

    def added(self, version: Version) -> frozenset[bytes]:
        """The content lines a version has that its parent's version lacks (stripped)."""
        after = self.blobs.stripped_lines(version.blob)
        return frozenset(line for line in after - self.blobs.stripped_lines(version.parent_blob) if meaningful(line))

    def main_deleters(self, hunk: Hunk) -> tuple[str, ...]:
        """Main commits that deleted base lines of the hunk which main's file no longer has."""
        return self.deleters("main", hunk)

    def deleters(self, side: Whose, hunk: Hunk) -> tuple[str, ...]:
        """``side``'s commits that deleted base lines of the hunk which that side's file no longer has."""
        key = (side, hunk.index)
        found = self._deleters.get(key)
        if found is None:
            found = self._deleters[key] = self._find_deleters(side, hunk)
        return found

    def _find_deleters(self, side: Whose, hunk: Hunk) -> tuple[str, ...]:
        lines = self.blobs.stripped_lines
        text, oid, history = (
            (hunk.main_text, self.file.main.oid, self.main) if side == "main" else (hunk.dev_text, self.file.dev.oid, self.dev)
        )
        here = {line.strip() for line in text} | lines(oid)
        missing = {line.strip() for line in hunk.base_text if meaningful(line)} - here
        found: list[str] = []
        for version in history.versions:
            if not missing:
                break
            if version.parent_blob is None:
                continue
            gone = (missing & lines(version.parent_blob)) - lines(version.blob)
            if gone:
                found.append(version.commit)
                missing -= gone
        return tuple(found)

    def main_writers(self, hunk: Hunk) -> tuple[str, ...]:
        """The main commits behind main's side of the hunk.

        Who wrote main's lines (blame); else who deleted the base lines; else,
        when main only changed lines next to the hunk, main's commits on the file.
        """
        if hunk.main_commits:
            return hunk.main_commits
        return self.main_deleters(hunk) or tuple(c.sha for c in self.file.history.main)


def label(commit: Commit) -> str:
    """How a message names a commit: its PR number, else its short sha."""
    return f"#{commit.pr}" if commit.pr is not None else commit.sha[:10]


def labels(commits: Sequence[Commit]) -> str:
    """``#102``, ``#102 and #103``, ``#101, #102 and #103``."""
    names = list(dict.fromkeys(label(c) for c in commits))
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
