"""Members that share a high item's loss are high too: a medium hunk losing lines of a commit whose other lost
lines are high (its comments, a one-line default) is restored with them, so it is read with them."""

from __future__ import annotations

from workbench.analysis.model import Level
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
        if m.hunk is not None and m.level is Level.MEDIUM and m.lost_count
    )
