"""Gather what the analysis needs for one of the three situations.

1. merge in progress (MERGE_HEAD): dev = HEAD, main = MERGE_HEAD, result = work tree;
2. a merge commit REV: dev = REV^1, main = REV^2, result = REV's tree
   (or ``--result`` another commit's, e.g. a sync PR head with fix commits);
3. preview (``--dev A --main B``): the result is what ``-X theirs`` would give.
All I/O happens here; the analysis gets plain records and a blob reader.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.errors import WorkbenchError
from workbench.git.content import is_binary
from workbench.git.history import later_history, side_history
from workbench.git.line_scripts import PendingScripts
from workbench.git.merge_tree import PendingMergeTree
from workbench.git.repo import GitRepo
from workbench.git.resolution import resolution_diff
from workbench.git.runner import git_version
from workbench.git.side_copies import name_side_copies
from workbench.git.types import (
    BLOB_MODES,
    ConflictEntry,
    FileMode,
    MergeTreeResult,
    ResultFile,
    SideHistory,
    StageEntry,
    SyncMode,
    SyncSnapshot,
)
from workbench.git.worktree import submodule_commit, worktree_mode
from workbench.git.worktree_read import PendingContents, clean_contents


def locate_sync(
    repo: GitRepo, rev: str | None, dev: str | None, main: str | None
) -> tuple[SyncMode, str, str, str | None]:
    """(mode, dev, main, merge) for the arguments, or a one-line error."""
    if dev is not None or main is not None:
        if dev is None or main is None:
            raise WorkbenchError("--dev and --main go together")
        if rev is not None:
            raise WorkbenchError("give either REV or --dev/--main, not both")
        return "preview", repo.resolve(dev), repo.resolve(main), None
    if rev is not None:
        sha = repo.resolve(rev)
        return ("merge-commit", *_merge_parents(repo, sha, rev), sha)
    heads = repo.merge_heads()
    head = repo.head()
    if heads:
        if len(heads) > 1:
            raise WorkbenchError(
                f"an octopus merge is in progress ({len(heads) + 1} heads): "
                "workbench handles two-parent syncs only"
            )
        kind = repo.object_type(heads[0])
        if kind != "commit":
            found = f"a {kind}" if kind else "no object in this repository"
            raise WorkbenchError(f"MERGE_HEAD names no commit ({heads[0][:10]} is {found}): "
                                 "repair or abort the merge (git merge --abort)")
        if head is None:
            raise WorkbenchError("a merge is in progress on an unborn branch: nothing to compare")
        if repo.is_bare:
            raise WorkbenchError("a bare repository has no merge in progress to finish")
        return "in-progress", head, heads[0], None
    if head is None:
        raise WorkbenchError("the repository has no commits yet")
    if len(repo.parents(head)) >= 2 or repo.is_shallow:
        return ("merge-commit", *_merge_parents(repo, head, "HEAD"), head)
    raise WorkbenchError(
        "no merge in progress and HEAD is not a merge commit: "
        "give REV (a sync merge) or --dev A --main B"
    )


def _merge_parents(repo: GitRepo, sha: str, name: str) -> tuple[str, str]:
    parents = repo.parents(sha)
    if len(parents) > 2:
        raise WorkbenchError(
            f"{name} is an octopus merge ({len(parents)} parents): "
            "workbench handles two-parent syncs only (use --dev A --main B)"
        )
    if len(parents) < 2:
        if repo.is_shallow and not parents:
            raise WorkbenchError(
                f"{name} has no parents in this shallow clone: fetch more history (git fetch --unshallow)"
            )
        hint = _nearest_merge(repo, sha)
        extra = (
            f" (for a sync branch head with fixes on top, name its merge and the head: `{hint[:10]} --result {name}`)"
            if hint
            else ""
        )
        raise WorkbenchError(f"{name} is not a merge commit{extra}")
    return parents[0], parents[1]


def _nearest_merge(repo: GitRepo, sha: str, limit: int = 50) -> str | None:
    current = sha
    for _ in range(limit):
        parents = repo.parents(current)
        if len(parents) >= 2:
            return current
        if not parents:
            return None
        current = parents[0]
    return None


def load_sync(
    repo: GitRepo,
    rev: str | None = None,
    dev: str | None = None,
    main: str | None = None,
    result: str | None = None,
    paths: Collection[str] | None = None,
    outlined: Callable[[SyncSnapshot], None] | None = None,
) -> SyncSnapshot:
    """Read everything about the sync that the analysis will need (``start_sync``, then ``StartedSync.snapshot``)."""
    with start_sync(repo, rev, dev, main, result, paths) as started:
        return started.snapshot(outlined)


def start_sync(
    repo: GitRepo,
    rev: str | None = None,
    dev: str | None = None,
    main: str | None = None,
    result: str | None = None,
    paths: Collection[str] | None = None,
) -> StartedSync:
    """Check the sync's commits (any bad input raises here) and start git's plain merge of them.

    git merges beside this process while the caller does other work (e.g.
    imports the analysis), and for a merge in progress it hashes the work
    tree's conflicted files meanwhile; ``StartedSync.snapshot`` reads the rest.
    ``paths``: keep only the conflicts at these paths (a caller that needs
    one file skips the history, scripts and work-tree reads of the rest).
    """
    mode, dev_sha, main_sha, merge = locate_sync(repo, rev, dev, main)
    result_commit = merge
    if result is not None:
        if mode != "merge-commit":
            raise WorkbenchError("--result goes with a merge commit REV")
        result_commit = repo.resolve(result)
    wanted = frozenset(paths) if paths is not None else None
    with ExitStack() as opening:
        merging = opening.enter_context(PendingMergeTree(repo, dev_sha, main_sha))
        base = repo.merge_base(dev_sha, main_sha)  # while git merges (it finds the same base)
        if base is None:
            why = "the clone is shallow (git fetch --unshallow)" if repo.is_shallow else "unrelated histories"
            raise WorkbenchError(f"dev and main have no merge base: {why}")
        cleaning = None
        if mode == "in-progress":  # the index names the conflicts that merge-tree will (almost always) find
            unmerged = [path for path in sorted(repo.index_unmerged()) if wanted is None or path in wanted]
            cleaning = opening.enter_context(PendingContents(repo, unmerged))
        running = opening.pop_all()
    return StartedSync(repo, mode, dev_sha, main_sha, merge, result_commit, base, wanted, merging, cleaning, running)


@dataclass(frozen=True)
class StartedSync:
    """A sync whose commits are known, git computing their plain merge (``start_sync``).

    Used as a context manager, leaving without ``snapshot`` stops git.
    """

    repo: GitRepo
    mode: SyncMode
    dev: str
    main: str
    merge: str | None
    result_commit: str | None
    base: str
    wanted: frozenset[str] | None
    merging: PendingMergeTree
    cleaning: PendingContents | None
    """A merge in progress: the work tree's files the index has unmerged, being hashed."""
    running: ExitStack
    """Stops the git commands above that nobody waited for."""

    def __enter__(self) -> StartedSync:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.running.close()

    def snapshot(self, outlined: Callable[[SyncSnapshot], None] | None = None) -> SyncSnapshot:
        """Everything about the sync that the analysis will need (waits for git's merge).

        ``outlined``: called as soon as the conflicts and results are read, with
        a snapshot whose histories, line scripts and resolution are still empty:
        enough for the outline (a file list on screen while the rest is read),
        for nothing else.
        """
        repo, mode, dev_sha, main_sha, base = self.repo, self.mode, self.dev, self.main, self.base
        merge, result_commit = self.merge, self.result_commit
        plain = name_side_copies(repo, self.merging.result(), mode, dev_sha, main_sha, result_commit)
        if mode == "in-progress":
            plain = _with_index_conflicts(repo, plain)
        wanted = self.wanted
        if wanted is not None:
            plain = replace(plain, conflicts=tuple(c for c in plain.conflicts if c.path in wanted))
        results = _read_results(repo, mode, plain, result_commit, self.cleaning)
        plain = _with_side_paths(repo, plain, dev_sha, main_sha)
        first = SyncSnapshot(
            mode=mode,
            dev=dev_sha,
            main=main_sha,
            base=base,
            merge=merge,
            result_commit=result_commit,
            merge_tree=plain,
            results=results,
            dev_history=SideHistory(dev_sha, (), {}, {}),
            main_history=SideHistory(main_sha, (), {}, {}),
            main_count=repo.count_commits(main_sha, base),
            dev_count=repo.count_commits(dev_sha, base),
            git_version=git_version(),
            repo_path=str(repo.workdir or repo.gitdir),
            paths=wanted,
        )
        if outlined is not None:
            outlined(first)
        scripted = _scripted_paths(repo, plain)
        with PendingScripts(repo, [pair for _, pairs in scripted for pair in pairs]) as pending:  # git diffs meanwhile
            resolution = resolution_diff(repo, mode, dev_sha, main_sha, base, plain, merge, result_commit, wanted)
            dev_paths = [c.ours.path if c.ours else c.path for c in plain.conflicts]
            main_paths = [c.theirs.path if c.theirs else c.path for c in plain.conflicts]
            if resolution is not None:  # the history behind each edit beyond git's merge too
                dev_paths += [p.path for p in resolution.paths]
                main_paths += [p.path for p in resolution.paths]
            dev_history = side_history(repo, dev_sha, base, dev_paths)
            main_history = side_history(repo, main_sha, base, main_paths)
            later = later_history(repo, merge, result_commit, resolution)
            scripts = pending.scripts()
        return replace(
            first,
            dev_history=dev_history,
            main_history=main_history,
            line_scripts={path: (scripts[2 * k], scripts[2 * k + 1]) for k, (path, _) in enumerate(scripted)},
            resolution=resolution,
            later_history=later,
        )


