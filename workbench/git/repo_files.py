"""Whole-tree reads for the policy, the API audit and the deleted-files check.

The engine reads only conflicted paths; these stages need any file of four
trees, by role: ``base``, ``dev``, ``main`` and ``result``.  The result is a
commit's tree (a merge commit, or ``--result``), git's own clean merge tree
(preview: the conflicted paths come from the analysis), or the index's
files as they are in the work tree, cleaned as ``git add`` would (a merge
in progress; untracked files are not in it).  Reads are cached; nothing is
written.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections import deque
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import pygit2

from workbench.configfile import read_config
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.runner import NO_HOOKS, StartedGit, run_git
from workbench.git.types import BLOB_MODES, PathChange, SyncSnapshot, TreeChange, TreeRole
from workbench.git.worktree_read import clean_contents, index_records

CONFIG_FILE = ".workbench.toml"
PYPROJECT = "pyproject.toml"
_NULL = "0" * 40
LOGS_AT_ONCE = 4
"""git logs ``deletions`` runs together (each walks the same commits; more would only share the cores)."""


class RepoFiles:
    """Read-only access to the files of a sync's four trees (see the module docstring)."""

    def __init__(self, repo: GitRepo, snapshot: SyncSnapshot) -> None:
        self._repo = repo
        self._raw = repo.raw
        self._snapshot = snapshot
        commits: dict[TreeRole, str | None] = {"base": snapshot.base, "dev": snapshot.dev, "main": snapshot.main}
        self._trees: dict[TreeRole, str] = {role: repo.tree_of(sha) for role, sha in commits.items() if sha}
        if snapshot.mode == "merge-commit":
            assert snapshot.result_commit is not None
            self._trees["result"] = repo.tree_of(snapshot.result_commit)
        elif snapshot.mode == "preview":
            self._trees["result"] = snapshot.merge_tree.tree
        self._objects: dict[TreeRole, pygit2.Tree] = {}
        self._worktree: dict[str, tuple[str, bytes | None] | None] = {}
        self._root: str | None = None
        self._index_files: tuple[frozenset[str], dict[str, str], frozenset[str]] | None = None
        self._changes: dict[tuple[TreeRole, TreeRole], tuple[TreeChange, ...]] = {}
        self._index_copy: dict[str, str] | None = None

    @property
    def worktree_result(self) -> bool:
        """The result is the work tree (a merge in progress)."""
        return "result" not in self._trees

    def _tree(self, role: TreeRole) -> pygit2.Tree | None:
        if role not in self._trees:
            return None
        obj = self._objects.get(role)
        if obj is None:
            found = self._raw.get(self._trees[role])
            if not isinstance(found, pygit2.Tree):
                raise WorkbenchError(f"missing tree {self._trees[role][:10]}")
            obj = self._objects[role] = found
        return obj

    def blob_id(self, role: TreeRole, path: str) -> str | None:
        """The blob at ``path`` in ``role``'s tree; None when absent or not a regular file."""
        if role == "result" and self.worktree_result:
            found = self._work_file(path)
            return found[0] if found else None
        tree = self._tree(role)
        if tree is None:
            return None
        try:
            entry = tree[path]
        except (KeyError, ValueError):
            return None
        if int(entry.filemode) not in BLOB_MODES:
            return None
        return str(entry.id)

    def read(self, role: TreeRole, path: str) -> bytes | None:
        if role == "result" and self.worktree_result:
            found = self._work_file(path)
            if found is None:
                return None
            return found[1] if found[1] is not None else self._repo.read_blob(found[0])
        oid = self.blob_id(role, path)
        return self._repo.read_blob(oid) if oid is not None else None

    def _work_file(self, path: str) -> tuple[str, bytes | None] | None:
        """(blob id, bytes if read yet) of the work tree's ``path`` as ``git add`` would store it; None: no file.

        Tracked files only, as ``changes`` and ``grep`` read the result: an
        untracked file is not part of the merge git would commit.

        Clean filters apply (``core.autocrlf``, ``eol``, LFS): the raw bytes
        of a CRLF checkout are not main's LF blob, and made a policy's
        ``override-not-main`` out of a file equal to main.  A file git's
        refreshed index calls unchanged is its index blob; the others are
        the snapshot's cleaned conflict text, or are cleaned together once.
        """
        if path not in self._worktree:
            self._worktree[path] = self._cleaned(path)
        return self._worktree[path]

    def _cleaned(self, path: str) -> tuple[str, bytes | None] | None:
        tracked, stage0, dirty = self._index_state()
        if path not in tracked or not self._regular_on_disk(path):  # the audit asks of thousands of module paths
            return None
        if path in stage0 and path not in dirty:
            return stage0[path], None
        known = self._snapshot.results.get(path)
        if known is not None and known.present and known.oid is not None and known.data is not None:
            return known.oid, known.data
        # A whole sync's stages ask of many changed files: they are cleaned together, once. An analysis restricted
        # to some paths asks of a few (the modules its files import): only the one asked is cleaned.
        wanted = {path} if self._snapshot.paths is not None else {path} | {p for p in dirty if p not in self._worktree}
        cleaned = clean_contents(self._repo, sorted(wanted))
        for other, found in cleaned.items():
            if other != path:
                self._worktree.setdefault(other, found)
        return cleaned.get(path)  # absent: no longer a regular file

    def _regular_on_disk(self, path: str) -> bool:
        if self._root is None:
            self._root = os.fspath(self._repo.workdir or self._repo.run_dir)
        try:
            return stat.S_ISREG(os.lstat(os.path.join(self._root, path)).st_mode)
        except OSError:
            return False

    def _index_state(self) -> tuple[frozenset[str], dict[str, str], frozenset[str]]:
        """The refreshed index copy's paths (any stage), its stage-0 regular files' blob ids, the paths ``diff-files`` finds changed."""
        if self._index_files is None:
            env = self._refreshed_index()
            records = list(index_records(self._git(["ls-files", "-s", "-z"], env=env).stdout))
            tracked = {path for _, _, _, path in records}
            stage0 = {path: oid for mode, oid, stage, path in records if stage == 0 and mode in BLOB_MODES}
            changed = self._git(["diff-files", "--name-only", "-z"], env=env).stdout
            dirty = frozenset(p.decode("utf-8", "surrogateescape") for p in changed.split(b"\0") if p)
            self._index_files = (frozenset(tracked), stage0, dirty)
        return self._index_files

    def _git(
        self, args: list[str], ok_codes: tuple[int, ...] = (0,), env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        """git, able to read the objects a preview's merge-tree left in the quarantine (``env``: more settings)."""
        return run_git(self._repo.run_dir, args, ok_codes=ok_codes, extra_env={**self._repo.object_quarantine(), **(env or {})})

    def changes(self, old: TreeRole, new: TreeRole) -> tuple[TreeChange, ...]:
        """Paths whose content differs from ``old``'s tree to ``new``'s (no rename pairing), read once.

        Against the work tree, on a refreshed copy of the index: ``diff-index``
        alone trusts the index's file times, so a file only touched (or
        copied, or checked out again) was listed as changed.
        """
        if (old, new) not in self._changes:
            if new == "result" and self.worktree_result:
                args = ["diff-index", "--no-renames", "-z", "--name-status", self._trees[old]]
                out = self._git(args, env=self._refreshed_index()).stdout
            else:
                out = self._git(
                    ["diff-tree", "-r", "--no-renames", "-z", "--name-status", self._trees[old], self._trees[new]]
                ).stdout
            fields = out.split(b"\0")
            self._changes[old, new] = tuple(
                TreeChange(status.decode("ascii")[:1], raw.decode("utf-8", "surrogateescape"))
                for status, raw in zip(fields[0::2], fields[1::2], strict=False)
                if status
            )
        return self._changes[old, new]

    def _refreshed_index(self) -> dict[str, str]:
        """The environment of a copy of the index whose file times git has refreshed, made once.

        Named after the process making it: the analysis's forked child, when
        the copy did not exist yet at the fork, may make its own at the same
        moment, and a copy rewritten under a running git is read half-written.
        """
        if self._index_copy is None:
            env = self._repo.private_index(f"index-changes-{os.getpid()}")
            self._git([*NO_HOOKS, "update-index", "-q", "--unmerged", "--ignore-missing", "--refresh"], ok_codes=(0, 1),
                      env=env)
            self._index_copy = env
        return self._index_copy

    def grep(self, role: TreeRole, word: str, *more: str, under: Sequence[str] = ()) -> tuple[str, ...]:
        """Python files of ``role``'s tree containing ``word`` (or any of ``more``) as a whole word.

        ``under``: only in these directories (and below them).
        """
        args = ["grep", "-l", "-z", "-w", "-F", *(arg for w in (word, *more) for arg in ("-e", w))]
        prefix = b""
        if not (role == "result" and self.worktree_result):
            args.append(self._trees[role])
            prefix = self._trees[role].encode() + b":"
        args += ["--", *([f"{d}/*.py" for d in under] or ["*.py"])]
        proc = self._git(args, ok_codes=(0, 1))
        return tuple(
            item[len(prefix):].decode("utf-8", "surrogateescape")
            for item in proc.stdout.split(b"\0")
            if item
        )

    def path_log(self, role: TreeRole, path: str, limit: int = 200) -> tuple[PathChange, ...]:
        """Non-merge commits of ``base..role`` that changed ``path``, newest first (``role``: dev or main)."""
        tip = {"dev": self._snapshot.dev, "main": self._snapshot.main}[role]
        spec = f"{self._snapshot.base}..{tip}" if self._snapshot.base else tip
        out = self._git(
            ["log", "--no-renames", "--no-abbrev", "--raw", "--format=@%H", f"-n{limit}", spec, "--", f":(literal){path}"],
        ).stdout.decode("utf-8", "surrogateescape")
        found: list[PathChange] = []
        sha = ""
        for line in out.splitlines():
            if line.startswith("@"):
                sha = line[1:].strip()
            elif line.startswith(":") and sha:
                fields = line[1:].split("\t", 1)[0].split()
                if len(fields) >= 4:
                    found.append(PathChange(sha, _blob(fields[2]), _blob(fields[3])))
                    sha = ""
        return tuple(found)

    def deletions(self, paths: Sequence[str]) -> dict[str, str | None]:
        """For each path, the dev commit in ``base..dev`` that deleted it (a merge only if no other did).

        One ``git log`` per path (a log of several paths simplifies history
        for all of them at once, and could follow another parent), up to
        ``LOGS_AT_ONCE`` running together: each walks the same commits, and
        one after the other they added up to a visible wait.
        """
        spec = f"{self._snapshot.base}..{self._snapshot.dev}" if self._snapshot.base else self._snapshot.dev
        found: dict[str, str | None] = {}
        with ExitStack() as running:
            started: deque[tuple[str, StartedGit]] = deque()

            def finish_oldest() -> None:
                done, git = started.popleft()
                found[done] = _deleting(git.wait().stdout)

            for path in paths:
                if len(started) == LOGS_AT_ONCE:
                    finish_oldest()
                args = ["log", "-m", "--no-renames", "--diff-filter=D", "--format=%H %P", spec, "--", f":(literal){path}"]
                started.append((path, running.enter_context(
                    StartedGit(self._repo.run_dir, args, self._repo.object_quarantine())
                )))
            while started:
                finish_oldest()
        return found


def _deleting(log: bytes) -> str | None:
    """The first non-merge commit of a ``--format=%H %P`` log, else its first commit."""
    rows = [line.split() for line in log.decode("ascii", "replace").splitlines() if line.strip()]
    for row in rows:
        if len(row) == 2:
            return row[0]
    return rows[0][0] if rows else None


def _blob(oid: str) -> str | None:
    return None if oid == _NULL else oid


def read_policy_config(repo: GitRepo, snapshot: SyncSnapshot) -> tuple[str, bytes] | None:
    """The repository's own sync configuration: (label for messages, TOML bytes), or None.

    ``.workbench.toml`` first, else ``pyproject.toml`` if it has a
    ``[tool.workbench]`` table.  A merge in progress reads the work tree
    (where a maintainer edits it), except a file still conflicted in the
    index, which is read from dev (HEAD); otherwise dev's commit is read,
    because dev is the branch whose conventions the sync must respect.
    """
    unmerged = repo.index_unmerged() if snapshot.mode == "in-progress" else {}
    for name in (CONFIG_FILE, PYPROJECT):
        found = _config_file(repo, snapshot, name, name in unmerged)
        if found is None:
            continue
        if name == PYPROJECT and b"[tool.workbench" not in found[1]:
            continue
        return found
    return None


def _config_file(repo: GitRepo, snapshot: SyncSnapshot, name: str, unmerged: bool) -> tuple[str, bytes] | None:
    if snapshot.mode == "in-progress" and not unmerged and repo.workdir is not None:
        full = Path(repo.workdir, name)
        if full.is_file() and not os.path.islink(full):
            return name, read_config(full, "policy file")  # bounded: the work tree is untrusted input
        return None
    entry = repo.tree_entry(snapshot.dev, name)
    if entry is None or entry[1] not in BLOB_MODES:
        return None
    return f"{snapshot.dev[:10]}:{name}", repo.read_blob(entry[0])
