"""The merge result as a whole tree: which of its files mention a name.

The analysis reads the conflicted paths; a few questions reach beyond them
(does anything in the result still import the file main deleted?).  Each
situation has its result somewhere else: a merge commit's tree (or the
``--result`` commit's), the index of a merge in progress (stage 0: what the
merge wrote for every path it resolved), or, in a preview, the tree
``git merge-tree`` wrote to the object quarantine.  ``git grep`` searches
any of them without a checkout.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.git.repo import GitRepo
from workbench.git.runner import run_git
from workbench.git.types import SyncSnapshot


class ResultTree:
    """The files of one sync's result, searched on demand."""

    def __init__(self, repo: GitRepo, snapshot: SyncSnapshot, suffix: str = ".py") -> None:
        self._repo = repo
        self._snapshot = snapshot
        self._suffix = suffix

    def grep(self, words: Sequence[str], under: Sequence[str] = ()) -> dict[str, str]:
        """Files with the suffix (path -> blob id) whose text contains any of ``words`` (fixed strings).

        ``under``: only in these directories (and below); empty: everywhere.
        """
        if not words:
            return {}
        patterns = [arg for word in words for arg in ("-e", word)]
        snapshot, repo = self._snapshot, self._repo
        common = ["-c", "grep.fullName=true", "grep", "-l", "-z", "-I", "-F", *patterns]
        pathspec = ["--", *([f"{d}/*{self._suffix}" for d in under] or [f"*{self._suffix}"])]
        if snapshot.mode == "in-progress":
            proc = run_git(repo.run_dir, [*common, "--cached", *pathspec], ok_codes=(0, 1))
            found = {}
            for path in _paths(proc.stdout, ""):
                entry = repo.index_entry(path)
                if entry is not None:
                    found[path] = entry[0]
            return found
        if snapshot.mode == "merge-commit" and snapshot.result_commit is not None:
            tree, env = repo.tree_of(snapshot.result_commit), None
        else:
            tree, env = snapshot.merge_tree.tree, repo.object_quarantine()
        proc = run_git(repo.run_dir, [*common, tree, *pathspec], ok_codes=(0, 1), extra_env=env)
        found = {}
        for path in _paths(proc.stdout, f"{tree}:"):
            entry = repo.tree_entry_in_tree(tree, path)
            if entry is not None:
                found[path] = entry[0]
        return found


def _paths(out: bytes, prefix: str) -> list[str]:
    names = [raw.decode("utf-8", "surrogateescape") for raw in out.split(b"\0") if raw]
    return [name[len(prefix) :] if name.startswith(prefix) else name for name in names]
