"""Each hunk's cause: the first rule that explains it, in the order a reviewer should decide them.

1. an API-audit finding in the hunk (one item per symbol, across files);
2. a duplicate definition the merge made in it;
3. a policy rule on the file (one item per rule and file);
4. a commit after the sync merge that wrote the result there;
5. layout only (nothing lost: the same tokens are in the result);
6. a name swapped for another in several hunks (a rename);
7. the side commit whose lines it lost: a squash's, else the lost lines' newest writer
   that is not a commit of the sync itself, on the side that lost more;
8. a whole-file take of a file git merged;
9. the hunk itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import (
    ApiMismatch,
    FileAnalysis,
    FileStatus,
    Hunk,
    Level,
    LineRange,
    SignalKind,
    SyncAnalysis,
    Taken,
    Whose,
)
from workbench.analysis.worklist.facts import DuplicateDefinition, HunkRef, WorklistFacts
from workbench.analysis.worklist.identity import fingerprint
from workbench.analysis.worklist.items import ItemKind
from workbench.analysis.worklist.renames import Swap, swaps

POLICY_RULES = ("keep-dev", "override-from-main", "coupled")
"""Rules that decide a file (``note`` only advises)."""
WHOLE_FILE = frozenset(
    {FileStatus.TOOK_DEV_FILE, FileStatus.TOOK_MAIN_FILE, FileStatus.RESOLUTION_ADDED, FileStatus.RESOLUTION_DELETED}
)
LOSS: dict[SignalKind, Whose] = {
    SignalKind.DEV_ONLY_LINES_DROPPED: "dev",
    SignalKind.RESOLUTION_DROPPED_DEV: "dev",
    SignalKind.MAIN_ONLY_LINES_DROPPED: "main",
    SignalKind.RESOLUTION_DROPPED_MAIN: "main",
}
"""Signals whose commits are the writers of the lines a side lost, newest first."""
MIN_RENAME_HUNKS = 2
"""A swap explaining fewer hunks is that hunk's business, not a rename."""


@dataclass(frozen=True, slots=True)
class Cause:
    """Why a hunk needs a look, as the key of the item it joins."""

    kind: ItemKind
    key: tuple[str, ...]
    side: Whose | None = None
    """Whose lines it loses, when one side's alone."""
    commit: str | None = None
    """The commit the item is about, when it is about one."""


def lost_count(ranges: Sequence[LineRange]) -> int:
    return sum(r.count for r in ranges if not r.empty)


def losing_side(hunk: Hunk) -> Whose | None:
    """The side whose lines the hunk loses, when only one side's are lost."""
    dev, main = lost_count(hunk.lost_lines.dev), lost_count(hunk.lost_lines.main)
    if dev and not main:
        return "dev"
    if main and not dev:
        return "main"
    return None


def needs_look(hunk: Hunk, ref: HunkRef, facts: WorklistFacts) -> bool:
    """Whether a hunk belongs to an item: undecided, losing lines, rated above low, or losing layout only."""
    return (
        hunk.taken is Taken.UNRESOLVED
        or hunk.level.rank > 0
        or bool(hunk.lost_lines.dev or hunk.lost_lines.main)
        or ref in facts.layout_only
    )


