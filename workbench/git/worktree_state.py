"""What a merge in progress reads from the index and the work tree, as one digest (no pygit2).

A merge in progress has the work tree for its result, so its analysis is a
function of more than commit ids: the index (the unmerged stages and every
tracked path) and the tracked files' content in the work tree (the
conflicted files as someone left them, any other file the stages read).
Untracked files are not part of the result (``RepoFiles`` reads tracked
paths only), so they are not part of the digest either.

The digest is read with git itself, side by side: ``ls-files -s`` for the
index and ``status`` (without taking the index lock, so nothing under
``.git`` is written) for the tracked files whose content differs from the
index (only those: a file the merge staged as it is in the work tree is
the index's), whose bytes are then hashed here.  A clean filter or a sparse
checkout makes what git reads depend on more than these bytes: no digest.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from pathlib import Path

from workbench.git.runner import git_env, git_executable

_FIELDS_BEFORE_PATH = {b"1": 8, b"u": 10}
"""Fields of a ``status --porcelain=v2`` record before its path: ordinary changes, unmerged paths."""


def worktree_digest(worktree: Path, gitdir: Path, config: bytes) -> str | None:
    """SHA-256 of the index and the tracked files' content, or None when that cannot be told surely.

    ``config``: ``git config --list -z`` as the caller read it (filters
    and sparse checkouts are refused from it).
    """
    if _unkeyable(config):
        return None
    env = {**git_env(), "GIT_OPTIONAL_LOCKS": "0"}
    commands = [
        ["ls-files", "-s", "-z"],
        ["status", "--porcelain=v2", "-z", "--untracked-files=no", "--ignore-submodules=none", "--no-renames"],
    ]
    try:
        procs = [
            subprocess.Popen([git_executable(), *args], cwd=worktree, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            for args in commands
        ]
        (index, index_status), (changes, changes_status) = [(p.communicate()[0], p.returncode) for p in procs]
    except OSError:
        return None
    if index_status != 0 or changes_status != 0:
        return None
    paths = _changed_paths(changes)
    if paths is None:
        return None
    digest = hashlib.sha256()
    digest.update(b"index\0" + hashlib.sha256(index).digest())
    digest.update(b"status\0" + hashlib.sha256(changes).digest())
    for path in sorted(paths):
        content = _content(worktree / os.fsdecode(path))
        if content is None:
            return None
        digest.update(path + b"\0" + content + b"\0")
    return digest.hexdigest()


def _unkeyable(config: bytes) -> bool:
    """A clean filter (an outside program reads the work tree) or a sparse checkout (files left out)."""
    for entry in config.split(b"\0"):
        name = entry.split(b"\n", 1)[0].lower()
        if name.startswith(b"filter.") or name in (b"core.sparsecheckout", b"index.sparse"):
            return True
    return False


def _changed_paths(status: bytes) -> list[bytes] | None:
    """The paths whose work-tree file differs from the index, from ``status --porcelain=v2 -z`` records.

    An ordinary record whose work-tree column is ``.`` changed only between
    HEAD and the index (a file the merge staged): its content is the index's,
    which ``ls-files -s`` already holds.  An unmerged path is always read.
    None for a record this reader does not know (a rename, a new format).
    """
    found = []
    for record in status.split(b"\0"):
        if not record:
            continue
        fields = _FIELDS_BEFORE_PATH.get(record[:1])
        if fields is None:
            return None
        parts = record.split(b" ", fields)
        if len(parts) != fields + 1 or len(parts[1]) != 2:
            return None
        if record[:1] == b"u" or parts[1][1:] != b".":
            found.append(parts[fields])
    return found


def _content(path: Path) -> bytes | None:
    """A changed tracked file's state: the SHA-256 of its bytes or its link's target, or its absence.

    None for what this digest does not model: a directory (a submodule whose
    checkout moved, a file replaced by a directory) or a file it cannot read.
    """
    try:
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            return b"link" + hashlib.sha256(os.fsencode(os.readlink(path))).digest()
        if stat.S_ISREG(mode):
            executable = b"x" if mode & stat.S_IXUSR else b"-"
            return b"file" + executable + hashlib.sha256(path.read_bytes()).digest()
        return None
    except FileNotFoundError:
        return b"absent"
    except OSError:
        return None
