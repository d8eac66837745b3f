"""The analysis of one sync merge: frozen records, shared by every front end.

Line ranges are 1-based and inclusive in their side's blob; an empty range
is ``(n, n - 1)``: an insertion before line n.  Texts are kept as bytes
(exactly what git stores); front ends decode them for display.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from workbench.analysis.xdiff import MergeResult
from workbench.git.types import CommitInfo as Commit

SCHEMA = "workbench.analysis/1"


class Mode(str, Enum):
    """Which of the three situations is being analysed."""

    IN_PROGRESS = "in-progress"
    MERGE_COMMIT = "merge-commit"
    PREVIEW = "preview"


class FileStatus(str, Enum):
    """What the sync did to a file that needed a look."""

    CONFLICTED = "conflicted"
    THEIRS_RESOLVED = "theirs-resolved"
    HAND_RESOLVED = "hand-resolved"
    MODIFY_DELETE = "modify-delete"
    ADD_ADD = "add-add"
    BINARY = "binary"


class ConflictKind(str, Enum):
    """The kind of conflict a plain merge reports for the path."""

    CONTENT = "content"
    ADD_ADD = "add-add"
    MODIFY_DELETE = "modify-delete"
    BINARY = "binary"
    MODE = "mode"
    SYMLINK = "symlink"
    SUBMODULE = "submodule"
    RENAME = "rename"


class Taken(str, Enum):
    """Which side's text the result holds for a hunk."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    OTHER = "other"
    UNRESOLVED = "unresolved"


class Level(str, Enum):
    """Risk level; ``rank`` orders them."""

    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"

    @property
    def rank(self) -> int:
        return {"low": 0, "medium": 1, "high": 2}[self.value]


@dataclass(frozen=True, slots=True)
class LineRange:
    """1-based inclusive line range; ``end == start - 1`` when empty."""

    start: int
    end: int

    @classmethod
    def from_slice(cls, offset: int, count: int) -> LineRange:
        """From a 0-based start and a count."""
        return cls(offset + 1, offset + count)

    @property
    def count(self) -> int:
        return self.end - self.start + 1

    @property
    def empty(self) -> bool:
        return self.end < self.start

    def as_list(self) -> list[int]:
        return [self.start, self.end]

    def slice(self) -> slice:
        return slice(self.start - 1, self.end)

    def describe(self) -> str:
        """For people: "12-15", "12", or "none (before line 12)" when empty."""
        if self.empty:
            return f"none (before line {self.start})"
        return str(self.start) if self.start == self.end else f"{self.start}-{self.end}"


@dataclass(frozen=True, slots=True)
class Signal:
    """One piece of risk evidence on a hunk, in a sentence, with its commits."""

    kind: str
    message: str
    commits: tuple[str, ...] = ()
    weight: int = 0


@dataclass(frozen=True, slots=True)
class Hunk:
    """A region where both sides changed the same lines (a conflict of a plain merge)."""

    index: int
    base: LineRange
    dev: LineRange
    main: LineRange
    result: LineRange | None
    taken: Taken
    base_text: tuple[bytes, ...]
    dev_text: tuple[bytes, ...]
    main_text: tuple[bytes, ...]
    result_text: tuple[bytes, ...] | None
    dev_commits: tuple[str, ...] = ()
    main_commits: tuple[str, ...] = ()
    risk: int = 0
    level: Level = Level.LOW
    signals: tuple[Signal, ...] = ()


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a conflicted path: where it lives and which blob it is."""

    path: str
    oid: str | None
    mode: int | None

    @property
    def present(self) -> bool:
        return self.oid is not None


@dataclass(frozen=True)
class FileHistory:
    """Commits since the merge base that touched the file, newest first."""

    dev: tuple[Commit, ...] = ()
    main: tuple[Commit, ...] = ()


@dataclass(frozen=True)
class FileAnalysis:
    """Everything known about one path that needs a look."""

    path: str
    status: FileStatus
    kind: ConflictKind
    base: Side
    dev: Side
    main: Side
    result_oid: str | None
    result_present: bool
    hunks: tuple[Hunk, ...]
    history: FileHistory
    merge: MergeResult | None = field(default=None, repr=False)
    """The line-level merge the hunks index into (None for non-text files)."""
    result_bytes: bytes | None = field(default=None, repr=False)
    theirs_bytes: bytes | None = field(default=None, repr=False)
    """What a pure ``-X theirs`` merge puts in the file (None: not decidable)."""
    messages: tuple[str, ...] = ()
    policy: str | None = None
    """Which sync-policy rule applied (e.g. "keep-dev", "override-from-main")."""
    risk: int = 0
    level: Level = Level.LOW
    signals: tuple[Signal, ...] = ()
    """File-wide evidence (policy findings, API mismatches outside hunks)."""
    exact: bool | None = None
    """True when the hunk model re-renders git's conflicted blob byte for byte."""
    result_mode: int | None = None
    """The result's file mode (100644, 100755, 120000, 160000), None when absent."""

    @property
    def is_python(self) -> bool:
        return self.path.endswith(".py")


@dataclass(frozen=True)
class SyncAnalysis:
    """The whole sync: both tips, their base, and every file that needs a look."""

    mode: Mode
    dev: str
    main: str
    base: str | None
    merge: str | None
    files: tuple[FileAnalysis, ...]
    api_mismatches: tuple[object, ...] = ()
    main_commits: int = 0
    """How many commits the sync brings from main (base..main)."""
    dev_commits: int = 0
    git_version: str = ""
    repo_path: str = ""
    labels: tuple[str, str] = ("dev", "main")
    result_commit: str | None = None
    """The commit whose tree is the result (merge-commit mode), else None."""

    def file(self, path: str) -> FileAnalysis | None:
        for entry in self.files:
            if entry.path == path:
                return entry
        return None
