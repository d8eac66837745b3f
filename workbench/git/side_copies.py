"""Conflicts git split over two names put back together: a file and a symlink, a file and a directory.

When the sides hold different types at a path, git moves one side's
version aside (``link~HEAD``, ``d~HEAD``), and merge-tree lists it as a
conflict of its own.  The analysis wants one conflict of the path, which
knows where git put that version (``ConflictEntry.asides``) and which side
has a directory there (``ConflictEntry.directory``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from workbench.git.repo import GitRepo
from workbench.git.types import ConflictEntry, MergeTreeResult, StageEntry, SyncMode

_SIDE_COPY = re.compile(r"^(?P<path>.+)~(?P<sha>[0-9a-f]{40})$")


def name_side_copies(
    repo: GitRepo, plain: MergeTreeResult, mode: SyncMode, dev: str, main: str, result_commit: str | None
) -> MergeTreeResult:
    """One entry per path for a conflict git split over two names, with the name the merge used for the copy.

    When the sides hold different types at a path (a file and a symlink, a
    file and a directory), git moves one side's version aside: merge-tree
    names the copy ``path~<commit id>`` (the labels we passed), a real merge
    after the branch (``path~HEAD``, ``path~main``), which the work tree's
    unmerged entries (or the result commit) tell.  The copy's stages go back
    to the path they have on their own side (``ConflictEntry.asides`` keeps
    the copy's name): a symlink dev turned into a file is one conflict of
    ``link``, not main's ``link`` that dev deleted and dev's new ``link~HEAD``.
    """
    kept: list[ConflictEntry] = []
    copies: dict[str, list[tuple[str, str, ConflictEntry]]] = {}
    known: set[str] | None = None
    for entry in plain.conflicts:
        match = _SIDE_COPY.match(entry.path)
        if not match or match["sha"] not in (dev, main):
            kept.append(entry)
            continue
        if known is None:
            if mode == "in-progress":
                known = set(repo.index_unmerged())
            elif result_commit is not None:
                known = set(repo.tree_paths(repo.tree_of(result_commit)))
            else:
                known = set()
        prefix = match["path"] + "~"
        label = "dev" if match["sha"] == dev else "main"
        name = next((path for path in sorted(known) if path.startswith(prefix)), prefix + label)
        copies.setdefault(match["path"], []).append((label, name, entry))
    at = {entry.path: k for k, entry in enumerate(kept)}
    for path, found in copies.items():
        own = kept[at[path]] if path in at else None
        entry = _reunited(repo, path, own, found, dev, main)
        if own is not None:
            kept[at[path]] = entry
        else:
            kept.append(entry)
    return replace(plain, conflicts=tuple(kept))


def _reunited(repo: GitRepo, path: str, own: ConflictEntry | None, copies: list[tuple[str, str, ConflictEntry]],
              dev: str, main: str) -> ConflictEntry:
    """The conflict of ``path`` with the versions git moved aside put back (see ``_name_side_copies``)."""
    stages = {"base": own.base if own else None, "dev": own.ours if own else None,
              "main": own.theirs if own else None}
    messages = list(own.messages) if own else []
    for label, _name, copy in copies:
        stages[label] = stages[label] or copy.ours or copy.theirs
        stages["base"] = stages["base"] or copy.base
        messages += [m for m in copy.messages if m not in messages]
    directory = None
    for label, tip in (("dev", dev), ("main", main)):
        found = repo.tree_entry(tip, path)
        if stages[label] is None and found is not None and found[1] == _TREE:
            directory = label
    return ConflictEntry(
        path,
        _moved_to(stages["base"], path),
        _moved_to(stages["dev"], path),
        _moved_to(stages["main"], path),
        tuple(messages),
        own.merged_oid if own else None,
        asides=tuple(name for _label, name, _copy in copies),
        directory=directory,
    )


_TREE = 0o040000


def _moved_to(stage: StageEntry | None, path: str) -> StageEntry | None:
    return replace(stage, path=path) if stage is not None else None
