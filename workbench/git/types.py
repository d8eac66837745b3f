"""Plain records the git layer hands upward (no pygit2 types escape)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence, ValuesView
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Literal, NamedTuple


class Edit(NamedTuple):
    """One run of an edit script: lines ``a[i1:i1+chg1]`` become ``b[i2:i2+chg2]`` (0-based).

    A tuple, so hot loops keep unpacking it (``for i1, chg1, i2, chg2 in script``) at tuple speed."""

    i1: int
    chg1: int
    i2: int
    chg2: int


Script = tuple[Edit, ...]
"""An edit script, old -> new, first run to last."""

SyncMode = Literal["in-progress", "merge-commit", "preview"]
"""Which situation a snapshot reads (the analysis' ``Mode`` has the same values, and git mergetool's)."""

TreeRole = Literal["result", "dev", "main", "base"]
"""Which of a sync's four trees a whole-tree read looks at (``RepoFiles``); dev and main are also the analysis' ``Whose``."""


class FileMode(IntEnum):
    """The file modes git records for a path; members compare equal to the ints git reads give."""

    REGULAR = 0o100644
    EXECUTABLE = 0o100755
    SYMLINK = 0o120000
    GITLINK = 0o160000
    """A submodule's commit."""


BLOB_MODES = (FileMode.REGULAR, FileMode.EXECUTABLE)
"""The modes of a regular file's blob (a symlink's target is a blob too, but not a file's text)."""

ACKS_PATH = ".workbench/acks.toml"
"""The reviewers' acknowledgements, committed with the sync PR: the workbench's own record, never a change
beyond git's merge to review.  In the git layer because a warm ``report`` of a preview keys on the work
tree's copy without importing the analysis."""

ReadBlob = Callable[[str], bytes]
"""Reads a blob by id (blobs never change, so callers may treat it as pure)."""


@dataclass(frozen=True, slots=True)
class CommitInfo:
    """A commit as the reviewer needs it: who, when, what, which PR."""

    sha: str
    subject: str
    author: str
    date: str
    pr: int | None
    message: str = ""
    parents: tuple[str, ...] = ()

    @property
    def short(self) -> str:
        return self.sha[:10]


@dataclass(frozen=True, slots=True)
class StageEntry:
    """One index stage of a conflicted path: 1 base, 2 ours (dev), 3 theirs (main)."""

    path: str
    oid: str
    mode: int


@dataclass(frozen=True, slots=True)
class MergeMessage:
    """An informational or CONFLICT line from ``git merge-tree``."""

    paths: tuple[str, ...]
    kind: str
    text: str


@dataclass(frozen=True)
class ConflictEntry:
    """A path a plain merge could not resolve, with its stages."""

    path: str
    base: StageEntry | None
    ours: StageEntry | None
    theirs: StageEntry | None
    messages: tuple[MergeMessage, ...] = ()
    merged_oid: str | None = None
    """The blob git wrote for the path (with conflict markers), if any."""
    asides: tuple[str, ...] = ()
    """Where git put a side's version instead (``link~HEAD``): the two sides are of different types (a file and
    a symlink, a file and a directory), and the index and work tree hold one of them under this name."""
    directory: str | None = None
    """``dev`` or ``main``: the side that has a directory at the path (a file/directory conflict)."""


@dataclass(frozen=True)
class MergeTreeResult:
    """What ``git merge-tree --write-tree OURS THEIRS`` reports."""

    tree: str
    clean: bool
    conflicts: tuple[ConflictEntry, ...]
    messages: tuple[MergeMessage, ...]


@dataclass(frozen=True)
class ResultFile:
    """What the merge result holds for a path (worktree, index or commit)."""

    present: bool
    data: bytes | None
    oid: str | None
    unmerged: bool = False
    """The index still has conflict stages for the path (merge in progress)."""
    mode: int | None = None


