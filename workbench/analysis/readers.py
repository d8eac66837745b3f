"""The repository reads the stages share (policy, API audit, deleted files, risk), by role.

``sync.py`` passes the git layer's ``RepoFiles`` as ``AnalysisContext.repo_files``;
the analysis only sees this protocol, so it never imports pygit2 and tests
can hand it any object with these methods.  Roles are the git layer's
``TreeRole``: ``base``, ``dev``, ``main`` and ``result`` (a path's log: dev or main).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Protocol

from workbench.analysis.model import FileAnalysis, Whose
from workbench.git.types import PathChange, TreeChange, TreeRole


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


class Trees:
    """``RepoFiles`` with the analysis' own view of the conflicted paths on top.

    For a conflicted path the result is what the analysis says it is (the
    preview's ``-X theirs`` text, or what the app spliced), not what the
    tree behind it holds (conflict markers, in a preview).  Its id is
    hashed from those bytes, so a spliced result never reuses a stale parse.
    """

    def __init__(self, files: RepoFiles, conflicted: Mapping[str, FileAnalysis]) -> None:
        self.files = files
        self._conflicted = conflicted
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
        entry = self._conflicted.get(path) if role == "result" else None
        if entry is None:
            return self.files.read(role, path)
        return entry.result_bytes if entry.result_present else None

    def present(self, role: TreeRole, path: str) -> bool:
        return self.blob_id(role, path) is not None
