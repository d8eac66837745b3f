"""Where the result differs from git's automatic merge: what ``git show --remerge-diff`` compares.

A sync merge's tree is authored freely: the bot (or a person, or a commit
after the merge) may take one side's whole file or edit lines git merged
cleanly.  ``git merge-tree --write-tree`` gives the tree git itself would
have written (conflicted files with their markers); every path where the
result holds something else is listed here, with each side's blob and git's
edit scripts so the analysis can say, region by region, what changed.

When the sync's PR branch merged a newer dev after the sync merge, the
comparison is with git's automatic merge of that newer dev and main: dev's
own later work is then not taken for the resolution's.
"""

from __future__ import annotations

from collections.abc import Collection

from workbench.git.line_scripts import histogram_scripts
from workbench.git.merge_tree import merge_tree
from workbench.git.repo import GitRepo
from workbench.git.runner import run_git
from workbench.git.types import BLOB_MODES, FileMode, MergeTreeResult, ResolutionDiff, ResolvedPath, ResultFile, SyncMode
from workbench.git.worktree_read import clean_contents

_NULL = "0" * 40


def resolution_diff(
    repo: GitRepo,
    mode: SyncMode,
    dev: str,
    main: str,
    base: str,
    plain: MergeTreeResult,
    merge: str | None,
    result_commit: str | None,
    wanted: Collection[str] | None = None,
) -> ResolutionDiff | None:
    """The paths the result holds differently from git's automatic merge (None: a preview has no result)."""
    if mode == "preview" or (mode == "merge-commit" and result_commit is None):
        return None
    newer = _newer_dev(repo, dev, merge, result_commit) if merge and result_commit and result_commit != merge else None
    auto = plain
    auto_dev, auto_base = dev, base
    if newer is not None:
        auto_dev = newer
        auto = merge_tree(repo, newer, main)
        auto_base = repo.merge_base(newer, main) or base
    conflicted = {entry.path for entry in auto.conflicts}
    own_conflicts = {entry.path for entry in plain.conflicts} | {a for entry in plain.conflicts for a in entry.asides}
    if mode == "merge-commit":
        assert result_commit is not None
        changed = _tree_changes(repo, auto.tree, repo.tree_of(result_commit))
        results = {path: _commit_file(repo, result_commit, path) for path in _asked(changed, wanted)}
    else:  # the sync's own conflicts are read by the snapshot, and left to the conflict hunks below
        changed = _worktree_changes(repo, auto.tree)
        results = _worktree_files(repo, [p for p in _asked(changed, wanted) if p not in own_conflicts])
    # merge-tree names a file moved aside by a file/directory conflict after the
    # commit ids it was given (``path~SHA``); the real merge named it after a branch
    # and it is listed under that name with the conflicts.
    side_copies = tuple(f"~{sha}" for sha in (dev, main, auto_dev))
    paths = []
    for path in sorted(changed):
        if (wanted is not None and path not in wanted) or path.endswith(side_copies):
            continue
        # A path the sync's own merge conflicts on is the conflict hunks' business,
        # unless a newer dev moved it (then its edits are measured against the newer merge).
        if path in own_conflicts and (newer is None or repo.tree_entry(newer, path) == repo.tree_entry(dev, path)):
            continue
        found = repo.tree_entry_in_tree(auto.tree, path)
        result = results[path]
        if found is not None and result.present and found[0] == result.oid:
            continue  # equal after the work tree's clean filters
        paths.append(
            ResolvedPath(
                path=path,
                auto=found,
                result=result,
                base=_blob(repo, auto_base, path),
                dev=_blob(repo, auto_dev, path),
                main=_blob(repo, main, path),
                conflicted=path in conflicted,
            )
        )
    at_merge: dict[str, str | None] = {}
    merge_beyond = 0
    if merge is not None:
        same = mode == "merge-commit" and auto is plain and result_commit == merge  # the diff made above
        own = set(changed if same else _tree_changes(repo, plain.tree, repo.tree_of(merge))) - own_conflicts
        merge_beyond = len(own)
        if result_commit != merge:
            listed = [*own_conflicts, *(p.path for p in paths)]
            at_merge = {path: _blob(repo, merge, path) for path in listed}
    return ResolutionDiff(
        auto.tree, auto_dev, auto_base, _with_scripts(repo, paths), at_merge, merge_beyond
    )


