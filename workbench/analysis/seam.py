"""What a stage is, and what it is handed besides the analysis: the seam between the scheduler and the stages.

A stage fills its own fields of the analysis after the engine.  It is cut
in four so that a scheduler can share its work out between processes
without knowing what the work is:

* ``prepare(analysis, context)``: the state its computations share (readers,
  caches, an index of the analysis); made once per process, never pickled;
* ``units(prepared)``: its independent computations (paths, file indexes),
  each with a rough cost, so the largest are claimed first;
* ``find(prepared, key)``: one computation, pure: it returns plain frozen
  data, which may come back pickled from a forked child;
* ``fold(analysis, found, prepared)``: the findings, in ``units`` order, put
  into the analysis (in this process, in stage order).

``inputs(prepared, key)``, when a stage gives it, names what a computation
reads besides the scope every unit shares (``memo.py``): its file's facts
as its ``find`` reads them.  A computation whose inputs were computed before
is answered from the memo (None, or no ``inputs``: always computed), once
``valid(prepared, found)`` says what it recorded reading beyond them holds.

``reads`` and ``writes`` name the facts of the analysis a stage's ``prepare``
and ``find`` read and its ``fold`` writes: a stage whose computations read
nothing an earlier stage writes may compute beside it (``pipeline.py``).
A fold sees every earlier stage's folds, whatever it declares.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from workbench.analysis.blame import LineChanges, LineMapper
from workbench.analysis.memo import UnitMemo
from workbench.analysis.model import SyncAnalysis
from workbench.analysis.policy.rules import Policy
from workbench.analysis.readers import HeldBlobs, RepoFiles
from workbench.git.types import CommitLookup, ReadBlob, SyncSnapshot

P = TypeVar("P")
K = TypeVar("K")
F = TypeVar("F")


@dataclass(frozen=True)
class AnalysisContext:
    """What stages may read besides the analysis: the snapshot, the readers, the policy."""

    snapshot: SyncSnapshot
    read_blob: ReadBlob
    commit: CommitLookup
    line_changes: LineChanges
    mapper: LineMapper
    policy: Policy | None = None
    """The sync policy (None: the repository has none; the policy stage does nothing)."""
    repo_files: RepoFiles | None = None
    """Whole-tree reads by role (None: only the conflicted files are known; the
    stages that look beyond them, the API audit and deleted files, do nothing)."""
    paths: frozenset[str] | None = None
    """The caller asked about these paths only (None: the whole sync).  Stages
    that look beyond the conflicted files (changed files, deleted files) keep
    to them, so one file's analysis costs one file's work."""
    held: HeldBlobs | None = None
    """The conflicted files' versions the analysis holds (``read_blob`` answers from them too), for ``Trees``."""
    memo: UnitMemo | None = None
    """Earlier units' answers by their inputs (None: every unit is computed)."""


class Fact(str, Enum):
    """A part of the analysis a stage reads or writes (what the engine fills is always there)."""

    POLICY = "policy"
    """``SyncAnalysis.policy`` and each file's ``policy`` rule."""
    API_MISMATCHES = "api_mismatches"
    DELETED_FILES = "deleted_files"
    SIGNALS = "signals"
    """The signals on files, hunks and edits."""
    RISK = "risk"
    """``risk``, ``level`` and ``lost_lines`` of files, hunks and edits."""
    DUPLICATES = "duplicates"
    """``SyncAnalysis.duplicates``: names the merge defined twice."""
    WORKLIST = "worklist"
    """``SyncAnalysis.worklist`` and the files' histories of the sync's own commits."""
    SUGGESTIONS = "suggestions"
    """``suggestion`` and ``candidates`` of conflict hunks, ``suggestion`` of files."""


EVERYTHING = frozenset(Fact)


@dataclass(frozen=True)
class Unit(Generic[K]):
    """One independent computation of a stage: its key (a path, a file index) and a rough cost."""

    key: K
    cost: int = 1


@dataclass(frozen=True)
class Stage(Generic[P, K, F]):
    """One enrichment stage, cut so that a scheduler can share out its work (see the module's docstring)."""

    name: str
    """How progress names it (the stage's module)."""
    reads: frozenset[Fact]
    writes: frozenset[Fact]
    prepare: Callable[[SyncAnalysis, AnalysisContext], P]
    units: Callable[[P], Sequence[Unit[K]]]
    find: Callable[[P, K], F]
    fold: Callable[[SyncAnalysis, Sequence[F], P], SyncAnalysis]
    inputs: Callable[[P, K], tuple[object, ...] | None] | None = None
    """What ``find(prepared, key)`` reads besides the scope (see the module's docstring)."""
    valid: Callable[[P, F], bool] | None = None
    """Whether a finding from the memo still holds: what its computation recorded reading beyond its
    ``inputs`` (other files' results) reads the same now.  None: its inputs are all it reads."""

    def __call__(self, analysis: SyncAnalysis, context: AnalysisContext) -> SyncAnalysis:
        """The stage alone, in this process."""
        prepared = self.prepare(analysis, context)
        return self.fold(analysis, [self.find(prepared, unit.key) for unit in self.units(prepared)], prepared)


AnyStage = Stage[Any, Any, Any]
"""A stage of any kind, as a list of stages holds them."""
