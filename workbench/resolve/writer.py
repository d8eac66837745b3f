"""Writing decided files: checked, atomic, and never over someone else's change.

Before a write: the result must not hold conflict markers (of the length
the file's ``conflict-marker-size`` gives), a Python file must parse, and the
file on disk must still be what the session loaded, executable bit included
(or the user must have said yes).  The write goes to a temporary file in the
same directory, with the file's own permissions (the umask's for a new one),
is fsynced and renamed over the target; the file is read back and checked for
markers once more; only then is the index updated (during a merge in
progress).  A failure (no space, a read-only file system, a name too long, a
held index lock) leaves the old file intact, keeps the decisions and says
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
from enum import Enum
from pathlib import Path

from workbench.analysis.conflict_map import locate
from workbench.analysis.model import ConflictKind, FileAnalysis, FileStatus, Mode, SyncAnalysis
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.types import BLOB_MODES, FileMode
from workbench.git.worktree import (
    checkout_form,
    marker_size,
    stage_gitlink,
    stage_path,
    stage_problem,
    unstage_deleted,
    worktree_mode,
    worktree_path,
)
from workbench.git.worktree_read import disk_oid
from workbench.resolve.events import Event, FileChoice, chosen_oid
from workbench.resolve.markers import any_markers, conflict_markers
from workbench.resolve.python_check import check_python
from workbench.resolve.renormalize import as_git_stages
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import ConflictTextError

__all__ = ["Blocked", "WriteCheck", "WriteOutcome", "check_write", "conflict_markers", "write_blocker", "write_file"]


class Blocked(str, Enum):
    """Why a file may not be written as it stands."""

    MARKERS = "markers"
    SYNTAX = "syntax"
    CHANGED_ON_DISK = "changed-on-disk"
    NO_WORKTREE = "no-worktree"
    UNSAFE_PATH = "unsafe-path"
    UNDECIDED = "undecided"
    NOT_WRITABLE = "not-writable"
    OVERLAP = "overlap"
    RENORMALIZE = "renormalize"
    """``merge.renormalize`` changes this file's sides in a way the model does not follow."""
    CONFLICT_TEXT = "conflict-text"
    """The conflict blocks in the work tree do not match the hunks (only a whole-side choice is written)."""
    NOT_STAGEABLE = "not-stageable"
    """``git add`` would fail (a held index lock, a path outside the sparse-checkout cone)."""


@dataclass(frozen=True, slots=True)
class WriteCheck:
    """Whether ``path`` can be written now, and if not, a sentence saying why."""

    path: str
    blocked: Blocked | None = None
    message: str = ""
    warning: str = ""
    """Something that could not be checked (the write may go ahead)."""

    @property
    def ok(self) -> bool:
        return self.blocked is None


@dataclass(frozen=True, slots=True)
class WriteOutcome:
    """What a write did; ``event`` must be appended to the journal."""

    path: str
    written: bool
    staged: bool
    message: str
    event: Event | None = None


def write_blocker(repo: GitRepo, analysis: SyncAnalysis) -> str | None:
    """Why nothing of this sync may be written to the work tree, or None.

    Only the situation the analysis describes may be written: the merge in
    progress it read, or the merge commit (or --result commit) when it is
    what HEAD points at.  A preview, or a merge commit that is not checked
    out, would overwrite unrelated work.
    """
    if repo.workdir is None:
        return "this repository has no work tree to write to"
    head = repo.head()
    if analysis.mode is Mode.MERGETOOL:
        return None  # git mergetool handed us MERGED to write
    if analysis.mode is Mode.PREVIEW:
        return "a preview writes nothing: open the merge in progress, or the sync branch, to write"
    if analysis.mode is Mode.IN_PROGRESS:
        if head != analysis.dev or analysis.main not in repo.merge_heads():
            return "the merge in progress changed since it was loaded: reopen the workbench"
        return None
    if head != analysis.result_commit:
        target = (analysis.result_commit or "")[:10]
        return f"the work tree is not at {target} (HEAD is {(head or 'unborn')[:10]}): check it out to write fixes"
    return None


def check_write(repo: GitRepo, session: Session, path: str, overwrite_changed: bool = False) -> WriteCheck:
    """Everything that must hold before ``path`` is written (a probe of the disk that fails blocks, never raises)."""
    try:
        return _check_write(repo, session, path, overwrite_changed)
    except (OSError, WorkbenchError) as exc:
        return WriteCheck(path, Blocked.NOT_WRITABLE, f"{path} cannot be checked: {_reason(exc)}")


