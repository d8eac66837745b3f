"""The attributes a sync's merge used, whatever is checked out now.

``git merge`` reads ``.gitattributes`` from the work tree it starts in: dev's
checkout (the sync runs ``git merge origin/main`` on a branch of dev).
``git merge-tree`` reads them from the work tree as it is *now*: halfway
through the merge (main's ``merge=union`` already merged in) or on a
finished merge checked out, so a file git left conflicted could merge
cleanly and vanish.  git 2.40 can read attributes from a tree
(``--attr-source``) but the README promises 2.38, so the same is done the
portable way: a private work tree holding exactly dev's ``.gitattributes``
files, and an empty index so git does not fall back to the real one.
``$GIT_DIR/info/attributes`` and the user's global file still apply, as
they did to the real merge.
"""

from __future__ import annotations

from pathlib import Path

from workbench.git.repo import GitRepo

NAME = ".gitattributes"


def attributes_of(repo: GitRepo, commit: str) -> dict[str, str]:
    """Environment for a git command that must see ``commit``'s attributes (and run in ``cwd`` it names).

    Returns GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE; the work tree lives
    in the object quarantine and is built once per commit.
    """
    root = repo.scratch_dir() / "attributes" / commit
    if not root.is_dir():
        building = root.with_name(commit + ".part")
        building.mkdir(parents=True, exist_ok=True)
        for path, oid in repo.blobs_named(commit, NAME):
            target = Path(building, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(repo.read_blob(oid))
        building.rename(root)
    return {
        "GIT_DIR": str(repo.gitdir),
        "GIT_WORK_TREE": str(root),
        "GIT_INDEX_FILE": str(root.with_name(commit + ".no-index")),
    }
