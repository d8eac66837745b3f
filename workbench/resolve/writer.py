"""Writing decided files: checked plans carried out atomically, never over someone else's change.

``check_write`` (``write_plan.py``) checks a file and returns its plan;
``write_files`` carries plans out: each file goes into the work tree
atomically (``atomic.py``) and is read back and checked for markers once
more; then, during a merge in progress, the index is updated for all of
them at once (one ``git add``: each git run costs as much as the rest of a
file's write).  A work tree that changed since a plan was made stops that
file's write.  A failure (no space, a read-only file system, a name too
long, a held index lock) leaves the old file intact, keeps the decisions
and says which file and why.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.analysis.model import Mode
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.types import FileMode
from workbench.git.worktree import IndexUpdate, update_index, worktree_path
from workbench.resolve.atomic import atomic_symlink, atomic_write, prune_directory, remove
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
    check_writes,
    fits,
    moved,
    write_blocker,
)

__all__ = ["Blocked", "Refusal", "WriteCheck", "WriteOutcome", "WritePlan", "check_write", "check_writes",
           "conflict_markers", "write_blocker", "write_file", "write_files"]


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
        if not isinstance(check, WritePlan):
            return WriteOutcome(path, False, False, check.message)
        plan = check
    return write_files(repo, session, [plan])[0]


def write_files(repo: GitRepo, session: Session, plans: Sequence[WritePlan],
                progress: Callable[[int], None] | None = None) -> list[WriteOutcome]:
    """Carry out ``plans`` (made by ``check_write``, still fitting the session): every file into the work tree,
    then the index updated for all that stage (``progress`` hears how many files are done)."""
    done: list[tuple[WritePlan, WriteOutcome, IndexUpdate | None]] = []
    for count, plan in enumerate(plans):
        if progress is not None:
            progress(count)
        changed = moved(repo, plan)
        if changed is not None:
            words = f"{changed} changed on disk since {plan.path} was checked: write it again"
            done.append((plan, WriteOutcome(plan.path, False, False, words), None))
            continue
        try:
            outcome, update = _carry_out(repo, session, plan)
        except (OSError, WorkbenchError) as exc:
            outcome, update = WriteOutcome(plan.path, False, False, f"{plan.path} not written: {_reason(exc)}"), None
        done.append((plan, outcome, update))
    staging = [update for plan, _outcome, update in done if update is not None and plan.stage]
    failed = update_index(repo, staging) if staging else {}
    return [_finished(plan, outcome, update, failed) for plan, outcome, update in done]


def _carry_out(repo: GitRepo, session: Session, plan: WritePlan) -> tuple[WriteOutcome, IndexUpdate | None]:
    """The work tree's part of a plan: the outcome so far (not staged yet) and what the index must then get."""
    path = plan.path
    target = worktree_path(repo, path)
    gone = plan.gone
    if plan.action is Action.WRITE:
        _only_gone_inside(repo, target, gone)
    for other in gone:
        remove(worktree_path(repo, other))
    if plan.action is Action.GITLINK:
        assert plan.commit is not None
        event = session.mark_written(path, plan.commit)
        words = f"pointed submodule {path} at {plan.commit[:10]}"
        return WriteOutcome(path, True, False, words, event), IndexUpdate(path, FileMode.GITLINK, commit=plan.commit,
                                                                          gone=gone)
    if plan.action is Action.DELETE:
        event = session.mark_written(path, None)
        if not plan.own_entry:  # the kept side's directory is at the path
            words = f"removed {', '.join(gone)} (the directory {path}/ stays)" if gone else f"kept the directory {path}/"
            return WriteOutcome(path, True, False, words, event), IndexUpdate(path, gone=gone, own_entry=False)
        remove(target)
        return WriteOutcome(path, True, False, f"deleted {path}", event), IndexUpdate(path, gone=gone)
    assert plan.blob is not None
    prune_directory(target)
    if plan.mode == FileMode.SYMLINK:
        atomic_symlink(target, os.fsdecode(plan.blob))
    else:
        assert plan.checkout is not None
        atomic_write(target, plan.checkout, plan.executable)
    event = session.mark_written(path, repo.hash_bytes(plan.blob))
    if plan.mode != FileMode.SYMLINK and any_markers(target.read_bytes(), plan.marker_sizes) is not None:
        words = f"wrote {path}, but it still holds conflict markers: not staged"
        return WriteOutcome(path, True, False, words, event), None
    return WriteOutcome(path, True, False, f"wrote {path}", event), IndexUpdate(path, plan.mode, plan.blob, gone=gone)


def _finished(plan: WritePlan, outcome: WriteOutcome, update: IndexUpdate | None, failed: dict[str, str]) -> WriteOutcome:
    """The outcome with what staging did, what else the write removed, and what the user must be told."""
    if not outcome.written:
        return outcome
    message = outcome.message
    staged = False
    if update is not None and plan.stage:
        why = failed.get(plan.path)
        staged = why is None
        message += " and staged it" if staged else f" but did not stage it: {why}; run git add yourself"
    removed = f"removed {_listed(plan.gone)}" if plan.gone and plan.action is not Action.DELETE else ""
    message += "".join(f" ({words})" for words in (removed, plan.note, plan.warning) if words)
    return WriteOutcome(plan.path, True, staged, message, outcome.event, plan.warning)


def _only_gone_inside(repo: GitRepo, target: Path, gone: tuple[str, ...]) -> None:
    """Refuse, before anything is removed, a directory in the way that holds a file the plan does not remove."""
    if target.is_symlink() or not target.is_dir():
        return
    removed = {worktree_path(repo, other) for other in gone}
    for folder, _dirs, names in os.walk(target):
        for name in names:
            if Path(folder, name) not in removed:
                raise WorkbenchError(f"{target.name}/ holds {name}, which appeared since the check: nothing was removed")


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