def _check_write(repo: GitRepo, session: Session, path: str, overwrite_changed: bool) -> WriteCheck:
    blocker = write_blocker(repo, session.analysis)
    if blocker is not None:
        blocked = Blocked.NO_WORKTREE if repo.workdir is None else Blocked.NOT_WRITABLE
        return WriteCheck(path, blocked, blocker)
    try:
        worktree_path(repo, path)
    except WorkbenchError as exc:
        return WriteCheck(path, Blocked.UNSAFE_PATH, str(exc))
    entry = session.file(path)
    if entry.status is FileStatus.CONFLICTED and not session.is_decided(path):
        return WriteCheck(path, Blocked.UNDECIDED, f"{path} is still conflicted: decide every hunk (or the whole file) first")
    if _spliced_over_an_inexact_model(session, entry):
        return WriteCheck(path, Blocked.CONFLICT_TEXT, f"{path}: the hunks do not re-create the conflict text git wrote "
                          "for this file, so a hunk-level splice could put the wrong lines in: choose the whole file "
                          "(keep dev's or take main's, in the file list) or resolve it in an editor")
    try:
        data = session.preview(path)
    except SessionError as exc:
        blocked = Blocked.CONFLICT_TEXT if isinstance(exc.__cause__, ConflictTextError) else Blocked.OVERLAP
        return WriteCheck(path, blocked, str(exc))
    if data is not None and as_git_stages(repo, session, path, data) is None:
        return WriteCheck(path, Blocked.RENORMALIZE, f"{path}: {_RENORMALIZE_MESSAGE}")
    if data is not None and any_markers(data, marker_sizes(repo, session, path)) is not None:
        return WriteCheck(path, Blocked.MARKERS, _markers_message(session, path))
    warning = ""
    if data is not None and path.endswith(".py"):
        python = check_python(data, path)
        if python.error:
            return WriteCheck(path, Blocked.SYNTAX, f"{path} would not parse ({python.error}): edit the hunk before writing")
        warning = python.warning or ""
    if not overwrite_changed:
        changed = _changed_on_disk(repo, session, path)
        if changed:
            return WriteCheck(path, Blocked.CHANGED_ON_DISK, f"{path} {changed} since it was loaded: overwrite it?")
    if session.analysis.mode is Mode.IN_PROGRESS and data is not None:
        problem = stage_problem(repo, path)
        if problem:
            return WriteCheck(path, Blocked.NOT_STAGEABLE, f"{path} not written: it could not be staged ({problem})")
    return WriteCheck(path, warning=warning)


_RENORMALIZE_MESSAGE = ("merge.renormalize is set, and git merged this file's sides renormalized in a way the "
                        "hunks shown do not follow (a side that changed only line ends, a side git leaves as "
                        "binary, a filter): resolve it in an editor")


def _spliced_over_an_inexact_model(session: Session, entry: FileAnalysis) -> bool:
    """Conflict hunks decided one by one in a file whose model git does not confirm (``exact`` false).

    During a merge in progress the work tree's own blocks are matched instead (``splice_conflicted``
    writes only what they hold); elsewhere the model is all there is, so only a whole-file choice
    (a side's blob, git's bytes) may be written."""
    if entry.exact is not False or session.analysis.mode is Mode.IN_PROGRESS:
        return False
    if session.file_choice(entry.path) is not None:
        return False
    return any(session.decision(entry.path, h.index) is not None for h in entry.hunks)


def marker_sizes(repo: GitRepo, session: Session, path: str) -> tuple[int, ...]:
    """The marker lengths that count as conflict markers in ``path``: its attribute's, and the work tree's blocks'."""
    sizes = [marker_size(repo, path)]
    entry = session.file(path)
    if entry.status is FileStatus.CONFLICTED and entry.merge is not None and entry.result_bytes is not None:
        found = locate(entry.result_bytes, entry.merge)
        if found is not None and found.text.marker_size not in sizes:
            sizes.append(found.text.marker_size)
    return tuple(sizes)


def _changed_on_disk(repo: GitRepo, session: Session, path: str) -> str | None:
    """How the file on disk differs from what the session loaded or last wrote ("changed", ...), or None."""
    if disk_oid(repo, path) != session.disk_oid(path):
        return "changed on disk"
    entry = session.file(path)
    if session.was_written(path) or entry.result_mode not in BLOB_MODES:
        return None
    target = worktree_path(repo, path)
    if target.is_symlink() or not target.is_file():
        return None
    executable = worktree_mode(repo, path, target.stat().st_mode) == FileMode.EXECUTABLE
    if executable != (entry.result_mode == FileMode.EXECUTABLE):
        return "became executable" if executable else "lost its executable bit"
    return None


def _markers_message(session: Session, path: str) -> str:
    """Which hunks still hold markers: the user's edits of them, when that is where they are."""
    marked = [index + 1 for index in session.marked_hunks(path)]
    if not marked:
        return f"{path} still holds conflict markers: decide every hunk first"
    which = f"hunk {marked[0]}" if len(marked) == 1 else "hunks " + ", ".join(str(n) for n in marked)
    return (f"{path} still holds conflict markers in your edit of {which}: "
            "edit it again (e) to remove them, or take a side")