def _with_index_conflicts(repo: GitRepo, plain: MergeTreeResult) -> MergeTreeResult:
    """Every path the index has unmerged is a conflict, whatever merge-tree says.

    The real merge may have seen other attributes or options (a custom merge
    driver, ``merge.renormalize``); what git left unmerged must be shown.
    """
    known = {entry.path for entry in plain.conflicts} | {aside for entry in plain.conflicts for aside in entry.asides}
    extra = []
    for path, stages in sorted(repo.index_unmerged().items()):
        if path in known:
            continue
        entries = {n: StageEntry(p, oid, mode) for n, (p, oid, mode) in stages.items()}
        extra.append(ConflictEntry(path, entries.get(1), entries.get(2), entries.get(3)))
    if not extra:
        return plain
    return replace(plain, clean=False, conflicts=plain.conflicts + tuple(extra))


def _with_side_paths(repo: GitRepo, plain: MergeTreeResult, dev: str, main: str) -> MergeTreeResult:
    """Put each stage at the path it has on its own side.

    merge-tree lists every stage of a renamed file under the merged path;
    the side that did not rename has the blob elsewhere, and its history
    (and the blame behind each hunk) lives at that path.
    """
    located: dict[str, dict[str, str]] = {}

    def where(tip: str, stage: StageEntry | None) -> StageEntry | None:
        if stage is None or repo.tree_entry(tip, stage.path) == (stage.oid, stage.mode):
            return stage
        if tip not in located:
            located[tip] = {oid: path for path, (oid, _) in repo.tree_paths(repo.tree_of(tip)).items()}
        found = located[tip].get(stage.oid)
        return replace(stage, path=found) if found else stage

    entries = tuple(
        replace(entry, ours=where(dev, entry.ours), theirs=where(main, entry.theirs)) for entry in plain.conflicts
    )
    return replace(plain, conflicts=entries)




