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
from workbench.git.runner import run_git
from workbench.git.worktree import worktree_path

_ARGS_BUDGET = 64 * 1024
"""Bytes of paths per git run, well under any system's argument limit."""


def clean_contents(repo: GitRepo, paths: Sequence[str]) -> dict[str, tuple[str, bytes]]:
    """What ``git add`` would store for each regular file: (blob id, bytes).

    Paths that are not regular files are left out.
    """
    regular = [p for p in paths if _is_regular(repo, p)]
    out: dict[str, tuple[str, bytes]] = {}
    for batch in _batches(regular):
        proc = run_git(repo.run_dir, ["hash-object", "-w", "--", *batch], extra_env=repo.object_sink())
        for path, oid in zip(batch, proc.stdout.decode("ascii").split(), strict=True):
            out[path] = (oid, repo.read_blob(oid))
    return out


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
