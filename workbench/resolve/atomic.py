"""Putting one file in the work tree so that a crash leaves the old file or the new, never half.

The write goes to a temporary file in the same directory, with the file's
own permissions (the umask's for a new one), is fsynced and renamed over
the target; the directory is fsynced after.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

from workbench.errors import WorkbenchError


def atomic_write(target: Path, data: bytes, executable: bool) -> None:
    """Temp file in the same directory, fsync, rename: the old file or the new, never half.

    The temporary name is short whatever the target's (a name near NAME_MAX
    must still be writable); the file keeps its permissions, a new one gets
    the umask's, and the executable bit follows ``executable``.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    prefix = _temp_prefix(target)
    for stale in target.parent.glob(f"{prefix}*.workbench-tmp"):
        stale.unlink(missing_ok=True)  # left by a write that was killed mid-way
    if target.is_dir() and not target.is_symlink():
        raise WorkbenchError(f"{target.name} is a directory")
    permissions = _permissions(target, executable)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".workbench-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, permissions)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _temp_prefix(target: Path) -> str:
    """``.wb-<digest of the name>.``: the same for every write of one file, short for any name."""
    digest = hashlib.sha1(os.fsencode(target.name)).hexdigest()[:16]
    return f".wb-{digest}."


def _permissions(target: Path, executable: bool) -> int:
    """The file's own permission bits with the executable bit set or cleared; the umask's for a new file."""
    try:
        found = os.lstat(target)
    except FileNotFoundError:
        found = None
    if found is None or not stat.S_ISREG(found.st_mode):  # nothing there, or a symlink the file replaces
        current = 0o666 & ~_umask()
    else:
        current = stat.S_IMODE(found.st_mode)
    readable = (current & 0o444) >> 2
    return (current | readable) if executable else (current & ~0o111)


def _umask() -> int:
    """The process umask, read without changing it (``os.umask`` sets it, racing other threads)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_symlink(target: Path, link_to: str) -> None:
    tmp = target.with_name(f"{_temp_prefix(target)}workbench-tmp-link")
    tmp.unlink(missing_ok=True)
    os.symlink(link_to, tmp)
    os.replace(tmp, target)
    _fsync_dir(target.parent)


def prune_directory(target: Path) -> None:
    """Remove the empty directories at ``target`` (the other side's, its files removed as ``gone``)."""
    if target.is_symlink() or not target.is_dir():
        return
    for folder, _dirs, _names in sorted(os.walk(target), key=lambda found: -len(found[0])):
        os.rmdir(folder)


def remove(target: Path) -> None:
    if target.is_symlink() or target.is_file():
        target.unlink()
        _fsync_dir(target.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
