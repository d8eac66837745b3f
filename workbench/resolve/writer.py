"""Writing decided files: a checked plan carried out atomically, and never over someone else's change.

``check_write`` (``write_plan.py``) checks a file and returns its plan;
``write_file`` carries it out.  The write goes to a temporary file in the
same directory, with the file's own permissions (the umask's for a new
one), is fsynced and renamed over the target; the file is read back and
checked for markers once more; only then is the index updated (during a
merge in progress).  A work tree that changed since the plan was made stops
the write.  A failure (no space, a read-only file system, a name too long,
a held index lock) leaves the old file intact, keeps the decisions and says
which file and why.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from workbench.analysis.model import Mode
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.types import FileMode
from workbench.git.worktree import stage_gitlink, stage_path, unstage_deleted, worktree_path
from workbench.resolve.events import Event
from workbench.resolve.markers import any_markers, conflict_markers
from workbench.resolve.session import Session
from workbench.resolve.write_plan import (
    Action,
    Blocked,
    Refusal,
    WriteCheck,
    WritePlan,
    check_write,
    fits,
    moved,
    write_blocker,
)

__all__ = ["Blocked", "Refusal", "WriteCheck", "WriteOutcome", "WritePlan", "check_write", "conflict_markers",
           "write_blocker", "write_file"]


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """What a write did; ``event`` must be appended to the journal."""

    path: str
    written: bool
    staged: bool
    message: str
    event: Event | None = None
    warning: str = ""
    """What could not be checked before the file was written (the user must be told)."""


def write_file(
    repo: GitRepo, session: Session, path: str, *, stage: bool | None = None, overwrite_changed: bool = False,
    plan: WritePlan | None = None,
) -> WriteOutcome:
    """Write (and during a merge in progress, stage) one decided file: ``plan`` when it still fits, else a new one.

    Never raises for a failed write: the outcome says which file and why,
    the file is as it was and the decisions stay.
    """
    if stage is None:
        stage = session.analysis.mode is Mode.IN_PROGRESS
    if plan is None or plan.path != path or not fits(session, plan, stage, overwrite_changed):
        check = check_write(repo, session, path, overwrite_changed, stage)
        if not check.ok:
            return WriteOutcome(path, False, False, check.message)
        assert isinstance(check, WritePlan)
        plan = check
    changed = moved(repo, plan)
    if changed is not None:
        return WriteOutcome(path, False, False, f"{changed} changed on disk since {path} was checked: write it again")
    try:
        outcome = _carry_out(repo, session, plan)
    except (OSError, WorkbenchError) as exc:
        return WriteOutcome(path, False, False, f"{path} not written: {_reason(exc)}")
    if not outcome.written:
        return outcome
    removed = f"removed {_listed(plan.gone)}" if plan.gone and plan.action is not Action.DELETE else ""
    message = outcome.message + "".join(f" ({words})" for words in (removed, plan.note, plan.warning) if words)
    return WriteOutcome(path, True, outcome.staged, message, outcome.event, plan.warning)


def _carry_out(repo: GitRepo, session: Session, plan: WritePlan) -> WriteOutcome:
    path = plan.path
    target = worktree_path(repo, path)
    gone = plan.gone
    if plan.action is Action.WRITE:
        _only_gone_inside(repo, target, gone)
    for other in gone:
        _remove(worktree_path(repo, other))
    if plan.action is Action.GITLINK:
        assert plan.commit is not None
        stage_gitlink(repo, path, plan.commit, gone)
        event = session.mark_written(path, plan.commit)
        return WriteOutcome(path, True, True, f"pointed submodule {path} at {plan.commit[:10]}", event)
    if plan.action is Action.DELETE:
        event = session.mark_written(path, None)
        if not plan.own_entry:  # the kept side's directory is at the path
            words = f"removed {', '.join(gone)} (the directory {path}/ stays)" if gone else f"kept the directory {path}/"
            return _staged(repo, plan, words, event, lambda: unstage_deleted(repo, gone[0], gone[1:]) if gone else None)
        _remove(target)
        return _staged(repo, plan, f"deleted {path}", event, lambda: unstage_deleted(repo, path, gone))
    assert plan.blob is not None
    _prune_directory(target)
    if plan.mode == FileMode.SYMLINK:
        _atomic_symlink(target, os.fsdecode(plan.blob))
    else:
        assert plan.checkout is not None
        atomic_write(target, plan.checkout, plan.executable)
    event = session.mark_written(path, repo.hash_bytes(plan.blob))
    if plan.mode != FileMode.SYMLINK:
        left = any_markers(target.read_bytes(), plan.marker_sizes)
        if left is not None:
            return WriteOutcome(path, True, False, f"wrote {path}, but it still holds conflict markers: not staged", event)
    blob = plan.blob
    return _staged(repo, plan, f"wrote {path}", event, lambda: stage_path(repo, path, (plan.mode, blob), gone))


def _listed(paths: tuple[str, ...]) -> str:
    return ", ".join(paths) if len(paths) <= 3 else f"{', '.join(paths[:3])} and {len(paths) - 3} more"


def _reason(exc: BaseException) -> str:
    """Why a write failed, in words (no traceback, no errno numbers)."""
    if isinstance(exc, OSError):
        words = {
            errno.ENAMETOOLONG: "its name is too long for the file system",
            errno.ENOSPC: "no space left on the device",
            errno.EROFS: "the file system is read-only",
            errno.EACCES: "permission denied",
            errno.EPERM: "permission denied",
            errno.EDQUOT: "disk quota exceeded",
        }
        return words.get(exc.errno or 0, exc.strerror or str(exc)) + "; the file is unchanged and your decisions are kept"
    return f"{exc}; the file is unchanged and your decisions are kept"


def _staged(repo: GitRepo, plan: WritePlan, message: str, event: Event, update: Callable[[], None]) -> WriteOutcome:
    """Update the index after the file is in place; a failure there is reported, not raised."""
    if not plan.stage:
        return WriteOutcome(plan.path, True, False, message, event)
    try:
        update()
    except WorkbenchError as exc:
        return WriteOutcome(plan.path, True, False, f"{message} but did not stage it: {exc}; run git add yourself", event)
    return WriteOutcome(plan.path, True, True, f"{message} and staged it", event)


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


def _atomic_symlink(target: Path, link_to: str) -> None:
    tmp = target.with_name(f"{_temp_prefix(target)}workbench-tmp-link")
    tmp.unlink(missing_ok=True)
    os.symlink(link_to, tmp)
    os.replace(tmp, target)
    _fsync_dir(target.parent)


def _only_gone_inside(repo: GitRepo, target: Path, gone: tuple[str, ...]) -> None:
    """Refuse, before anything is removed, a directory in the way that holds a file the plan does not remove."""
    if target.is_symlink() or not target.is_dir():
        return
    removed = {worktree_path(repo, other) for other in gone}
    for folder, _dirs, names in os.walk(target):
        for name in names:
            if Path(folder, name) not in removed:
                raise WorkbenchError(f"{target.name}/ holds {name}, which appeared since the check: nothing was removed")


def _prune_directory(target: Path) -> None:
    """Remove the empty directories at ``target`` (the other side's, its files removed as ``gone``)."""
    if target.is_symlink() or not target.is_dir():
        return
    for folder, _dirs, _names in sorted(os.walk(target), key=lambda found: -len(found[0])):
        os.rmdir(folder)


def _remove(target: Path) -> None:
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