class Causes:
    """The sync-wide tables the rules consult (findings by hunk, swaps and how many hunks each explains)."""

    def __init__(self, analysis: SyncAnalysis, facts: WorklistFacts) -> None:
        self.facts = facts
        self.mismatches: dict[HunkRef, list[ApiMismatch]] = {}
        for m in analysis.api_mismatches:
            if m.hunk is not None:
                self.mismatches.setdefault((m.path, m.hunk), []).append(m)
        self.duplicates: dict[str, list[DuplicateDefinition]] = {}
        for d in facts.duplicates:
            self.duplicates.setdefault(d.path, []).append(d)
        self.swaps: dict[HunkRef, frozenset[Swap]] = {}
        for entry in analysis.files:
            for hunk in entry.all_hunks:
                side = losing_side(hunk)
                if side is not None and hunk.result_text is not None:
                    text = hunk.dev_text if side == "dev" else hunk.main_text
                    found = swaps(text, hunk.result_text)
                    if found:
                        self.swaps[(entry.path, hunk.index)] = found
        self.swap_hunks = Counter(s for found in self.swaps.values() for s in found)

    def flagged(self, entry: FileAnalysis, hunk: Hunk) -> bool:
        """Whether a finding outside the hunk's own rating (an API failure, a duplicate) puts it in an item."""
        return (entry.path, hunk.index) in self.mismatches or self.duplicate_in(entry, hunk) is not None

    def of(self, entry: FileAnalysis, hunk: Hunk) -> Cause:
        ref = (entry.path, hunk.index)
        return (
            self._api(ref)
            or self.duplicate_in(entry, hunk)
            or _policy(entry, hunk)
            or self._fixed(ref, hunk)
            or self._layout(ref, hunk)
            or self._rename(ref)
            or self._commit(hunk)
            or _whole_file(entry, hunk)
            or Cause(ItemKind.HUNK, (entry.path, fingerprint(entry.path, hunk)), losing_side(hunk))
        )

    def _api(self, ref: HunkRef) -> Cause | None:
        found = self.mismatches.get(ref)
        if not found:
            return None
        return api_cause(found[0])

    def duplicate_in(self, entry: FileAnalysis, hunk: Hunk) -> Cause | None:
        """The duplicate definition a hunk's result lines hold, if any."""
        if hunk.result is None:
            return None
        for d in self.duplicates.get(entry.path, ()):
            if any(hunk.result.start <= line <= max(hunk.result.start, hunk.result.end) for line in d.lines):
                return duplicate_cause(d)
        return None

    def _fixed(self, ref: HunkRef, hunk: Hunk) -> Cause | None:
        sha = self.facts.fixed_by.get(ref)
        if sha is None:
            return None
        return Cause(ItemKind.FIX_COMMIT, (sha,), losing_side(hunk), sha)

    def _layout(self, ref: HunkRef, hunk: Hunk) -> Cause | None:
        layout = ref in self.facts.layout_only and hunk.level is not Level.HIGH  # high for another reason: not layout
        if layout and not hunk.lost_lines.dev and not hunk.lost_lines.main:
            return Cause(ItemKind.FORMATTING, ())
        return None

    def _rename(self, ref: HunkRef) -> Cause | None:
        found = self.swaps.get(ref)
        if not found:
            return None
        best = max(sorted(found), key=lambda s: self.swap_hunks[s])
        if self.swap_hunks[best] < MIN_RENAME_HUNKS:
            return None
        return Cause(ItemKind.RENAME, best)

    def _commit(self, hunk: Hunk) -> Cause | None:
        sync = self.facts.sync_commits
        for signal in hunk.signals:
            if signal.kind is SignalKind.SQUASH_COUNTERPART and signal.commits and signal.commits[0] not in sync:
                return Cause(ItemKind.COMMIT, ("squash", signal.commits[0]), "dev", signal.commits[0])
        dev, main = lost_count(hunk.lost_lines.dev), lost_count(hunk.lost_lines.main)
        for side in (("dev", "main") if dev >= main else ("main", "dev")):
            if not (dev if side == "dev" else main):
                continue
            for signal in hunk.signals:
                if LOSS.get(signal.kind) != side:
                    continue
                for sha in signal.commits:
                    if sha not in sync:
                        return Cause(ItemKind.COMMIT, (side, sha), losing_side(hunk), sha)
        return None


def api_cause(m: ApiMismatch) -> Cause:
    """One item per symbol and kind of failure, wherever it occurs."""
    return Cause(ItemKind.API_BREAK, (m.kind, m.symbol), None, m.commits[0] if m.commits else None)


def duplicate_cause(d: DuplicateDefinition) -> Cause:
    return Cause(ItemKind.DUPLICATE_DEFINITION, (d.path, d.scope, d.name))


def policy_cause(rule: str, path: str) -> Cause:
    return Cause(ItemKind.POLICY, (rule, path))


def _policy(entry: FileAnalysis, hunk: Hunk) -> Cause | None:
    if entry.policy not in POLICY_RULES:
        return None
    return Cause(ItemKind.POLICY, (entry.policy, entry.path), losing_side(hunk))


def _whole_file(entry: FileAnalysis, hunk: Hunk) -> Cause | None:
    if entry.status not in WHOLE_FILE:
        return None
    return Cause(ItemKind.WHOLE_FILE, (entry.status.value, entry.path), losing_side(hunk))
