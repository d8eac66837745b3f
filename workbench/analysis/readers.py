"""The repository reads the stages share (policy, API audit, deleted files, risk), by role.

``sync.py`` passes the git layer's ``RepoFiles`` as ``AnalysisContext.repo_files``;
the analysis only sees this protocol, so it never imports pygit2 and tests
can hand it any object with these methods.  Roles are the git layer's
``TreeRole``: ``base``, ``dev``, ``main`` and ``result`` (a path's log: dev or main).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from workbench.analysis.model import FileAnalysis, Whose
from workbench.analysis.xdiff import joined
from workbench.git.blob_cache import BlobCache
from workbench.git.types import PathChange, ReadBlob, TreeChange, TreeRole


class RepoFiles(Protocol):
    def blob_id(self, role: TreeRole, path: str) -> str | None: ...

    def read(self, role: TreeRole, path: str) -> bytes | None: ...

    def changes(self, old: TreeRole, new: TreeRole) -> tuple[TreeChange, ...]: ...

    def grep(self, role: TreeRole, word: str, *more: str, under: Sequence[str] = ()) -> tuple[str, ...]: ...

    def path_log(self, role: Whose, path: str, limit: int = 200) -> tuple[PathChange, ...]: ...

    def deletions(self, paths: Sequence[str]) -> dict[str, str | None]: ...


def git_blob_id(data: bytes) -> str:
    """The id git gives ``data`` as a blob (for results that exist only in memory)."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)  # not header + data: a copy of a large file for nothing
    return digest.hexdigest()


HELD_JOINED = 8 * 1024 * 1024
"""Bytes of recently joined versions kept: the audit asks for one file's versions again and again while it
checks that file (docs/performance.md)."""


class HeldBlobs:
    """The sync's own versions of its conflicted files, read back from the merges that hold them, not from git.

    The engine reads each conflicted file's base, dev and main blobs to
    merge them and keeps them as the merge's lines.  The stages then read
    the same blobs again (the API audit every version of a file it looks
    at, risk the sides' newest versions among their histories), when git's
    reader has let them go (its cache is bounded; a forked child never had
    them): on the 2,000-file synthetic sync 9,600 of its 40,000 ``cat-file``
    round trips.  Joining a merge's lines is a copy in C.  A version is
    served only once its bytes hash to the blob id asked for, so the answer
    is the blob's, however the merge was built.
    """

    def __init__(self, files: Iterable[FileAnalysis]) -> None:
        self._held: dict[str, Sequence[bytes]] = {}
        self._joined = BlobCache(HELD_JOINED)
        for entry in files:
            merge = entry.merge
            if merge is None:
                continue
            for side, lines in ((entry.base, merge.base), (entry.dev, merge.ours), (entry.main, merge.theirs)):
                if side.oid is not None:
                    self._held.setdefault(side.oid, lines)

    def get(self, oid: str) -> bytes | None:
        """The blob ``oid``'s bytes when a merge holds them, else None."""
        data = self._joined.get(oid)
        if data is not None:
            return data
        lines = self._held.get(oid)
        if lines is None:
            return None
        data = joined(lines)
        if git_blob_id(data) != oid:
            del self._held[oid]
            return None
        self._joined.put(oid, data)
        return data

    def over(self, read_blob: ReadBlob) -> ReadBlob:
        """``read_blob``, answered from the merges where they hold the blob."""

        def read(oid: str) -> bytes:
            data = self.get(oid)
            return data if data is not None else read_blob(oid)

        return read


class Trees:
    """``RepoFiles`` with the analysis' own view of the conflicted paths on top.

    For a conflicted path the result is what the analysis says it is (the
    preview's ``-X theirs`` text, or what the app spliced), not what the
    tree behind it holds (conflict markers, in a preview).  Its id is
    hashed from those bytes, so a spliced result never reuses a stale parse.
    """

    def __init__(self, files: RepoFiles, conflicted: Mapping[str, FileAnalysis], held: HeldBlobs | None = None) -> None:
        self.files = files
        self._conflicted = conflicted
        self._held = held
        """The conflicted paths' base, dev and main versions as the analysis holds them."""
        self._ids: dict[tuple[TreeRole, str], str | None] = {}

    def blob_id(self, role: TreeRole, path: str) -> str | None:
        key = (role, path)
        if key not in self._ids:
            self._ids[key] = self._blob_id(role, path)
        return self._ids[key]

    def _blob_id(self, role: TreeRole, path: str) -> str | None:
        entry = self._conflicted.get(path) if role == "result" else None
        if entry is None:
            return self.files.blob_id(role, path)
        if not entry.result_present or entry.result_bytes is None:
            return None
        return git_blob_id(entry.result_bytes)

    def read(self, role: TreeRole, path: str) -> bytes | None:
        entry = self._conflicted.get(path)
        if entry is None:
            return self.files.read(role, path)
        if role == "result":
            return entry.result_bytes if entry.result_present else None
        if self._held is not None:
            oid = self.blob_id(role, path)
            data = self._held.get(oid) if oid is not None else None
            if data is not None:
                return data
        return self.files.read(role, path)

    def present(self, role: TreeRole, path: str) -> bool:
        return self.blob_id(role, path) is not None
