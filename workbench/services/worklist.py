"""The worklist as the app walks it: which items are still open, where an item starts, the next item to look at.

Pure queries over a ``Workspace`` (no Textual), so the app's moves by item
(``N``/``P``, ``o``/``O``), its counters and its list of items are tested
without an App.  A member is decided when its hunk has a decision in the
session or its file a whole-file choice; an item is open while a member is
not.  The worklist's order (most important first) is the walking order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from workbench.analysis.model import Level, LineRange
from workbench.analysis.worklist import Item, ItemKind, Member
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision
from workbench.services.workspace import Position, Workspace
from workbench.wording import plural


class ItemFilter(str, Enum):
    """Which items the app's worklist shows (``open`` first, the default)."""

    OPEN = "open"
    """Items with a member still undecided."""
    ALL = "all"
    LATER = "later"
    """Items a commit after the merge changed (``--result`` later than the merge)."""

    def next(self) -> ItemFilter:
        members = list(ItemFilter)
        return members[(members.index(self) + 1) % len(members)]


FILTER_WORDS = {ItemFilter.OPEN: "still open", ItemFilter.ALL: "all", ItemFilter.LATER: "changed after the merge"}


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item as the app lists it."""

    item: Item
    undecided: tuple[Member, ...]
    """Members without a decision yet, in member order."""
    later: bool
    """A member's file was changed by a commit after the merge (or the item is that commit's)."""

    @property
    def open(self) -> bool:
        return bool(self.undecided)


def items(ws: Workspace) -> tuple[Item, ...]:
    """The sync's items, most important first (none before the worklist stage ran, or in a quiz)."""
    worklist = ws.analysis.worklist
    if worklist is None or ws.scope.restricted:
        return ()
    return worklist.items


def reachable(ws: Workspace, member: Member) -> bool:
    """The member's file is one of the sync's (an API break can name a file git merged cleanly: the app cannot
    show it, the item stays open until the file is fixed outside the app)."""
    return ws.analysis.file(member.path) is not None


def member_decided(ws: Workspace, member: Member) -> bool:
    """A hunk with a decision; a whole-file member with a whole-file choice, or every hunk of its file decided."""
    if ws.session.file_choice(member.path) is not None:
        return True
    if member.hunk is not None:
        return ws.session.decision(member.path, member.hunk) is not None
    entry = ws.analysis.file(member.path)
    return entry is not None and bool(entry.all_hunks) and all(
        ws.session.decision(member.path, h.index) is not None for h in entry.all_hunks)


def undecided_members(ws: Workspace, item: Item) -> tuple[Member, ...]:
    return tuple(m for m in item.members if not member_decided(ws, m))


def item_rows(ws: Workspace, only: ItemFilter = ItemFilter.ALL) -> tuple[ItemRow, ...]:
    """The items ``only`` keeps, in the worklist's order."""
    later = {f.path for f in ws.files if f.later}
    rows = (ItemRow(item, undecided_members(ws, item),
                    item.kind is ItemKind.FIX_COMMIT or any(m.path in later for m in item.members))
            for item in items(ws))
    if only is ItemFilter.OPEN:
        return tuple(r for r in rows if r.open)
    if only is ItemFilter.LATER:
        return tuple(r for r in rows if r.later)
    return tuple(rows)


def counts(ws: Workspace) -> tuple[int, int, int]:
    """Items open, open high items, and items in all."""
    found = items(ws)
    still = [i for i in found if undecided_members(ws, i)]
    return len(still), sum(1 for i in still if i.level is Level.HIGH), len(found)


def item_at(ws: Workspace, here: Position | None) -> Item | None:
    """The item holding the hunk (or the whole-file member) at ``here``."""
    if here is None:
        return None
    worklist = ws.analysis.worklist
    if worklist is None or ws.scope.restricted:
        return None
    if here.hunk is not None:
        return worklist.of_hunk(here.path, here.hunk)
    return next((i for i in worklist.items if any(m.path == here.path and m.hunk is None for m in i.members)), None)


def member_position(member: Member) -> Position:
    """Where a member is shown: its hunk, or its file (its opening hunk when it has hunks)."""
    return Position(member.path, member.hunk)