def write_file(
    repo: GitRepo, session: Session, path: str, *, stage: bool | None = None, overwrite_changed: bool = False
) -> WriteOutcome:
    """Write (and during a merge in progress, stage) one decided file.

    Never raises for a failed write: the outcome says which file and why,
    the file is as it was and the decisions stay.
    """
    check = check_write(repo, session, path, overwrite_changed)
    if not check.ok:
        return WriteOutcome(path, False, False, check.message)
    if stage is None:
        stage = session.analysis.mode is Mode.IN_PROGRESS
    try:
        outcome = _write(repo, session, path, stage)
    except (OSError, WorkbenchError) as exc:
        return WriteOutcome(path, False, False, f"{path} not written: {_reason(exc)}")
    if check.warning and outcome.written:
        return WriteOutcome(path, outcome.written, outcome.staged, f"{outcome.message} ({check.warning})", outcome.event)
    return outcome


def _write(repo: GitRepo, session: Session, path: str, stage: bool) -> WriteOutcome:
    entry = session.file(path)
    choice = session.file_choice(path)
    target = worktree_path(repo, path)
    if entry.kind is ConflictKind.SUBMODULE:
        return _write_gitlink(repo, session, path, choice, stage)
    data = session.preview(path)
    if data is None:
        _remove(target)
        event = session.mark_written(path, None)
        return _staged(repo, path, stage, f"deleted {path}", event, unstage_deleted)
    mode = _mode_for(entry, choice)
    if mode != FileMode.SYMLINK:
        staged = as_git_stages(repo, session, path, data)  # merge.renormalize: git merged the sides renormalized
        if staged is None:
            raise WorkbenchError(_RENORMALIZE_MESSAGE)
        data = staged
    if mode == FileMode.SYMLINK:
        _atomic_symlink(target, os.fsdecode(data))
    else:
        atomic_write(target, checkout_form(repo, path, data), mode == FileMode.EXECUTABLE)
    event = session.mark_written(path, repo.hash_bytes(data))
    if mode != FileMode.SYMLINK:
        left = any_markers(target.read_bytes(), marker_sizes(repo, session, path))
        if left is not None:
            return WriteOutcome(path, True, False, f"wrote {path}, but it still holds conflict markers: not staged", event)
    return _staged(repo, path, stage, f"wrote {path}", event, lambda repo, path: stage_path(repo, path, (mode, data)))


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


def _mode_for(entry: FileAnalysis, choice: FileChoice | None) -> int:
    """The file mode to write: for a whole-file choice, git's merge of the modes, else the result's.

    git merges a file's mode apart from its content: one side's ``chmod +x``
    stays whichever side's content ``-X ours``/``-X theirs`` takes.  Only
    when both sides changed the mode, or the kinds differ (a symlink, a
    file), does the chosen side's mode decide.
    """
    chosen = {FileChoice.TAKE_MAIN: entry.main.mode, FileChoice.KEEP_DEV: entry.dev.mode}.get(choice) if choice else None
    if chosen:
        base, dev, main = entry.base.mode, entry.dev.mode, entry.main.mode
        if base in BLOB_MODES and dev in BLOB_MODES and main in BLOB_MODES:
            assert dev is not None and main is not None
            return dev if main == base else main if dev == base else chosen
        return chosen
    return entry.result_mode or entry.main.mode or entry.dev.mode or FileMode.REGULAR


def _staged(
    repo: GitRepo, path: str, stage: bool, message: str, event: Event, update: Callable[[GitRepo, str], None]
) -> WriteOutcome:
    """Update the index after the file is in place; a failure there is reported, not raised."""
    if not stage:
        return WriteOutcome(path, True, False, message, event)
    try:
        update(repo, path)
    except WorkbenchError as exc:
        return WriteOutcome(path, True, False, f"{message} but did not stage it: {exc}; run git add yourself", event)
    return WriteOutcome(path, True, True, f"{message} and staged it", event)


def _write_gitlink(repo: GitRepo, session: Session, path: str, choice: FileChoice | None, stage: bool) -> WriteOutcome:
    entry = session.file(path)
    oid = chosen_oid(entry, choice)
    if not stage:
        return WriteOutcome(path, False, False, f"{path} is a submodule: commit the pointer you want by hand")
    if oid is None:
        unstage_deleted(repo, path)
        event = session.mark_written(path, None)
        return WriteOutcome(path, True, True, f"removed submodule {path} from the index", event)
    stage_gitlink(repo, path, oid)
    event = session.mark_written(path, oid)
    return WriteOutcome(path, True, True, f"pointed submodule {path} at {oid[:10]}", event)


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
        current = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        current = 0o666 & ~_umask()
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
