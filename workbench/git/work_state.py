"""What a merge in progress is beyond its commits: the index, and the work-tree files the analysis reads.

The analysis of a merge in progress reads the index (its stages and
flags), the tracked files as they are on disk (cleaned as ``git add``
would), the attributes files of their directories (tracked or not) and
the policy file.  Their state is read here cheaply, with ``lstat`` and a
few git commands, never by reading the tracked files:

- the index listing itself (modes, ids, stages, ``assume-unchanged`` and
  ``skip-worktree`` tags) and the file times it keeps;
- the ``lstat`` (mode, size, inode, modification and change times, to the
  nanosecond) of each path of the index, of dev's tree and of main's, or
  that it is missing (git's merge result and its conflicts are read from
  the work tree at those paths, tracked or not);
- each directory of those paths by type and inode (a symlinked directory
  is followed by a path's ``lstat``, not by git), and the bytes of its
  ``.gitattributes``, and of the work tree's policy files.

A write changes a file's change time, which nothing can set back, so an
unchanged ``lstat`` means unchanged bytes, with git's racy-git exception:
a file changed within the clock's granularity of the reading.  The state
is ``settled`` only when every file read is older than ``RACY_SECONDS``;
an analysis is stored only under a settled state that was the same before
and after it (``SyncIdentity.work_stamp``), and any state is looked up.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

RACY_SECONDS = 3.0
"""How recent a file may be before its ``lstat`` no longer tells its bytes (coarse clocks, 2 s on FAT)."""
POLICY_FILES = (".workbench.toml", "pyproject.toml")
"""Read from the work tree during a merge, untracked as they may be (``read_policy_config``)."""
_ATTRIBUTES = ".gitattributes"


@dataclass(frozen=True)
class WorkState:
    """A digest of the state (for the key), and whether an analysis of it may be stored."""

    digest: str
    settled: bool
    stamp: tuple[int, ...]
    """The index file's inode, size and times: equal before and after an analysis, no git wrote it meanwhile."""


def read_work_state(
    top: Path, index: Path, listing: bytes, cached_stat: bytes, tree_paths: list[bytes]
) -> WorkState | None:
    """The state of the work tree at ``top`` with ``index`` (its file) and ``listing`` (``ls-files -s -v -z``).

    ``cached_stat``: ``ls-files -s --debug -z``, the file times the index
    keeps, which git trusts (``diff-index``; under ``core.trustctime=false``
    a same-size edit with its mtime put back is no change to git).
    ``tree_paths``: ``ls-tree -r --name-only -z`` of dev's and main's trees:
    a path of either is read from the work tree (git's merge result, a
    conflict) even when the index has none.  None when the state cannot be
    told by ``lstat``: a submodule (its checkout is read through it), or an
    unreadable listing.
    """
    try:
        return _work_state(top, index, listing, cached_stat, tree_paths)
    except OSError:
        return None


def _work_state(top: Path, index: Path, listing: bytes, cached_stat: bytes, tree_paths: list[bytes]) -> WorkState | None:
    started = time.time()
    digest = hashlib.sha256(listing)
    digest.update(hashlib.sha256(cached_stat).digest())
    paths: set[bytes] = set()
    for record in listing.split(b"\0"):
        if not record:
            continue
        head, tab, raw = record.partition(b"\t")
        fields = head.split()
        if not tab or len(fields) != 4 or fields[1] == b"160000":
            return None
        paths.add(raw)
    for listed in tree_paths:
        paths.update(raw for raw in listed.split(b"\0") if raw)
    root = os.fsencode(top) + b"/"
    newest = 0
    stats: list[bytes] = []  # one line per path, hashed at once: a warm run pays this loop for every path
    for raw in sorted(paths):
        try:
            found = os.lstat(root + raw)
        except OSError:
            stats.append(b"%s\0absent\0" % raw)
            continue
        stats.append(b"%s\0%o %d %d %d %d\0" % (raw, found.st_mode, found.st_size, found.st_ino,
                                                 found.st_mtime_ns, found.st_ctime_ns))
        newest = max(newest, found.st_mtime_ns, found.st_ctime_ns)
    digest.update(b"".join(stats))
    dirs = {os.fsdecode(raw) for raw in {raw.rpartition(b"/")[0] for raw in paths}}
    dirs.add("")
    where = os.fspath(top)
    for name in sorted(_with_parents(dirs)):
        digest.update(_dir_token(name, where))
        digest.update(_file_token(f"{name}/{_ATTRIBUTES}" if name else _ATTRIBUTES, where))
    for name in POLICY_FILES:
        digest.update(_file_token(name, where))
    settled = newest < (started - RACY_SECONDS) * 1e9
    return WorkState(digest.hexdigest(), settled, file_stamp(index) or ())


def _with_parents(dirs: set[str]) -> set[str]:
    """``dirs`` and every directory above one of them ("a/b" adds "a"); the top is ""."""
    found = set(dirs)
    for name in dirs:
        while name:
            name = name.rpartition("/")[0]
            if name in found:
                break
            found.add(name)
    return found


def file_stamp(path: str | Path, *, follow_symlinks: bool = False) -> tuple[int, ...] | None:
    """(mode, size, inode, mtime ns, ctime ns) of ``path`` (by default a symlink's own), or None when missing."""
    try:
        found = os.stat(path, follow_symlinks=follow_symlinks)
    except OSError:
        return None
    return (found.st_mode, found.st_size, found.st_ino, found.st_mtime_ns, found.st_ctime_ns)


def _dir_token(name: str, top: str) -> bytes:
    """A directory by its type and inode (and a symlink's target): a path's ``lstat`` follows its directories.

    Git treats a path under a symlinked directory as gone; moving the
    directory and linking to it keeps every file's ``lstat``.  Not its
    times: they move with any file made or removed in it.
    """
    if not name:
        return b""
    path = os.path.join(top, name)
    info = file_stamp(path)
    head = b"\0dir " + os.fsencode(name) + b"\0"
    if info is None:
        return head + b"absent"
    target = os.fsencode(os.readlink(path)) if stat.S_ISLNK(info[0]) else b""
    return head + repr((stat.S_IFMT(info[0]), info[2])).encode("ascii") + target


def _file_token(name: str, top: str) -> bytes:
    """The bytes that stand for the small file ``name`` under ``top`` in the digest: its name and content.

    A symlink stands for its target, anything else for its type; an
    unreadable file raises OSError (no state, nothing cached).
    """
    path = os.path.join(top, name)
    info = file_stamp(path)
    head = b"\0" + os.fsencode(name) + b"\0"
    if info is None:
        return head + b"absent"
    if stat.S_ISLNK(info[0]):
        return head + b"link\0" + os.fsencode(os.readlink(path))
    if stat.S_ISREG(info[0]):
        with open(path, "rb") as handle:
            return head + hashlib.sha256(handle.read()).digest()
    return head + b"mode " + str(stat.S_IFMT(info[0])).encode("ascii")
