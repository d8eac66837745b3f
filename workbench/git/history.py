"""One walk per side: the commits since the merge base and a path's blob in each.

Reading every (commit, path) pair once, in one walk, is what keeps per-file
history cheap on a sync with hundreds of commits and files: the analysis
then diffs blobs only where they change, never running git per hunk.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable

import pygit2

from workbench.git.repo import GitRepo
from workbench.git.types import PathBlobs, ResolutionDiff, SideHistory


def side_history(repo: GitRepo, tip: str, base: str | None, paths: Iterable[str]) -> SideHistory:
    """Commits in ``base..tip`` (topological, newest first) with each path's blob."""
    raw = repo.raw
    wanted = tuple(dict.fromkeys(paths))
    walker = raw.walk(tip, pygit2.enums.SortMode.TOPOLOGICAL)
    if base is not None:
        walker.hide(base)
    commits: list[str] = []
    parents: dict[str, tuple[str, ...]] = {}
    reader = _TreeReader(wanted)
    rows: dict[str, int] = {}
    columns: dict[str, array[int]] = {}
    for commit in walker:
        sha = str(commit.id)
        commits.append(sha)
        parents[sha] = tuple(str(p) for p in commit.parent_ids)
        _record(reader, commit.tree, sha, rows, columns)
    boundary = {parent for sha in commits for parent in parents[sha] if parent not in parents}
    for sha in sorted(boundary):
        obj = raw.get(sha)
        if obj is not None:
            _record(reader, obj.peel(pygit2.Commit).tree, sha, rows, columns)
    empty: dict[str, int] = {}  # a path under another wanted path that is a file is never read: no commit has it
    blobs = {
        path: PathBlobs(rows if path in columns else empty, reader.names, columns.get(path, ())) for path in wanted
    }
    return SideHistory(tip=tip, commits=tuple(commits), parents=parents, blobs=blobs)


def later_history(repo: GitRepo, merge: str | None, result: str | None, resolution: ResolutionDiff | None) -> SideHistory | None:
    """``merge..result`` with the blobs of every path the resolution lists, when the result is a later commit
    than the sync merge (its fixes): which of them wrote a line of the result is then a blame away."""
    if merge is None or result is None or result == merge or resolution is None or not resolution.at_merge:
        return None
    return side_history(repo, result, merge, resolution.at_merge)


_Trie = dict[str, "_Trie | str"]


def _build_trie(paths: tuple[str, ...]) -> _Trie:
    """Nested dict of path components; a leaf holds the full path."""
    root: _Trie = {}
    for path in paths:
        node = root
        parts = path.split("/")
        for part in parts[:-1]:
            child = node.setdefault(part, {})
            if isinstance(child, str):
                break
            node = child
        else:
            node.setdefault(parts[-1], path)
    return root


class _TreeReader:
    """Blob ids of the wanted paths under a tree, memoised by subtree id.

    Consecutive commits share almost all subtrees, so only the directories a
    commit changed are ever read again.  Each blob id becomes one string and
    one number however many commits hold it, and the root's answer (new in
    every commit) is not memoised: on a sync of 10,000 files and hundreds of
    commits, a string per (commit, path) and a root table per commit took most
    of the memory.
    """

    def __init__(self, paths: tuple[str, ...]) -> None:
        self._trie = _build_trie(paths)
        self._memo: dict[tuple[str, int], dict[str, int]] = {}
        self._numbers: dict[pygit2.Oid, int] = {}
        self.names: list[str | None] = [None]
        """Blob ids by number; 0 is None (absent)."""

    def read(self, tree: pygit2.Tree) -> dict[str, int]:
        """Each wanted path's blob under ``tree``, as its number in ``names``."""
        return self._read(tree, self._trie)

    def _read(self, tree: pygit2.Tree, trie: _Trie) -> dict[str, int]:
        key = (str(tree.id), id(trie))
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        out: dict[str, int] = {}
        for name, node in trie.items():
            try:
                entry = tree[name]
            except KeyError:
                entry = None
            if isinstance(node, str):
                out[node] = 0 if entry is None or isinstance(entry, pygit2.Tree) else self._number(entry.id)
            elif isinstance(entry, pygit2.Tree):
                out.update(self._read(entry, node))
            else:
                out.update(dict.fromkeys(_leaves(node), 0))
        if trie is not self._trie:
            self._memo[key] = out
        return out

    def _number(self, oid: pygit2.Oid) -> int:
        found = self._numbers.get(oid)
        if found is None:
            found = self._numbers[oid] = len(self.names)
            self.names.append(str(oid))
        return found


def _leaves(trie: _Trie) -> list[str]:
    found: list[str] = []
    for node in trie.values():
        if isinstance(node, str):
            found.append(node)
        else:
            found.extend(_leaves(node))
    return found


def _record(reader: _TreeReader, tree: pygit2.Tree, sha: str, rows: dict[str, int], columns: dict[str, array[int]]) -> None:
    """Give ``sha`` the next row and each path's blob number in it (the walk's commits and the boundary are distinct)."""
    rows[sha] = len(rows)
    for path, name in reader.read(tree).items():
        column = columns.get(path)
        if column is None:
            column = columns[path] = array("I")
        column.append(name)