def start_of(ws: Workspace, item: Item) -> Position | None:
    """Where an item is read from: its first undecided member, else its first member, of the sync's files (None:
    every member is in a file the sync does not list)."""
    shown = [m for m in item.members if reachable(ws, m)]
    waiting = [m for m in shown if not member_decided(ws, m)]
    return member_position((waiting or shown)[0]) if shown else None


def next_item(ws: Workspace, current: Item | None, delta: int, high_only: bool) -> Item | None:
    """The next (``delta`` -1: previous) open item after ``current`` (from the top without one), high items only
    when ``high_only``, wrapping around; None when no other item is open."""
    found = items(ws)
    if not found:
        return None
    start = found.index(current) if current in found else (-1 if delta > 0 else len(found))
    for k in range(1, len(found) + 1):
        candidate = found[(start + delta * k) % len(found)]
        if candidate is current or (high_only and candidate.level is not Level.HIGH):
            continue
        if any(reachable(ws, m) for m in undecided_members(ws, candidate)):
            return candidate
    return None


def next_in_item(ws: Workspace, current: Item | None, here: Position | None) -> Position | None:
    """The next undecided member of ``current`` after ``here`` (after a decision: the item's rest first)."""
    if current is None or here is None:
        return None
    members = current.members
    at = next((k for k, m in enumerate(members) if (m.path, m.hunk) == (here.path, here.hunk)), -1)
    for member in (*members[at + 1:], *members[:max(at, 0)]):
        if reachable(ws, member) and not member_decided(ws, member):
            return member_position(member)
    return None


# -- words (plain strings, escaped by the front end) -----------------------------------------------------------


def state_words(ws: Workspace, item: Item) -> str:
    """``open``, ``3 of 5 undecided`` or ``decided``."""
    waiting = len(undecided_members(ws, item))
    if not waiting:
        return "decided"
    return "open" if waiting == len(item.members) else f"{waiting} of {len(item.members)} undecided"


def ranges_words(ranges: Sequence[LineRange], whose: str) -> str:
    """``main's lines 12-14, 20`` or ``nothing of main's``."""
    shown = [r for r in ranges if not r.empty]
    if not shown:
        return f"nothing of {whose}'s"
    where = ", ".join(str(r.start) if r.start == r.end else f"{r.start}-{r.end}" for r in shown)
    one = len(shown) == 1 and shown[0].count == 1
    return f"{sum(r.count for r in shown)} of {whose}'s ({'line' if one else 'lines'} {where})"


# -- deciding an item once -----------------------------------------------------------------------------------


def item_targets(ws: Workspace, item: Item, choice: Choice) -> tuple[list[tuple[str, int]], int]:
    """The undecided member hunks ``choice`` can decide, in member order, and how many undecided members it
    cannot (a whole-file member; git's merge or the result on one of git's conflicts; a merge not known)."""
    targets: list[tuple[str, int]] = []
    skipped = 0
    for member in undecided_members(ws, item):
        if member.hunk is None or not _takes(ws, member.path, member.hunk, choice):
            skipped += 1
        else:
            targets.append((member.path, member.hunk))
    return targets, skipped


def _takes(ws: Workspace, path: str, index: int, choice: Choice) -> bool:
    if choice in EDIT_ONLY and not ws.is_edit(path, index):
        return choice is Choice.RESULT and ws.keeps_result(path, index)
    return choice is not Choice.MERGED or ws.hunk(path, index).merged_text is not None


def decide_item(ws: Workspace, item: Item, choice: Choice) -> tuple[list[tuple[str, int]], int]:
    """Decide every undecided member ``choice`` can as ONE event (one undo); returns them and the skipped count."""
    targets, skipped = item_targets(ws, item, choice)
    if targets:
        files = len({path for path, _ in targets})
        where = f" in {plural(files, 'file')}" if files > 1 else ""
        label = f"{choice.value} for item {item.id} ({plural(len(targets), 'hunk')}{where})"
        ws.decide_each([(path, index, Decision(choice)) for path, index in targets], (), label)
    return targets, skipped
