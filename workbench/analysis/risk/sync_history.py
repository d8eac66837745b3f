"""Where the sync's own commits changed a file: what a file's History shows and cites beside its side's commits.

``touching_commits`` names a commit only when its version of the file differs
from every parent's, so an earlier sync merge that took main's text over
dev's is in nobody's history (its version is its second parent's), though
from dev's first-parent line it rewrote the file: the one commit that
explains the conflict.  Here every sync commit whose version differs from
its first parent's is kept, with how many lines it changed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workbench.analysis.blame import LineChanges
from workbench.analysis.model import Commit, SyncChange, Whose
from workbench.analysis.risk.sync_commits import SyncCommits
from workbench.git.types import SideHistory


def sync_changes(
    sides: Sequence[tuple[Whose, SideHistory, str]], sync: SyncCommits, commit: Callable[[str], Commit],
    line_changes: LineChanges,
) -> tuple[SyncChange, ...]:
    """The sync commits that changed the file on each side, ``(side, history, path)``, newest first per side."""
    found: list[SyncChange] = []
    for whose, history, path in sides:
        blobs = history.blobs.get(path)
        if not blobs:
            continue
        for sha in history.commits:
            reason = sync.reasons.get(sha)
            if reason is None:
                continue
            parents = history.parents.get(sha, ())
            before = blobs.get(parents[0]) if parents else None
            after = blobs.get(sha)
            if before == after:
                continue
            found.append(SyncChange(whose, commit(sha), reason, _changed(before, after, line_changes)))
    return tuple(found)


def _changed(before: str | None, after: str | None, line_changes: LineChanges) -> int:
    """Lines added plus removed between two versions (0 when one is absent: a file added or deleted whole)."""
    if before is None or after is None:
        return 0
    return sum(chg1 + chg2 for _, chg1, _, chg2 in line_changes(before, after))
