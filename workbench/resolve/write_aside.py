"""What else a write removes where git split a conflict over two names, or one side has a directory.

When the sides hold different types at a path, a merge in progress leaves
one side's version at ``path`` and the other under a side name (``link~HEAD``,
``d~HEAD``).  Writing a choice writes what git's merge of that side would
hold: the chosen version at ``path``, the side copy gone from the work tree
and the index; where the chosen side is a file and the other a directory,
the directory's files go too (keeping the directory keeps them and removes
only the copy).  A side copy someone edited, or a directory holding files
git does not track or changes not staged, is not removed: the write is
refused and says why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from workbench.analysis.model import FileAnalysis, Mode, Whose
from workbench.git.repo import GitRepo
from workbench.git.worktree import worktree_path
from workbench.git.worktree_read import disk_oid
from workbench.resolve.events import FileChoice


@dataclass(frozen=True, slots=True)
class Aside:
    """The paths a write removes besides writing its own, and whether a deletion removes the path's own entry."""

    gone: tuple[str, ...] = ()
    own_entry: bool = True
    """False when the path is the kept side's directory: a deletion removes only ``gone``."""
    problem: str | None = None
    """Why the write must not go ahead (a side copy or a directory changed by hand)."""


NOTHING = Aside()


def set_aside(repo: GitRepo, entry: FileAnalysis, choice: FileChoice | None, mode: Mode) -> Aside:
    """What writing ``choice`` for ``entry`` removes besides (only during a merge in progress)."""
    if mode is not Mode.IN_PROGRESS or not (entry.asides or entry.directory):
        return NOTHING
    unmerged = repo.index_unmerged()
    gone: list[str] = []
    for aside in entry.asides:
        stages = unmerged.get(aside)
        if stages is None:
            continue  # already resolved by hand
        now = disk_oid(repo, aside)
        if now is not None and now not in {oid for _path, oid, _mode in stages.values()}:
            return Aside(problem=f"{aside} (where git put one side's {entry.path}) changed since the merge wrote it: "
                         "resolve the two by hand")
        gone.append(aside)
    chosen: Whose | None = "dev" if choice is FileChoice.KEEP_DEV else "main" if choice is FileChoice.TAKE_MAIN else None
    if entry.directory is None:
        return Aside(tuple(gone))
    if chosen is None or chosen == entry.directory:
        return Aside(tuple(gone), own_entry=False)  # the directory stays
    inside, problem = _directory_files(repo, entry.path)
    return Aside(tuple(gone + inside), problem=problem)


def _directory_files(repo: GitRepo, path: str) -> tuple[list[str], str | None]:
    """The files the index tracks under ``path/``, or why the directory cannot go (untracked or changed files)."""
    prefix = path + "/"
    tracked = {p for p in repo.index_paths() if p.startswith(prefix)}
    root = worktree_path(repo, path)
    for folder, _dirs, names in os.walk(root):
        for name in names:
            relative = os.path.relpath(os.path.join(folder, name), repo.workdir or ".").replace(os.sep, "/")
            if relative not in tracked:
                return [], f"{prefix} holds {relative}, which git does not track: move it before keeping the file"
    for inside in sorted(tracked):
        entry = repo.index_entry(inside)
        now = disk_oid(repo, inside)
        if entry is None or (now is not None and now != entry[0]):
            return [], f"{inside} has changes git has not staged: stage or undo them before keeping the file {path}"
    return sorted(tracked), None
