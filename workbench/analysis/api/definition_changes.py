"""Which commit renamed, removed, added or re-signed a definition on one side.

The file's versions along the side (``git log base..tip -- path``, non-merge
commits) are indexed, cached by blob id, and compared commit by commit;
the newest commit whose change matches is the evidence a reviewer needs.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from workbench.analysis.model import Whose
from workbench.analysis.python.module_index import ModuleIndex, module_index
from workbench.analysis.readers import RepoFiles
from workbench.git.types import ReadBlob

Shape = tuple[object, ...] | None
"""What a definition looks like, for comparison: kind and parameter lists (None: absent)."""

MAX_VERSIONS = 60
"""Versions of a file compared at most (each is parsed once)."""


@dataclass(frozen=True, slots=True)
class Key:
    """A definition: ``name`` at module level, or a member of class ``owner``."""

    owner: str | None
    name: str

    def __str__(self) -> str:
        return f"{self.owner}.{self.name}" if self.owner else self.name


def shape(index: ModuleIndex | None, key: Key) -> Shape:
    """The definition's kind and parameters in ``index`` (None when it has none)."""
    if index is None:
        return None
    if key.owner is None:
        if key.name in index.functions:
            return ("function", tuple(f.params for f in index.functions[key.name]))
        if key.name in index.classes:
            return ("class",)
        return ("name",) if key.name in index.names else None
    classes = index.classes.get(key.owner)
    if not classes:
        return None
    cls = classes[-1]
    if key.name in cls.methods:
        return ("function", tuple(f.params for f in cls.methods[key.name]))
    return ("name",) if key.name in cls.attributes else None


def members(index: ModuleIndex | None, owner: str | None) -> set[str]:
    """The names a class (or the module, for ``owner`` None) defines."""
    if index is None:
        return set()
    if owner is None:
        return set(index.names)
    classes = index.classes.get(owner)
    if not classes:
        return set()
    return set(classes[-1].methods) | set(classes[-1].attributes)


def close_name(name: str, candidates: set[str]) -> str | None:
    """The candidate most like ``name`` (``group_offload`` for ``group_commit``), if any is."""
    found = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.55)
    return found[0] if found else None


@dataclass(frozen=True, slots=True)
class Change:
    """A commit that changed a definition, and the name it was renamed to, if it looks renamed."""

    sha: str
    renamed_to: str | None = None


class History:
    """Finds, per side, the commit behind a definition's current state."""

    def __init__(self, files: RepoFiles, read_blob: ReadBlob) -> None:
        self._files = files
        self._read = read_blob
        self._logs: dict[tuple[Whose, str], tuple[tuple[str, str | None, str | None], ...]] = {}

    def _versions(self, side: Whose, path: str) -> tuple[tuple[str, str | None, str | None], ...]:
        key = (side, path)
        if key not in self._logs:
            self._logs[key] = tuple((c.sha, c.old, c.new) for c in self._files.path_log(side, path, MAX_VERSIONS))
        return self._logs[key]

    def _index(self, path: str, blob: str | None) -> ModuleIndex | None:
        return module_index(path, blob, self._read(blob)) if blob is not None else None

    def removed(self, side: Whose, path: str, key: Key) -> Change | None:
        """The newest commit on ``side`` after which ``key`` no longer existed.

        It counts as a rename when the same commit added a similar name, or
        exactly one new name, to the same class or module.
        """
        for sha, old, new in self._versions(side, path):
            before, after = self._index(path, old), self._index(path, new)
            if shape(before, key) is not None and shape(after, key) is None:
                added = members(after, key.owner) - members(before, key.owner)
                sole = next(iter(added)) if len(added) == 1 else None
                return Change(sha, close_name(key.name, added) or sole)
        return None

    def added(self, side: Whose, path: str, key: Key) -> Change | None:
        """The newest commit on ``side`` that created ``key``."""
        for sha, old, new in self._versions(side, path):
            if shape(self._index(path, old), key) is None and shape(self._index(path, new), key) is not None:
                return Change(sha)
        return None

    def reshaped(self, side: Whose, path: str, key: Key, now: Shape) -> Change | None:
        """The newest commit on ``side`` that gave ``key`` its shape ``now``."""
        for sha, old, new in self._versions(side, path):
            after = shape(self._index(path, new), key)
            if after == now and shape(self._index(path, old), key) != now:
                return Change(sha)
        return None
