"""Opening a repository and reading its objects, through pygit2."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path

import pygit2

from workbench.errors import WorkbenchError
from workbench.git.blob_cache import BlobCache
from workbench.git.catfile import CatFile
from workbench.git.line_diff import line_changes
from workbench.git.objects import commit_info, entry_at, walk_named, walk_tree
from workbench.git.quarantine import Quarantine, unquote_alternate
from workbench.git.runner import delta_cache_options, honoured_repository, run_git
from workbench.git.types import CommitInfo, Script


class GitRepo:
    """A repository opened for reading; every pygit2 call goes through here."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self._repo = repo
        self._blobs = BlobCache()
        self._pinned: dict[str, bytes] = {}
        self._commit_cache: dict[str, CommitInfo] = {}
        self._quarantine: Quarantine | None = None
        self._catfile: CatFile | None = None
        self._reading: tuple[str, ...] | None = None

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> GitRepo:
        """Open the repository containing ``path`` (default: the current directory), or the one
        ``GIT_DIR``/``GIT_WORK_TREE`` name (``runner.honoured_repository``)."""
        start = Path(path) if path is not None else Path.cwd()
        if not start.exists():
            raise WorkbenchError(f"no such directory: {start}")
        start = Path(honoured_repository(start) or start)
        found = pygit2.discover_repository(str(start))
        if found is None:
            raise WorkbenchError(f"not a git repository: {start}")
        try:
            repo = pygit2.Repository(found)
            if not repo.head_is_unborn:
                repo.head.target  # noqa: B018 - a HEAD libgit2 cannot read is bad input, said here once
        except pygit2.GitError as exc:
            raise WorkbenchError(f"cannot open repository {start}: {exc}") from None
        return cls(repo)

    # -- where things are -------------------------------------------------

    @property
    def gitdir(self) -> Path:
        return Path(self._repo.path)

    @property
    def common_dir(self) -> Path:
        """Where objects and refs live (differs from gitdir in a linked worktree)."""
        gitdir = Path(self._repo.path)
        pointer = gitdir / "commondir"
        if pointer.is_file():
            return (gitdir / pointer.read_text(encoding="utf-8").strip()).resolve()
        return gitdir

    @property
    def workdir(self) -> Path | None:
        """The work tree, or None for a bare repository."""
        wd = self._repo.workdir
        return Path(wd) if wd else None

    @property
    def run_dir(self) -> Path:
        """Where to run the git binary for this repository."""
        return self.workdir or self.gitdir

    @property
    def is_bare(self) -> bool:
        return bool(self._repo.is_bare)

    @property
    def is_shallow(self) -> bool:
        return bool(self._repo.is_shallow)

    # -- keeping .git untouched ------------------------------------------------

    def object_quarantine(self) -> dict[str, str]:
        """Environment that makes git write new objects to a private temp dir.

        Commands like ``git merge-tree --write-tree`` store the objects they
        compute; pointed here, they leave ``.git`` exactly as it was, while
        still reading the repository's objects (and its alternates).  The
        directory lives as long as this GitRepo and libgit2 reads from it too.
        """
        return self._quarantined().read_env()

    def object_sink(self) -> dict[str, str]:
        """Environment for commands that only write objects: the quarantine alone (see quarantine.py)."""
        return self._quarantined().write_env()

    def object_times_kept(self) -> AbstractContextManager[None]:
        """Around a command that reads and writes objects: git's freshening of existing ones is undone."""
        return self._quarantined().times_kept()

    def private_index(self, name: str = "index-copy") -> dict[str, str]:
        """Environment giving git a copy of the index, for porcelain that refreshes and rewrites it (``git diff``).

        ``name``: the copy's, for a user that must not share one (a copy is made anew at each call).
        """
        quarantine = self._quarantined()
        copy = quarantine.path / name
        source = self.gitdir / "index"
        if source.is_file():
            # With its times: git trusts an entry's stat only when the file is older than the index
            # (racy git), and a copy dated now would vouch for a file changed within the index's tick.
            shutil.copy2(source, copy)
        else:
            copy.unlink(missing_ok=True)
        return {"GIT_INDEX_FILE": str(copy)}

    def scratch_dir(self) -> Path:
        """A private directory that lives as long as this GitRepo (inside the quarantine)."""
        return self._quarantined().path

    def _quarantined(self) -> Quarantine:
        if self._quarantine is None:
            self._quarantine = Quarantine(self._object_dirs())
            self._repo.odb.add_disk_alternate(str(self._quarantine.path))
        return self._quarantine

    def _object_dirs(self) -> list[Path]:
        """The repository's object directory, then the ones its alternates file names."""
        objects = (self.common_dir / "objects").resolve()
        found = [objects]
        info = objects / "info" / "alternates"
        if info.is_file():
            for line in info.read_text(encoding="utf-8", errors="surrogateescape").splitlines():
                line = line.strip()
                if line and not line.startswith("#"):
                    found.append((objects / unquote_alternate(line)).resolve())
        return found

    # -- revisions ----------------------------------------------------------

    def head(self) -> str | None:
        """HEAD's commit id, or None on an unborn branch."""
        if self._repo.head_is_unborn:
            return None
        return str(self._repo.head.target)

    def merge_heads(self) -> tuple[str, ...]:
        """The commits being merged in (MERGE_HEAD), empty when no merge is in progress."""
        try:
            return tuple(str(oid) for oid in self._repo.listall_mergeheads())
        except pygit2.GitError:
            return ()

    def object_type(self, oid: str) -> str | None:
        """``commit``, ``tree``, ``blob`` or ``tag`` for an object id, None when there is no such object."""
        try:
            obj = self._repo.get(oid)
        except (ValueError, pygit2.GitError):
            return None
        return None if obj is None else obj.type_str

    def resolve(self, rev: str) -> str:
        """The commit id ``rev`` names; a clear error (naming ``rev`` escaped) when it names none."""
        if rev.startswith("-") or not rev.isprintable():
            raise WorkbenchError(f"unknown revision: {shown_rev(rev)}")
        try:
            obj = self._repo.revparse_single(rev)
            commit = obj.peel(pygit2.Commit)
        except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError):
            raise WorkbenchError(f"unknown revision: {shown_rev(rev)}") from None
        return str(commit.id)

    def parents(self, sha: str) -> tuple[str, ...]:
        return tuple(str(p) for p in self._commit(sha).parent_ids)

    def merge_base(self, a: str, b: str) -> str | None:
        base = self._repo.merge_base(a, b)
        return str(base) if base is not None else None

    def count_commits(self, tip: str, hide: str | None) -> int:
        walker = self._repo.walk(tip, pygit2.enums.SortMode.NONE)
        if hide is not None:
            walker.hide(hide)
        return sum(1 for _ in walker)

    # -- objects ----------------------------------------------------------------

    def read_blob(self, oid: str) -> bytes:
        """A blob's bytes, through git cat-file (see catfile.py for why); cached."""
        data = self._pinned.get(oid) or self._blobs.get(oid)
        if data is None:
            if self._catfile is None:
                self._catfile = CatFile(self.run_dir, self.object_quarantine(), self.reading_options())
            found = self._catfile.read(oid)
            if found is None or found[0] != "blob":
                raise WorkbenchError(f"missing blob {oid[:10]} (shallow or damaged repository?)")
            data = found[1]
            self._blobs.put(oid, data)
        return data

    def reading_options(self) -> tuple[str, ...]:
        """Options for a git command that reads many objects: a larger delta-base cache unless the user set one."""
        if self._reading is None:
            self._reading = delta_cache_options(self.run_dir, self.object_quarantine())
        return self._reading

    def remember_blobs(self, contents: Iterable[bytes]) -> None:
        """Make contents that are not in the repository readable by blob id.

        git mergetool's BASE/LOCAL/REMOTE are temporary files, not objects;
        the analysis refers to them by the id they would have.
        """
        for data in contents:
            self._pinned[self.hash_bytes(data)] = data

    def line_changes(self, old: str, new: str) -> Script:
        """libgit2's line diff of two blobs as an edit script (``line_diff.py``).

        Used where a plausible alignment is enough (blame); git-exact merges
        use the analysis layer's own xdiff.
        """
        return line_changes(self.read_blob(old), self.read_blob(new))

    def stored_sizes(self, oids: Iterable[str]) -> dict[str, int]:
        """The sizes of the objects in ``oids`` the repository has, from their headers (nothing inflated).

        Asked of ``git cat-file --batch-check``, not libgit2: libgit2 would map
        the pack into this process for good, and the pages a header lookup
        touches count as this process's memory (a large share of a big sync's peak).
        """
        wanted = list(dict.fromkeys(oids))
        if not wanted:
            return {}
        listing = "".join(f"{oid}\n" for oid in wanted).encode("ascii")
        found = run_git(self.run_dir, ["cat-file", "--batch-check=%(objectname) %(objectsize)"], input_bytes=listing,
                        extra_env=self.object_quarantine()).stdout
        sizes: dict[str, int] = {}
        for line in found.decode("ascii", "replace").splitlines():
            oid, _, size = line.partition(" ")
            if size.isdigit():
                sizes[oid] = int(size)
        return sizes

    def blob_size(self, oid: str) -> int:
        """A blob's size in bytes (0 when there is no such blob), a remembered one's too (``remember_blobs``)."""
        pinned = self._pinned.get(oid)
        if pinned is not None:
            return len(pinned)
        obj = self._repo.get(oid)
        return obj.size if isinstance(obj, pygit2.Blob) else 0

    def tree_entry(self, commit: str, path: str) -> tuple[str, int] | None:
        """(oid, mode) of ``path`` in ``commit``'s tree, or None when absent."""
        return entry_at(self._commit(commit).tree, path)

    def tree_of(self, commit: str) -> str:
        return str(self._commit(commit).tree_id)

    def tree_entry_in_tree(self, tree: str, path: str) -> tuple[str, int] | None:
        obj = self._repo.get(tree)
        if not isinstance(obj, pygit2.Tree):
            raise WorkbenchError(f"missing tree {tree[:10]}")
        return entry_at(obj, path)

    def tree_paths(self, tree: str) -> dict[str, tuple[str, int]]:
        """Every file in a tree: path -> (oid, mode)."""
        obj = self._repo.get(tree)
        out: dict[str, tuple[str, int]] = {}
        if isinstance(obj, pygit2.Tree):
            walk_tree(obj, "", out)
        return out

    def blobs_named(self, commit: str, name: str) -> list[tuple[str, str]]:
        """(path, blob id) of every regular file called ``name`` in ``commit``'s tree, sorted by path."""
        found: list[tuple[str, str]] = []
        walk_named(self._commit(commit).tree, "", name, found)
        return sorted(found)

    def commit_info(self, sha: str) -> CommitInfo:
        info = self._commit_cache.get(sha)
        if info is None:
            info = commit_info(self._commit(sha))
            self._commit_cache[sha] = info
        return info

    def _commit(self, sha: str) -> pygit2.Commit:
        try:
            obj = self._repo.get(sha)
        except ValueError:
            obj = None
        if obj is None:
            raise WorkbenchError(f"missing commit {sha[:10]} (shallow clone?)")
        return obj.peel(pygit2.Commit)

    # -- the index and the work tree -------------------------------------------

    def index_unmerged(self) -> dict[str, dict[int, tuple[str, str, int]]]:
        """Conflicted paths in the index: path -> {stage: (path, oid, mode)}."""
        index = self._index()
        out: dict[str, dict[int, tuple[str, str, int]]] = {}
        if index.conflicts is None:
            return out
        for base, ours, theirs in index.conflicts:
            stages: dict[int, tuple[str, str, int]] = {}
            for number, entry in ((1, base), (2, ours), (3, theirs)):
                if entry is not None:
                    stages[number] = (entry.path, str(entry.id), entry.mode)
            path = next(iter(stages.values()))[0]
            for number in (2, 3, 1):
                if number in stages:
                    path = stages[number][0]
                    break
            out[path] = stages
        return out

    def _index(self) -> pygit2.Index:
        """The index as it is now on disk; one libgit2 cannot read is a clear error, not a crash."""
        try:
            index: pygit2.Index = self._repo.index
            index.read()
        except pygit2.GitError as error:
            raise WorkbenchError(f"cannot read the index ({error}); with a split index, "
                                 "`git update-index --no-split-index` makes it readable") from None
        return index

    def index_paths(self) -> frozenset[str]:
        """Every path the index has an entry for, at any stage: what a commit of the merge would hold."""
        index = self._index()
        found = {entry.path for entry in index}
        if index.conflicts is not None:
            found.update(entry.path for stages in index.conflicts for entry in stages if entry is not None)
        return frozenset(found)

    def index_holds(self, paths: Iterable[str]) -> frozenset[str]:
        """Those of ``paths`` the index has an entry for, at any stage (``index_paths`` asked of a few paths,
        without reading every entry)."""
        index = self._index()
        return frozenset(path for path in paths if path in index)

    def index_entry(self, path: str) -> tuple[str, int] | None:
        """Stage-0 (oid, mode) of ``path`` in the index, or None."""
        index = self._index()
        try:
            entry = index[path]
        except (KeyError, pygit2.GitError):
            return None
        return str(entry.id), entry.mode

    def hash_bytes(self, data: bytes) -> str:
        """The blob id ``data`` would get (nothing is written)."""
        return str(pygit2.hash(data))

    def config_value(self, key: str) -> str | None:
        try:
            value = self._repo.config[key]
        except (KeyError, pygit2.GitError):
            return None
        return str(value)

    def config_flag(self, key: str) -> bool:
        """A boolean setting as git reads one (``yes``, ``on``, ``1``...); unset or unreadable: False.

        Read in this process: the writer asks for every file it checks.
        """
        try:
            return bool(self._repo.config.get_bool(key))
        except (KeyError, ValueError, pygit2.GitError):
            return False

    def author_ident(self) -> str | None:
        """``Name <email>`` as git would record a commit's author here (``git var GIT_AUTHOR_IDENT``), or None.

        git's own answer, not libgit2's: ``GIT_AUTHOR_NAME``/``EMAIL`` before
        ``user.name``/``email``, and the configuration files git reads
        (``GIT_CONFIG_GLOBAL``, ``GIT_CONFIG_NOSYSTEM``), which libgit2 ignores.
        """
        found = run_git(self.run_dir, ["var", "GIT_AUTHOR_IDENT"], check=False)
        if found.returncode != 0:
            return None
        ident = found.stdout.decode("utf-8", "replace").strip()
        name, bracket, _when = ident.rpartition(">")
        return (name + bracket).strip() if bracket else None

    @property
    def raw(self) -> pygit2.Repository:
        """For the git layer's own modules only."""
        return self._repo


def shown_rev(rev: str) -> str:
    """A revision as given, for a message: quoted and escaped when it holds a newline or another
    control character (``'HEAD\\nx'``), else as is."""
    return rev if rev.isprintable() else repr(rev)
