"""The analysis of one sync merge: frozen records, shared by every front end.

Line ranges are 1-based and inclusive in their side's blob; an empty range
is ``(n, n - 1)``: an insertion before line n.  Texts are kept as bytes
(exactly what git stores); front ends decode them for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING

# The closed sets live in kinds.py; callers import them from here with the records (explicit re-exports).
from workbench.analysis.kinds import ConflictKind as ConflictKind
from workbench.analysis.kinds import Decider as Decider
from workbench.analysis.kinds import FileRung as FileRung
from workbench.analysis.kinds import FileStatus as FileStatus
from workbench.analysis.kinds import FileTake as FileTake
from workbench.analysis.kinds import HunkKind as HunkKind
from workbench.analysis.kinds import Level as Level
from workbench.analysis.kinds import MismatchKind as MismatchKind
from workbench.analysis.kinds import Mode as Mode
from workbench.analysis.kinds import PolicyKind as PolicyKind
from workbench.analysis.kinds import PolicyRule as PolicyRule
from workbench.analysis.kinds import Rendered as Rendered
from workbench.analysis.kinds import Resolver as Resolver
from workbench.analysis.kinds import Rung as Rung
from workbench.analysis.kinds import Severity as Severity
from workbench.analysis.kinds import SignalKind as SignalKind
from workbench.analysis.kinds import SyncReason as SyncReason
from workbench.analysis.kinds import Take as Take
from workbench.analysis.kinds import Taken as Taken
from workbench.analysis.kinds import Verdict as Verdict
from workbench.analysis.kinds import Whose as Whose
from workbench.analysis.xdiff import Favor, MergeResult
from workbench.git.types import ACKS_PATH as ACKS_PATH
from workbench.git.types import CommitInfo

if TYPE_CHECKING:
    from workbench.analysis.worklist.items import Worklist

Commit = CommitInfo
"""A commit as the analysis names it (the git layer's record, re-exported for the layers above)."""

SCHEMA = "workbench.analysis/1"


_SETTLED_BY_STATUS = {FileStatus.THEIRS_RESOLVED: Decider.THEIRS, FileStatus.HAND_RESOLVED: Decider.HAND}


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

    kind: SignalKind
    message: str
    commits: tuple[str, ...] = ()
    weight: int = 0


@dataclass(frozen=True, slots=True)
class LostLines:
    """Each side's lines (ranges in that side's blob) that the result does not have where they belong.

    Only lines the side wrote since the merge base count: what a reviewer
    has to read to decide whether the hunk lost work (``lost_lines`` in JSON).
    """

    dev: tuple[LineRange, ...] = ()
    main: tuple[LineRange, ...] = ()

    def side(self, name: Whose) -> tuple[LineRange, ...]:
        """``dev`` or ``main``'s ranges."""
        return self.dev if name == "dev" else self.main


@dataclass(frozen=True, slots=True)
class ChoiceLoss:
    """What taking one side's text wholesale would lose of the other side's own lines (both directions).

    ``take_dev``: main's lines (ranges in main's blob) that taking dev's side
    drops; ``take_main``: dev's lines (in dev's blob) that taking main's drops.
    Only lines a side wrote since the base, with content, and missing from the
    taken side's text near the hunk (``choice_loses`` in JSON).
    """

    take_dev: tuple[LineRange, ...] = ()
    take_main: tuple[LineRange, ...] = ()


@dataclass(frozen=True, slots=True)
class SideShare:
    """What a candidate does with one side's own lines (those it wrote since the base): 0-based indexes in its hunk text."""

    kept: tuple[int, ...]
    dropped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One resolution offered for a conflict hunk: the lines it writes and what it keeps and drops of each side."""

    take: Take
    lines: tuple[bytes, ...]
    dev: SideShare
    main: SideShare
    note: str = ""
    """What it is, in words (for the menu)."""

    @property
    def text(self) -> bytes:
        return b"".join(self.lines)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """The one candidate the evidence stands behind, and why."""

    candidate: Candidate
    rung: Rung
    reason: str
    """The rung in words, e.g. "the three texts merge cleanly at word level"."""
    commits: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileSuggestion:
    """One choice for a whole file, why, and the command that regenerates it afterwards (None: none known)."""

    take: FileTake
    rung: FileRung
    reason: str
    regenerate: str | None

    @property
    def side(self) -> str:
        """The side the file is taken from, ``"main"`` or ``"dev"`` (as an answer key names what shipped)."""
        return "main" if self.take is FileTake.FILE_MAIN else "dev"


@dataclass(frozen=True, slots=True)
class Hunk:
    """A region where both sides changed the same lines (a conflict of a plain merge)."""

    index: int
    base: LineRange
    dev: LineRange
    main: LineRange
    result: LineRange | None
    taken: Taken
    base_text: Sequence[bytes]
    dev_text: Sequence[bytes]
    main_text: Sequence[bytes]
    result_text: tuple[bytes, ...] | None
    dev_commits: tuple[str, ...] = ()
    main_commits: tuple[str, ...] = ()
    risk: int = 0
    level: Level = Level.LOW
    signals: tuple[Signal, ...] = ()
    kind: HunkKind = HunkKind.CONFLICT
    """``edit``: the result changed what git merged cleanly here (``taken`` says
    whose text it holds instead); ``base``/``dev``/``main`` are the lines git
    merged from, ``result`` what the result holds."""
    lost_lines: LostLines = LostLines()
    """The lines of each side the result lost here (filled by the risk stage)."""
    choice_loss: ChoiceLoss = ChoiceLoss()
    """What taking dev's or main's side here would lose of the other's (filled by the risk stage)."""

    merged_text: tuple[bytes, ...] | None = None
    """``edit`` hunks: the lines git's automatic merge holds here, what "restore git's merge" writes back
    (None: not known, e.g. the merge could not be laid over the result line by line)."""
    suggestion: Suggestion | None = None
    """Conflict hunks: the resolution the evidence stands behind (None: none does; filled by the suggestion stage)."""
    candidates: tuple[Candidate, ...] = ()
    """Conflict hunks: the menu of exact resolutions, best first (the suggestion's first when there is one)."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a conflicted path: where it lives and which blob it is."""

    path: str
    oid: str | None
    mode: int | None

    @property
    def present(self) -> bool:
        return self.oid is not None


@dataclass(frozen=True, slots=True)
class SyncChange:
    """A commit of the sync itself (an earlier sync's merge, a fix on its branch, the bot's) that changed a file
    on one side: never that side's intent, but often what explains the file's state there."""

    side: Whose
    commit: Commit
    reason: SyncReason
    lines: int
    """Lines of the file it changed against its first parent (added plus removed)."""


@dataclass(frozen=True)
class FileHistory:
    """Commits since the merge base that touched the file, newest first."""

    dev: tuple[Commit, ...] = ()
    main: tuple[Commit, ...] = ()
    sync: tuple[SyncChange, ...] = ()
    """The sync's own commits that changed the file on either side, newest first per side (an earlier sync
    merge that rewrote dev's file is in none of ``dev``'s commits when its text is main's)."""


class _Same:
    """A merge as a cache key by identity: hashing or comparing its lines would cost as much as rendering them."""

    __slots__ = ("merge",)

    def __init__(self, merge: MergeResult) -> None:
        self.merge = merge

    def __hash__(self) -> int:
        return id(self.merge)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.merge is self.merge


@lru_cache(maxsize=8)
def _rendered_for_main(key: _Same) -> bytes:
    """The merge rendered for main, kept for the last few files read: a caller that reads a file's text once per
    hunk renders it once (the cache holds the merge, so its id names no other while it is kept)."""
    return key.merge.render(Favor.THEIRS)


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
    stored_result: bytes | None = field(default=None, repr=False)
    """The result's bytes unless ``rendered`` says they are the merge's (read them as ``result_bytes``)."""
    stored_theirs: bytes | None = field(default=None, repr=False)
    """Main's bytes of a binary file (read ``theirs_bytes``)."""
    rendered: Rendered = Rendered.NOTHING
    messages: tuple[str, ...] = ()
    policy: PolicyRule | None = None
    """Which sync-policy rule applied (e.g. "keep-dev", "override-from-main")."""
    risk: int = 0
    level: Level = Level.LOW
    signals: tuple[Signal, ...] = ()
    """File-wide evidence (policy findings, API mismatches outside hunks)."""
    exact: bool | None = None
    """True when the hunk model re-renders git's conflicted blob byte for byte."""
    result_mode: int | None = None
    """The result's file mode (100644, 100755, 120000, 160000), None when absent."""
    decided_by: Decider | None = None
    """``APP`` when the workbench wrote what the result holds (its journal says so; the hunks then carry the
    evidence and risk they had when decided), ``FIX_COMMIT`` when a commit after the merge changed the file
    (the result is a later commit), else None: see ``settled_by``."""
    decided_at: float | None = None
    """When the workbench wrote it (Unix time), with ``decided_by``."""

    @property
    def settled_by(self) -> Decider | None:
        """Who settled the file: ``decided_by``, else ``-X theirs`` or ``hand`` by its status, or None while it
        is still conflicted."""
        if self.decided_by:
            return self.decided_by
        return _SETTLED_BY_STATUS.get(self.status)

    edits: tuple[Hunk, ...] = ()
    """Regions outside git's conflicts where the result differs from git's
    automatic merge (``kind`` edit, indexes after the conflict hunks'); the
    resolve layer never splices them, so ``hunks`` stays git's conflicts."""

    later: bool = False
    """A commit after the sync merge changed the file (``--result`` names a later commit)."""

    asides: tuple[str, ...] = ()
    """Where git put one side's version instead of at ``path`` (``link~HEAD``): the sides hold different
    types there (a file and a symlink, a file and a directory)."""
    directory: Whose | None = None
    """The side that has a directory at ``path`` (a file/directory conflict): its own side here is absent."""
    worktree_conflicts: bytes | None = field(default=None, repr=False)
    """A file a merge in progress left conflicted, whose blocks git drew in another style (diff3, zdiff3)
    than the default one ``result_bytes`` holds them in: the work tree's own bytes, for showing its blocks."""
    suggestion: FileSuggestion | None = None
    """One choice for the whole file (a lock file, measured values), filled by the suggestion stage."""

    @property
    def theirs_bytes(self) -> bytes | None:
        """What a pure ``-X theirs`` merge puts in the file (None: not decidable)."""
        if self.rendered is not Rendered.NOTHING and self.merge is not None:
            return _rendered_for_main(_Same(self.merge))
        return self.stored_theirs

    @property
    def result_bytes(self) -> bytes | None:
        """What the result holds (None when absent or not read)."""
        return self.theirs_bytes if self.rendered is Rendered.BOTH else self.stored_result

    @property
    def all_hunks(self) -> tuple[Hunk, ...]:
        """Conflict hunks, then the edits beyond git's merge."""
        return self.hunks + self.edits

    @property
    def is_python(self) -> bool:
        return self.path.endswith(".py")


@dataclass(frozen=True, slots=True)
class ApiMismatch:
    """A call, import or name in the result that the merged tree cannot satisfy.

    The code at ``path:line`` came from one side (``side``) and fits that
    side's tree; the callee the merge kept does not fit it.
    """

    path: str
    line: int
    """1-based line in the result."""
    symbol: str
    kind: MismatchKind
    message: str
    side: Whose
    """Whose code the caller is."""
    callee_path: str | None = None
    callee_line: int | None = None
    """Where the callee (or what should hold it) is in the result."""
    commits: tuple[str, ...] = ()
    """The commit that renamed or changed the callee, where found."""
    hunk: int | None = None
    """Index of the hunk holding the caller, when one does."""


@dataclass(frozen=True, slots=True)
class Importer:
    """A line of the result that imports a module."""

    path: str
    line: int


@dataclass(frozen=True, slots=True)
class DeletedFile:
    """A file main has that the result lacks, and what to do about it."""

    path: str
    main_oid: str
    in_base: bool
    dev_present: bool
    verdict: Verdict
    """``restore-file`` (the result imports it), ``leave-deleted`` (dev deleted it on purpose) or ``check``."""
    message: str
    importers: tuple[Importer, ...] = ()
    deleted_by: Commit | None = None
    """The dev commit that deleted it, when dev did."""


@dataclass(frozen=True, slots=True)
class DuplicateDefinition:
    """A name the result defines twice in one scope (``scope``: a class's dotted name, or ``<module>``) where
    dev and main each defined it at most once: the merge's doing."""

    path: str
    scope: str
    name: str
    lines: tuple[int, ...]
    """Each definition's first line in the result."""
    dev_line: int | None = None
    """Where dev defines it (None: dev does not)."""
    main_line: int | None = None


@dataclass(frozen=True, slots=True)
class PolicyFinding:
    """One thing the sync policy says about a path."""

    path: str
    rule: PolicyRule
    kind: PolicyKind
    """What was found, e.g. ``main-text-in-keep-dev``, ``coupled-split``, ``uv-source-missing``."""
    message: str
    severity: Severity = "high"
    fix: str | None = None
    """A command that fixes it, when one does (``git checkout DEV -- FILE``)."""
    source: str = ""
    """Where the rule is written (``.workbench.toml:4``, ``preset megatron``)."""


@dataclass(frozen=True)
class PolicyReport:
    """Which policy ran, from where, and what it found."""

    name: str
    source: str
    findings: tuple[PolicyFinding, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SyncAnalysis:
    """The whole sync: both tips, their base, and every file that needs a look."""

    mode: Mode
    dev: str
    main: str
    base: str | None
    merge: str | None
    files: tuple[FileAnalysis, ...]
    api_mismatches: tuple[ApiMismatch, ...] = ()
    main_commits: int = 0
    """How many commits the sync brings from main (base..main)."""
    dev_commits: int = 0
    git_version: str = ""
    repo_path: str = ""
    labels: tuple[str, str] = ("dev", "main")
    result_commit: str | None = None
    """The commit whose tree is the result (merge-commit mode), else None."""
    complete: bool = True
    """False for the early outline (paths and kinds known; hunks, history and
    risk still being computed): front ends show it as loading."""
    deleted_files: tuple[DeletedFile, ...] = ()
    """Files main has that the result lacks (restore, leave, or check)."""
    policy: PolicyReport | None = None
    """The sync policy that ran and its findings (None: no policy)."""
    resolver: Resolver = Resolver.THEIRS
    """Who decided the conflicts: a pure ``-X theirs`` merge, or a resolution."""
    duplicates: tuple[DuplicateDefinition, ...] = ()
    """Names the merge defined twice in one scope of a file both sides changed (``find_duplicates``)."""
    worklist: Worklist | None = None
    """The findings grouped by shared cause into items decided once (the ``worklist`` stage; None before it)."""

    def file(self, path: str) -> FileAnalysis | None:
        """The file at ``path`` (the first, should two share it), or None."""
        return self._by_path.get(path)

    @cached_property
    def _by_path(self) -> dict[str, FileAnalysis]:
        """``files`` by path, built at the first lookup: the API audit asks once per file (a scan each was
        quadratic, 1 s of the 2,000-file synthetic sync)."""
        found: dict[str, FileAnalysis] = {}
        for entry in self.files:
            found.setdefault(entry.path, entry)
        return found

    def __getstate__(self) -> dict[str, object]:
        """The fields alone: the index of ``_by_path`` is rebuilt, not pickled into the cache."""
        state = dict(self.__dict__)
        state.pop("_by_path", None)
        return state
