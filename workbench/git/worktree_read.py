"""Reading work-tree files the way ``git add`` would store them (clean filters applied).

Paths go to git as arguments after ``--``, never as lines on stdin:
``--stdin-paths`` C-unquotes a name that starts with ``"`` (``"quoted".txt``
becomes the file ``quoted``), drops a trailing ``\\r`` and cannot carry a
newline.  The cleaned blobs go to the object quarantine alone (see
quarantine.py), so ``.git`` is neither written nor freshened.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from workbench.git.repo import GitRepo
from workbench.git.runner import StartedGit
from workbench.git.worktree import worktree_path

_ARGS_BUDGET = 64 * 1024
"""Bytes of paths per git run, well under any system's argument limit."""


def clean_contents(repo: GitRepo, paths: Sequence[str]) -> dict[str, tuple[str, bytes]]:
    """What ``git add`` would store for each regular file: (blob id, bytes).

    Paths that are not regular files are left out.
    """
    with PendingContents(repo, paths) as pending:
        return pending.contents()


class PendingContents:
    """``clean_contents(repo, paths)``, git hashing the files beside this process until ``contents()``.

    The first batch of paths (every path, below about a thousand) starts at
    once; the others run in ``contents()``, one after another.  Used as a
    context manager, leaving early stops git.
    """

    def __init__(self, repo: GitRepo, paths: Sequence[str]) -> None:
        self._repo = repo
        self.paths = frozenset(paths)
        """The paths asked about (those that are not regular files are left out of ``contents()``)."""
        self._batches = _batches([p for p in paths if _is_regular(repo, p)])
        self._first = self._hashing(self._batches[0]) if self._batches else None

    def contents(self) -> dict[str, tuple[str, bytes]]:
        """(blob id, bytes) by path (waits for git)."""
        out: dict[str, tuple[str, bytes]] = {}
        for k, batch in enumerate(self._batches):
            run = self._first if k == 0 and self._first is not None else self._hashing(batch)
            with run:
                proc = run.wait()
            for path, oid in zip(batch, proc.stdout.decode("ascii").split(), strict=True):
                out[path] = (oid, self._repo.read_blob(oid))
        return out

    def _hashing(self, batch: list[str]) -> StartedGit:
        return StartedGit(self._repo.run_dir, ["hash-object", "-w", "--", *batch], self._repo.object_sink())

    def __enter__(self) -> PendingContents:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._first is not None:
            self._first.cancel()


def _batches(paths: Sequence[str]) -> list[list[str]]:
    batches: list[list[str]] = []
    size = _ARGS_BUDGET
    for path in paths:
        length = len(os.fsencode(path)) + 1
        if size + length > _ARGS_BUDGET:
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += length
    return batches


def _is_regular(repo: GitRepo, path: str) -> bool:
    full = worktree_path(repo, path)
    return full.is_file() and not full.is_symlink()