_Pair = tuple[str | None, str]
"""(old, new) blob ids; old None is an empty file."""


SCRIPTED_UNREAD = 64 * 1024
"""Versions up to this size get a line script without being read first (see ``_scripted_paths``)."""


def _scripted_paths(repo: GitRepo, plain: MergeTreeResult) -> list[tuple[str, tuple[_Pair, _Pair]]]:
    """Each content conflict's path between regular files with its (base, dev) and (base, main) blob
    pairs: the line scripts git's merge used, which ``PendingScripts`` computes for every path in one git run.

    Reading every version to tell binary files apart took a tenth of the
    snapshot of a 2,000-file sync, and the engine reads them again (in two
    processes) to classify each conflict.  So only a path with a version
    over ``SCRIPTED_UNREAD`` bytes (``GitRepo.stored_sizes``) is read here, and
    dropped when binary: git would diff it as text, and the histogram diff of
    a binary's many repeated "lines" can take seconds (3.7 s for one pair of
    900 KB).  A small binary file gets a script the engine never asks for
    (it merges no binary file), at a cost bounded by the size.
    """
    candidates: list[tuple[str, tuple[_Pair, _Pair]]] = []
    for entry in plain.conflicts:
        stages = [s for s in (entry.base, entry.ours, entry.theirs) if s is not None]
        if entry.ours is None or entry.theirs is None or any(s.mode not in BLOB_MODES for s in stages):
            continue
        base = entry.base.oid if entry.base else None
        candidates.append((entry.path, ((base, entry.ours.oid), (base, entry.theirs.oid))))
    sizes = repo.stored_sizes(oid for _, pairs in candidates for oid in _versions(pairs))

    def binary_and_large(oid: str) -> bool:  # a size git did not give (a pinned blob) counts as large
        size = sizes.get(oid)
        return (size is None or size > SCRIPTED_UNREAD) and is_binary(repo.read_blob(oid))

    return [(path, pairs) for path, pairs in candidates if not any(map(binary_and_large, _versions(pairs)))]


