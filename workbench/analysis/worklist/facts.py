"""What the worklist knows beyond the analysis model: facts a stage or the git layer found, handed in.

The model does not (yet) say which commit after the merge wrote a hunk's
result, which commits the sync itself made, which hunks lose only layout,
or which definitions the merge duplicated in files git merged cleanly; the
caller computes those and passes them here, and the grouping stays a pure
function of its inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from workbench.analysis.model import Commit

HunkRef = tuple[str, int]
"""A file's path and a hunk's index in its ``all_hunks``."""


@dataclass(frozen=True, slots=True)
class DuplicateDefinition:
    """A name the result defines twice in one scope (``scope``: a class's dotted name, or ``<module>``)."""

    path: str
    scope: str
    name: str
    lines: tuple[int, ...]
    """Each definition's first line in the result."""
    dev_line: int | None = None
    """Where dev defines it (None: dev does not)."""
    main_line: int | None = None


@dataclass(frozen=True)
class WorklistFacts:
    """Optional inputs; each left empty makes its rule do nothing."""

    sync_commits: frozenset[str] = frozenset()
    """Commits of the sync itself (earlier sync merges, commits on sync branches, the bot's): never a side's
    intent, so never the commit an item is about."""
    fixed_by: Mapping[HunkRef, str] = field(default_factory=dict)
    """The commit after the sync merge that wrote what the result holds at a hunk."""
    layout_only: frozenset[HunkRef] = frozenset()
    """Hunks whose lost lines were layout only (the same tokens are in the result)."""
    duplicates: tuple[DuplicateDefinition, ...] = ()
    commits: tuple[Commit, ...] = ()
    """Records of commits the files' histories do not hold (fix commits after the merge)."""
