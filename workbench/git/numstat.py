"""Per-file line counts of ``git diff --numstat``, the numbers a sync PR body quotes.

The sync procedure sums ``git diff --numstat origin/dev...HEAD -- '*.py'``
over every Python file of the sync, not only the conflicted ones, so the
count comes from git itself rather than from the hunk model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.git.repo import GitRepo
from workbench.git.runner import run_git


@dataclass(frozen=True, slots=True)
class NumstatEntry:
    """One changed file: lines added and deleted (None for a binary file)."""

    path: str
    added: int | None
    deleted: int | None
    old_path: str | None = None
    """The path before a detected rename, else None."""


def numstat(
    repo: GitRepo, old: str, new: str | None, pathspecs: Sequence[str] = ()
) -> tuple[NumstatEntry, ...]:
    """``git diff --numstat OLD NEW -- PATHSPECS``; ``new=None`` diffs the work tree.

    Renames are detected (``-M``, git's default for ``git diff``) whatever
    the user's ``diff.renames`` says, so the figures match the procedure's.
    Trees from ``merge_tree`` live in the repository's object quarantine, so
    git reads through it; against the work tree it refreshes a copy of the
    index, never the index itself.
    """
    args = ["diff", "--numstat", "-z", "-M", "--no-ext-diff", "--no-textconv", "--no-relative", old]
    env = repo.object_quarantine()
    if new is not None:
        args.append(new)
    else:
        env = {**env, **repo.private_index()}
    args += ["--", *pathspecs]
    proc = run_git(repo.run_dir, args, extra_env=env)
    return parse_numstat(proc.stdout)


def parse_numstat(out: bytes) -> tuple[NumstatEntry, ...]:
    """Parse ``--numstat -z``: ``A\\tD\\tPATH\\0`` or, for a rename, ``A\\tD\\t\\0OLD\\0NEW\\0``."""
    fields = out.split(b"\0")
    entries: list[NumstatEntry] = []
    pos = 0
    while pos < len(fields) and fields[pos]:
        added, deleted, path = fields[pos].split(b"\t", 2)
        old_path = None
        if not path:
            old_path, path = _path(fields[pos + 1]), fields[pos + 2]
            pos += 3
        else:
            pos += 1
        entries.append(NumstatEntry(_path(path), _count(added), _count(deleted), old_path))
    return tuple(entries)


def _count(raw: bytes) -> int | None:
    return None if raw == b"-" else int(raw)


def _path(raw: bytes) -> str:
    return raw.decode("utf-8", "surrogateescape")
