"""Members that share a high item's loss are high too: a medium hunk losing lines of a commit whose other lost
lines are high (its comments, a one-line default) is restored with them, so it is read with them.

Not in a file a tool writes (a lock file, JSON golden values): restoring the change regenerates those, so
nobody reads them line by line, and one commit can touch hundreds of their hunks."""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import Level, Signal, SignalKind
from workbench.analysis.risk.line_compare import regenerated
from workbench.analysis.worklist.facts import HunkRef
from workbench.analysis.worklist.items import ItemKind, Worklist

SHARED_LOSS = frozenset({ItemKind.COMMIT, ItemKind.FIX_COMMIT, ItemKind.RENAME})
"""Items whose members lose the same change (a file or a lone hunk share no change)."""


def lifted(worklist: Worklist) -> frozenset[HunkRef]:
    """Medium hunks that lose lines in a high item of one change: the caller rates them high."""
    return frozenset(
        (m.path, m.hunk)
        for item in worklist.items
        if item.level is Level.HIGH and item.kind in SHARED_LOSS
        for m in item.members
        if m.hunk is not None and m.level is Level.MEDIUM and m.lost_count and not regenerated(m.path)
    )


def with_levels(worklist: Worklist, refs: frozenset[HunkRef]) -> Worklist:
    """``worklist`` with the members ``refs`` names rated high (their items are high already)."""
    items = tuple(
        replace(item, members=tuple(replace(m, level=Level.HIGH) if (m.path, m.hunk) in refs else m for m in item.members))
        if any((m.path, m.hunk) in refs for m in item.members) else item
        for item in worklist.items
    )
    return Worklist(items)


def lift_signal(weight: int) -> Signal:
    """What a lifted hunk says (``weight`` brings its risk to high)."""
    return Signal(
        SignalKind.LOST_WITH_ITS_CHANGE,
        "it loses lines of the same change as the high hunks of its item: they are restored together, "
        "so it is read with them",
        (),
        weight,
    )