class PathBlobs(Mapping[str, str | None]):
    """One path's blob id (None: absent) in every commit of a side, as a column of small numbers.

    Every commit has an entry for every path, so a plain dict per path cost
    about 70 bytes per (commit, path): 98 MB of a 10,000-file sync's memory.
    The commits' rows and the blob ids are shared by all the side's paths;
    each path keeps 4 bytes per commit.
    """

    __slots__ = ("_column", "_names", "_rows")

    def __init__(self, rows: Mapping[str, int], names: Sequence[str | None], column: Sequence[int]) -> None:
        self._rows = rows
        self._names = names
        self._column = column

    def __getitem__(self, sha: str) -> str | None:
        return self._names[self._column[self._rows[sha]]]

    def get(self, sha: str, default: str | None = None) -> str | None:  # type: ignore[override]  # blob ids only
        row = self._rows.get(sha)
        return default if row is None else self._names[self._column[row]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def values(self) -> ValuesView[str | None]:
        return _Column(self)


class _Column(ValuesView[str | None]):
    """A path's blob ids in row order, read straight from its column."""

    _mapping: PathBlobs

    def __iter__(self) -> Iterator[str | None]:
        names = self._mapping._names  # noqa: SLF001 - the view belongs to the mapping
        return (names[n] for n in self._mapping._column)  # noqa: SLF001


@dataclass(frozen=True)
class SideHistory:
    """The commits of one side since the merge base, and a path's blob in each.

    ``commits`` is newest first in topological order; ``blobs[path][sha]`` is
    the path's blob id in that commit (None when absent).  Parents outside
    the range (the base and its ancestors) have entries too, so a commit's
    change can always be told from its parents.
    """

    tip: str
    commits: tuple[str, ...]
    parents: dict[str, tuple[str, ...]] = field(repr=False)
    blobs: Mapping[str, Mapping[str, str | None]] = field(repr=False)

    def in_range(self, sha: str) -> bool:
        return sha in self.parents


REDIFF_SHIFTED_SINCE = (2, 54, 0)
"""git re-diffs histogram groups that grew while sliding from this version on."""


@dataclass(frozen=True)
class SyncSnapshot:
    """Facts about one sync, read from the repository."""

    mode: SyncMode
    dev: str
    main: str
    base: str | None
    merge: str | None
    result_commit: str | None
    merge_tree: MergeTreeResult
    results: dict[str, ResultFile]
    dev_history: SideHistory
    main_history: SideHistory
    main_count: int
    dev_count: int
    git_version: tuple[int, int, int]
    repo_path: str
    line_scripts: dict[str, tuple[Script, Script]] = field(default_factory=dict, repr=False)
    """Per conflicted path between regular files: git's histogram scripts base->dev and base->main.

    A small binary file has one too, unused: the engine merges no binary file (``snapshot._scripted_paths``)."""
    paths: frozenset[str] | None = None
    """The conflicts were restricted to these paths (``load_sync(paths=...)``; None: every one)."""
    resolution: ResolutionDiff | None = field(default=None, repr=False)
    """Paths where the result differs from git's automatic merge (None: preview, nothing to compare)."""
    later_history: SideHistory | None = field(default=None, repr=False)
    """When the result is a commit after the sync merge: ``merge..result`` with the blobs of the paths the
    resolution lists, to tell which later commit wrote a line of the result (None otherwise)."""

    @property
    def rediff_shifted(self) -> bool:
        """Whether this git re-diffs histogram groups that grew while sliding."""
        return self.git_version >= REDIFF_SHIFTED_SINCE


CommitLookup = Callable[[str], CommitInfo]
"""Reads a commit's details by id."""


@dataclass(frozen=True, slots=True)
class TreeChange:
    """A path that differs between two trees (``git diff --no-renames --name-status``)."""

    status: str
    """``A`` added, ``D`` deleted, ``M`` modified, ``T`` type changed, ``U`` unmerged."""
    path: str


@dataclass(frozen=True, slots=True)
class PathChange:
    """One commit's change to one path: the blob before and after (None: absent)."""

    sha: str
    old: str | None
    new: str | None


@dataclass(frozen=True)
class ResolvedPath:
    """A path the result holds differently from git's automatic merge (``git show --remerge-diff``).

    ``auto`` is the automatic merge's (blob, mode) there (None: the merge has no
    such file); ``base``/``dev``/``main`` are the path's blobs on each side of
    that merge (None: absent), ``scripts`` git's base->dev and base->main edit
    scripts, and ``edit_script`` git's auto->result script, when both are blobs.
    """

    path: str
    auto: tuple[str, int] | None
    result: ResultFile
    base: str | None
    dev: str | None
    main: str | None
    conflicted: bool = False
    """The automatic merge left conflict markers at this path."""
    scripts: tuple[Script, Script] | None = field(default=None, repr=False)
    edit_script: Script | None = field(default=None, repr=False)


@dataclass(frozen=True)
class ResolutionDiff:
    """Where the result differs from git's automatic merge of dev and main, path by path.

    ``dev`` is the dev the automatic merge used: the sync's own, or the newer
    dev a PR branch merged after the sync merge, so dev's later work is not
    taken for the resolution's.
    """

    tree: str
    dev: str
    base: str
    paths: tuple[ResolvedPath, ...]
    at_merge: dict[str, str | None] = field(default_factory=dict, repr=False)
    """When the result is a later commit than the sync merge: each listed path's
    blob in the sync merge itself (None: absent), to tell its decisions from later ones."""
    merge_beyond: int = 0
    """Paths git merged without conflict that the sync merge commit itself changed."""
