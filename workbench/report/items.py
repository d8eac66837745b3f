"""The worklist as a report reads it: each item with its state, what it still waits for, and the gate's verdict.

The gate speaks in items and counts loss in both directions: an item blocks
``--fail-on LEVEL`` when it is at or above LEVEL and a member still waits for
a decision, and it either breaks the build (an API failure, a duplicate
definition, a deleted file the result imports, a violated policy rule) or
loses lines of dev *or* of main.  A conflict whose result keeps dev's side and
drops main's lines is open exactly like one that keeps main's and drops dev's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from workbench.analysis.model import Commit, Hunk, Level, LineRange, SyncAnalysis, Taken
from workbench.analysis.worklist import Item, ItemKind, Member, worklist_of
from workbench.analysis.worklist.serialized import Decided, ItemState, item_state

BREAKS = frozenset({ItemKind.API_BREAK, ItemKind.DUPLICATE_DEFINITION})
"""Items that fail the build whatever they lose."""
RULED = frozenset({ItemKind.DELETED_FILE, ItemKind.POLICY})
"""Items whose file-level findings block when high (a deleted file the result imports, a policy rule broken)."""


@dataclass(frozen=True)
class ReportItem:
    """One worklist item as the report shows it."""

    item: Item
    state: ItemState
    pending: tuple[Member, ...]
    """Members still waiting for a decision: undecided, and losing lines, still conflicted, or a finding that
    breaks the build or a rule."""
    commits: tuple[Commit, ...]
    """The item's commits the analysis has records of, principal first."""
    later: bool
    """A member is in a file a commit after the merge changed (``--result`` later than the merge)."""
    take_dev: int
    """Main's lines that taking dev's side in every member would lose."""
    take_main: int
    """Dev's lines that taking main's side in every member would lose."""

    @property
    def open(self) -> bool:
        return bool(self.pending)

    def blocks(self, level: Level) -> bool:
        """Whether ``--fail-on level`` fails on this item."""
        if not self.pending or self.item.level.rank < level.rank:
            return False
        if self.item.kind in BREAKS:
            return True
        if self.item.kind in RULED and any(m.hunk is None and m.level is Level.HIGH for m in self.pending):
            return True
        return any(m.lost_count for m in self.pending)


def report_items(analysis: SyncAnalysis, decided: Decided) -> tuple[ReportItem, ...]:
    """Every item, in the worklist's order (most important first)."""
    hunks = {(f.path, h.index): h for f in analysis.files for h in f.all_hunks}
    later = {f.path for f in analysis.files if f.later}
    commits = {c.sha: c for f in analysis.files for c in (*f.history.dev, *f.history.main)}
    return tuple(_entry(item, hunks, later, commits, decided) for item in worklist_of(analysis).items)


def _entry(item: Item, hunks: Mapping[tuple[str, int], Hunk], later: set[str], commits: Mapping[str, Commit],
           decided: Decided) -> ReportItem:
    pending = tuple(m for m in item.members if not decided(m.path, m.hunk) and _waits(item, m, hunks))
    take_dev = take_main = 0
    for m in item.members:
        hunk = hunks.get((m.path, m.hunk)) if m.hunk is not None else None
        if hunk is not None:
            take_dev += _count(hunk.choice_loss.take_dev)
            take_main += _count(hunk.choice_loss.take_main)
    return ReportItem(
        item=item,
        state=item_state(item, decided),
        pending=pending,
        commits=tuple(commits[sha] for sha in item.commits if sha in commits),
        later=item.kind is ItemKind.FIX_COMMIT or any(m.path in later for m in item.members),
        take_dev=take_dev,
        take_main=take_main,
    )


def _waits(item: Item, member: Member, hunks: Mapping[tuple[str, int], Hunk]) -> bool:
    """Whether an undecided member needs a decision: a file-level finding, or a hunk that is still conflicted,
    loses lines of either side, or holds what breaks the build."""
    if member.hunk is None:
        return True
    hunk = hunks.get((member.path, member.hunk))
    if hunk is None:
        return True
    return hunk.taken is Taken.UNRESOLVED or bool(member.lost_count) or item.kind in BREAKS


def _count(ranges: tuple[LineRange, ...]) -> int:
    return sum(r.count for r in ranges if not r.empty)


def blocking(items: tuple[ReportItem, ...], level: Level) -> tuple[ReportItem, ...]:
    """The items ``--fail-on level`` fails on."""
    return tuple(i for i in items if i.blocks(level))

