"""Writing decided files: checked, atomic, and never over someone else's change.

Before a write: the result must not hold conflict markers, a Python file
must parse, and the file on disk must still be what the session loaded (or
the user must have said yes).  The write goes to a temporary file in the same
directory, is fsynced and renamed over the target; only then is the index
updated (during a merge in progress).  A failure leaves the old file intact.
"""

from __future__ import annotations

import ast
import glob
import os
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from workbench.analysis.model import ConflictKind, FileAnalysis, FileStatus, Mode, SyncAnalysis
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.worktree import (
    checkout_form,
    disk_oid,
    stage_gitlink,
    stage_path,
    unstage_deleted,
    worktree_path,
)
from workbench.resolve.events import Event, FileChoice, chosen_oid
from workbench.resolve.markers import conflict_markers
from workbench.resolve.session import Session, SessionError

_EXECUTABLE = 0o100755


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


@dataclass(frozen=True, slots=True)
class WriteCheck:
    """Whether ``path`` can be written now, and if not, a sentence saying why."""

    path: str
    blocked: Blocked | None = None
    message: str = ""

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


def python_syntax_error(data: bytes, path: str) -> str | None:
    """The first syntax error of a Python file, as 'line N: message', or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data, filename=path)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    except ValueError as exc:
        return str(exc)
    return None


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
    """Everything that must hold before ``path`` is written."""
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
    try:
        data = session.preview(path)
    except SessionError as exc:
        return WriteCheck(path, Blocked.OVERLAP, str(exc))
    if data is not None and conflict_markers(data):
        return WriteCheck(path, Blocked.MARKERS, _markers_message(session, path))
    if data is not None and path.endswith(".py"):
        error = python_syntax_error(data, path)
        if error:
            return WriteCheck(path, Blocked.SYNTAX, f"{path} would not parse ({error}): edit the hunk before writing")
    if not overwrite_changed:
        expected = session.disk_oid(path)
        current = disk_oid(repo, path)
        if expected is not False and current != expected:
            return WriteCheck(
                path,
                Blocked.CHANGED_ON_DISK,
                f"{path} changed on disk since it was loaded: overwrite it?",
            )
    return WriteCheck(path)


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
    """Write (and during a merge in progress, stage) one decided file."""
    check = check_write(repo, session, path, overwrite_changed)
    if not check.ok:
        return WriteOutcome(path, False, False, check.message)
    entry = session.file(path)
    if stage is None:
        stage = session.analysis.mode is Mode.IN_PROGRESS
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
    if mode == 0o120000:
        _atomic_symlink(target, os.fsdecode(data))
    else:
        atomic_write(target, checkout_form(repo, path, data), mode == _EXECUTABLE)
    event = session.mark_written(path, repo.hash_bytes(data))
    return _staged(repo, path, stage, f"wrote {path}", event, stage_path)


def _mode_for(entry: FileAnalysis, choice: FileChoice | None) -> int:
    """The file mode to write: the chosen side's for a whole-file choice, else the result's."""
    if choice is FileChoice.TAKE_MAIN and entry.main.mode:
        return entry.main.mode
    if choice is FileChoice.KEEP_DEV and entry.dev.mode:
        return entry.dev.mode
    return entry.result_mode or entry.main.mode or entry.dev.mode or 0o100644


def _staged(
    repo: GitRepo, path: str, stage: bool, message: str, event: Event, update: Callable[[GitRepo, str], None]
) -> WriteOutcome:
    """Update the index after the file is in place; a failure there is reported, not raised."""
    if not stage:
        return WriteOutcome(path, True, False, message, event)
    try:
        update(repo, path)
    except WorkbenchError as exc:
        return WriteOutcome(path, True, False, f"{message}, but staging failed: {exc}", event)
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
    """Temp file in the same directory, fsync, rename: the old file or the new, never half."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.workbench-tmp"):
        stale.unlink(missing_ok=True)  # left by a write that was killed mid-way
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".workbench-tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o755 if executable else 0o644)
        if target.is_dir() and not target.is_symlink():
            raise WorkbenchError(f"{target} is a directory")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(target.parent)


def _atomic_symlink(target: Path, link_to: str) -> None:
    tmp = target.with_name(f".{target.name}.workbench-tmp-link")
    tmp.unlink(missing_ok=True)
    os.symlink(link_to, tmp)
    os.replace(tmp, target)
    _fsync_dir(target.parent)


def _remove(target: Path) -> None:
    if target.is_symlink() or target.is_file():
        target.unlink()
        _fsync_dir(target.parent)


def _is_executable(target: Path) -> bool:
    return target.is_file() and os.access(target, os.X_OK)


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