def _versions(pairs: tuple[_Pair, _Pair]) -> list[str]:
    """The blob ids of base (when there is one), dev and main."""
    (base, ours), (_, theirs) = pairs
    return [oid for oid in (base, ours, theirs) if oid is not None]


def _read_results(
    repo: GitRepo, mode: SyncMode, plain: MergeTreeResult, result_commit: str | None, cleaning: PendingContents | None
) -> dict[str, ResultFile]:
    results: dict[str, ResultFile] = {}
    if mode == "preview":
        return results
    if mode == "merge-commit":
        assert result_commit is not None
        for entry in plain.conflicts:
            found = repo.tree_entry(result_commit, entry.path)
            if found is None or found[1] not in _FILE_MODES:
                results[entry.path] = ResultFile(False, None, None)
                continue
            oid, filemode = found
            data = repo.read_blob(oid) if filemode != FileMode.GITLINK else None
            results[entry.path] = ResultFile(True, data, oid, mode=filemode)
        return results
    unmerged = repo.index_unmerged()
    tracked = repo.index_holds(entry.path for entry in plain.conflicts)
    asked = cleaning.paths if cleaning is not None else frozenset()
    cleaned = clean_contents(repo, [e.path for e in plain.conflicts if e.path not in asked and e.path in tracked])
    if cleaning is not None:
        cleaned.update(cleaning.contents())
    for entry in plain.conflicts:
        held = entry.path in unmerged or any(aside in unmerged for aside in entry.asides)
        if entry.path not in tracked:  # taken out of the index (``git rm --cached``): not in the commit
            results[entry.path] = ResultFile(False, None, None, held and bool(entry.asides))
            continue
        results[entry.path] = _worktree_file(repo, entry.path, held, cleaned.get(entry.path))
    return results


_FILE_MODES = (*BLOB_MODES, FileMode.SYMLINK, FileMode.GITLINK)


def _worktree_file(repo: GitRepo, path: str, unmerged: bool, cleaned: tuple[str, bytes] | None) -> ResultFile:
    """The work tree's version of ``path`` as git would store it (filters applied)."""
    root = repo.workdir
    assert root is not None
    full = Path(root, path)
    if os.path.islink(full):
        data = os.fsencode(os.readlink(full))
        return ResultFile(True, data, repo.hash_bytes(data), unmerged, FileMode.SYMLINK)
    if cleaned is not None:
        oid, data = cleaned
        try:
            filemode = worktree_mode(repo, path, full.stat().st_mode)
        except OSError:  # gone since git read it
            filemode = FileMode.REGULAR
        return ResultFile(True, data, oid, unmerged, filemode)
    index = repo.index_entry(path)
    if index is not None and index[1] == FileMode.GITLINK:
        return ResultFile(True, None, index[0], unmerged, FileMode.GITLINK)
    if unmerged and full.is_dir():
        stages = repo.index_unmerged().get(path, {})
        links = [stages[n][1] for n in (2, 3, 1) if n in stages and stages[n][2] == FileMode.GITLINK]
        if links:  # a submodule conflict: the checkout is there, at the commit ``git add`` would record
            return ResultFile(True, None, submodule_commit(repo, path) or links[0], unmerged, FileMode.GITLINK)
    return ResultFile(False, None, None, unmerged)
