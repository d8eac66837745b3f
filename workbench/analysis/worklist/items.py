"""The worklist's records: items a person (or a bot) decides once, and the hunks or files they hold."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from workbench.analysis.model import Level, LineRange, LostLines, Whose


class ItemKind(str, Enum):
    """The shared cause that makes one decision decide every member of an item."""

    API_BREAK = "api-break"
    """Code the result calls or imports that the merged tree cannot satisfy (one symbol, every place)."""
    DUPLICATE_DEFINITION = "duplicate-definition"
    """A name defined twice in one scope of the result where dev and main each defined it once."""
    DELETED_FILE = "deleted-file"
    """A file main has that the result lacks."""
    POLICY = "policy"
    """A file a policy rule decides (keep dev's, take main's, a coupled group)."""
    FIX_COMMIT = "fix-commit"
    """A commit made after the sync merge (the bot's fix, a person's) that changed the result here."""
    RENAME = "rename"
    """The lost lines differ from the result only by one name replaced by another, in several places."""
    COMMIT = "commit"
    """One side's commit whose lines the result lost (a squash, its dev counterpart, or any change)."""
    WHOLE_FILE = "whole-file"
    """The resolution took, added or deleted a whole file git had merged."""
    FILE = "file"
    """Several causes confined to one file, decided together."""
    HUNK = "hunk"
    """One hunk with no cause shared with another."""
    FORMATTING = "formatting"
    """Only layout differs (what black and isort change): nothing is lost."""

    @property
    def rank(self) -> int:
        """Listing order within a level: what breaks the build first, layout last."""
        return _RANK[self]


_RANK = {kind: n for n, kind in enumerate(ItemKind)}


class Decision(str, Enum):
    """What deciding an item can do (the choices ``decide --take`` names)."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    BOTH_MAIN_FIRST = "both-main-first"
    MERGED = "merged"
    """Put back git's automatic merge where the result departs from it."""
    RESULT = "result"
    """Keep what the result holds (with a claim saying why)."""
    FILE_MAIN = "file-main"
    FILE_DEV = "file-dev"
    CUSTOM = "custom"


class Claim(str, Enum):
    """Why keeping the result is right, in a form that can be checked (``judgement`` never is).

    The claims the worklist can offer from its members' evidence; ``moved``
    (the lost lines are at a cited place of the result) is the decision's to
    make, with the place it cites.
    """

    INTENTIONAL_REMOVAL = "intentional-removal"
    SUPERSEDED = "superseded"
    POLICY = "policy"
    RESTORED = "restored"
    JUDGEMENT = "judgement"


@dataclass(frozen=True, slots=True)
class Member:
    """One hunk (``hunk`` is its index in the file's ``all_hunks``) or a whole file (``hunk`` None) of an item."""

    path: str
    hunk: int | None
    level: Level
    lost: LostLines = LostLines()
    fingerprint: str = ""
    """What the member is, independent of line numbers (its lost text, or its texts when it loses nothing)."""

    @property
    def lost_count(self) -> int:
        return _count(self.lost.dev) + _count(self.lost.main)


@dataclass(frozen=True)
class Item:
    """Findings that share one cause: decided once, each member still decidable on its own."""

    id: str
    """Stable: made from the cause (commit, path, symbol, lost text), never from line numbers."""
    kind: ItemKind
    level: Level
    why: str
    """One sentence, for people."""
    members: tuple[Member, ...]
    commits: tuple[str, ...] = ()
    """The commits behind it, the principal one first (never a commit of the sync itself)."""
    prs: tuple[int, ...] = ()
    decisions: tuple[Decision, ...] = ()
    claims: tuple[Claim, ...] = ()
    """What keeping the result (``result``) could claim, from the evidence the members carry."""
    side: Whose | None = None
    """Whose work the item loses, when one side's alone."""

    @cached_property
    def lost_dev(self) -> int:
        """Dev's lost lines over every member."""
        return sum(_count(m.lost.dev) for m in self.members)

    @cached_property
    def lost_main(self) -> int:
        return sum(_count(m.lost.main) for m in self.members)

    @property
    def paths(self) -> tuple[str, ...]:
        """Its files, in member order, once each."""
        return tuple(dict.fromkeys(m.path for m in self.members))


@dataclass(frozen=True)
class Worklist:
    """A sync's items, most important first; every hunk that needs a look is a member of exactly one."""

    items: tuple[Item, ...] = ()

    def item(self, item_id: str) -> Item | None:
        return self._by_id.get(item_id)

    def of_hunk(self, path: str, index: int) -> Item | None:
        """The item holding a file's hunk (None: the hunk is settled and needs no look)."""
        return self._by_hunk.get((path, index))

    @property
    def high(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.level is Level.HIGH)

    @cached_property
    def _by_id(self) -> dict[str, Item]:
        return {i.id: i for i in self.items}

    @cached_property
    def _by_hunk(self) -> dict[tuple[str, int], Item]:
        return {(m.path, m.hunk): i for i in self.items for m in i.members if m.hunk is not None}


def _count(ranges: tuple[LineRange, ...]) -> int:
    return sum(r.count for r in ranges if not r.empty)
