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
import re
import tempfile
import warnings
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from workbench.analysis.model import ConflictKind, Mode
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.worktree import disk_oid, stage_gitlink, stage_path, unstage_deleted, worktree_path
from workbench.resolve.events import Event, FileChoice
from workbench.resolve.session import Session

_OPEN = re.compile(rb"^<{7}(?: |\r?$)", re.M)
_MIDDLE = re.compile(rb"^={7}\r?$", re.M)
_CLOSE = re.compile(rb"^>{7}(?: |\r?$)", re.M)
_EXECUTABLE = 0o100755


class Blocked(str, Enum):
    """Why a file may not be written as it stands."""

    MARKERS = "markers"
    SYNTAX = "syntax"
    CHANGED_ON_DISK = "changed-on-disk"
    NO_WORKTREE = "no-worktree"
    UNSAFE_PATH = "unsafe-path"


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


def conflict_markers(data: bytes) -> bool:
    """A complete marker block (<<<<<<< ... ======= ... >>>>>>>) is present."""
    start = _OPEN.search(data)
    if not start:
        return False
    middle = _MIDDLE.search(data, start.end())
    return bool(middle and _CLOSE.search(data, middle.end()))


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


def capture_disk_state(repo: GitRepo, paths: list[str]) -> dict[str, str | None]:
    """What the work tree holds now for each path: the baseline a session guards."""
    if repo.workdir is None:
        return {}
    state: dict[str, str | None] = {}
    for path in paths:
        try:
            state[path] = disk_oid(repo, path)
        except WorkbenchError:
            continue
    return state


def check_write(repo: GitRepo, session: Session, path: str, overwrite_changed: bool = False) -> WriteCheck:
    """Everything that must hold before ``path`` is written."""
    if repo.workdir is None:
        return WriteCheck(path, Blocked.NO_WORKTREE, "this repository has no work tree to write to")
    try:
        worktree_path(repo, path)
    except WorkbenchError as exc:
        return WriteCheck(path, Blocked.UNSAFE_PATH, str(exc))
    data = session.preview(path)
    if data is not None and conflict_markers(data):
        return WriteCheck(path, Blocked.MARKERS, f"{path} still holds conflict markers: decide every hunk first")
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
        if stage:
            unstage_deleted(repo, path)
        event = session.mark_written(path, None)
        return WriteOutcome(path, True, stage, f"deleted {path}", event)
    side = entry.main if choice is FileChoice.TAKE_MAIN else entry.dev
    if entry.kind is ConflictKind.SYMLINK and (side.mode == 0o120000):
        _atomic_symlink(target, os.fsdecode(data))
    else:
        executable = side.mode == _EXECUTABLE if side.mode else _is_executable(target)
        atomic_write(target, data, executable)
    if stage:
        stage_path(repo, path)
    oid = repo.hash_bytes(data)
    event = session.mark_written(path, oid)
    return WriteOutcome(path, True, stage, f"wrote {path}" + (" and staged it" if stage else ""), event)


def _write_gitlink(repo: GitRepo, session: Session, path: str, choice: FileChoice | None, stage: bool) -> WriteOutcome:
    entry = session.file(path)
    side = {FileChoice.KEEP_DEV: entry.dev, FileChoice.TAKE_MAIN: entry.main}.get(choice) if choice else None
    if not stage:
        return WriteOutcome(path, False, False, f"{path} is a submodule: commit the pointer you want by hand")
    if side is None or side.oid is None:
        unstage_deleted(repo, path)
        event = session.mark_written(path, None)
        return WriteOutcome(path, True, True, f"removed submodule {path} from the index", event)
    stage_gitlink(repo, path, side.oid)
    event = session.mark_written(path, side.oid)
    return WriteOutcome(path, True, True, f"pointed submodule {path} at {side.oid[:10]}", event)


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