def _newer_dev(repo: GitRepo, dev: str, merge: str, result_commit: str) -> str | None:
    """The newest dev the PR branch merged after the sync merge.

    A parent of a later merge that descends from dev but not from the sync
    merge is dev moving on (newest first in ``rev-list`` order).
    """
    proc = run_git(repo.run_dir, ["rev-list", "--parents", "--merges", result_commit, f"^{merge}"])
    for line in proc.stdout.decode("ascii").splitlines():
        for parent in line.split()[1:]:
            if parent != dev and repo.merge_base(dev, parent) == dev and repo.merge_base(merge, parent) != merge:
                return parent
    return None


def _tree_changes(repo: GitRepo, old: str, new: str) -> list[str]:
    proc = run_git(
        repo.run_dir,
        ["diff-tree", "-r", "-z", "--no-renames", "--name-only", old, new],
        extra_env=repo.object_quarantine(),
    )
    return [p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p]


def _worktree_changes(repo: GitRepo, tree: str) -> list[str]:
    """Paths whose work-tree file may differ from ``tree`` (stat-dirty ones are checked by content later)."""
    proc = run_git(
        repo.run_dir,
        ["diff-index", "-z", "--no-renames", "--name-only", tree],
        extra_env=repo.object_quarantine(),
    )
    return sorted({p.decode("utf-8", "surrogateescape") for p in proc.stdout.split(b"\0") if p})


def _commit_file(repo: GitRepo, commit: str, path: str) -> ResultFile:
    found = repo.tree_entry(commit, path)
    if found is None or found[1] not in (*BLOB_MODES, FileMode.SYMLINK):
        return ResultFile(False, None, None)
    return ResultFile(True, None, found[0], mode=found[1])


def _asked(paths: list[str], wanted: Collection[str] | None) -> list[str]:
    return paths if wanted is None else [path for path in paths if path in wanted]


def _worktree_files(repo: GitRepo, paths: list[str]) -> dict[str, ResultFile]:
    """The work tree's files at ``paths``, as ``git add`` would store them; a path the index lacks is absent.

    A file left on disk but out of the index is not part of the merge a
    commit would record, as for the whole-tree reads (``RepoFiles``).
    """
    tracked = repo.index_holds(paths)
    cleaned = clean_contents(repo, [path for path in paths if path in tracked])
    out = {}
    for path in paths:
        if path in cleaned:
            oid, data = cleaned[path]
            out[path] = ResultFile(True, data, oid, mode=FileMode.REGULAR)
        else:
            out[path] = ResultFile(False, None, None)
    return out


def _blob(repo: GitRepo, commit: str, path: str) -> str | None:
    found = repo.tree_entry(commit, path)
    return found[0] if found is not None and found[1] in BLOB_MODES else None


def _with_scripts(repo: GitRepo, paths: list[ResolvedPath]) -> tuple[ResolvedPath, ...]:
    """git's histogram scripts (base->dev, base->main, auto->result) for every text path, in one run."""
    pairs: list[tuple[str | None, str]] = []
    wants: list[tuple[int, bool]] = []
    for k, entry in enumerate(paths):
        if entry.dev is not None and entry.main is not None:
            pairs += [(entry.base, entry.dev), (entry.base, entry.main)]
            wants.append((k, True))
        result = entry.result
        if entry.auto is not None and entry.auto[1] in BLOB_MODES and result.mode in BLOB_MODES and result.oid:
            pairs.append((entry.auto[0], result.oid))
            wants.append((k, False))
    scripts = histogram_scripts(repo, pairs) if pairs else []
    found: dict[int, dict[str, object]] = {}
    pos = 0
    for k, merge_pair in wants:
        if merge_pair:
            found.setdefault(k, {})["scripts"] = (scripts[pos], scripts[pos + 1])
            pos += 2
        else:
            found.setdefault(k, {})["edit_script"] = scripts[pos]
            pos += 1
    out = []
    for k, entry in enumerate(paths):
        extra = found.get(k, {})
        pair = extra.get("scripts")
        edit = extra.get("edit_script")
        out.append(
            ResolvedPath(
                entry.path,
                entry.auto,
                entry.result,
                entry.base,
                entry.dev,
                entry.main,
                entry.conflicted,
                pair if isinstance(pair, tuple) else None,
                edit if isinstance(edit, tuple) else None,
            )
        )
    return tuple(out)

