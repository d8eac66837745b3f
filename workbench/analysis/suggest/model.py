"""The records of suggested resolutions: candidates, what each keeps and drops, and the suggestion's rung."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

Source = Literal["base", "dev", "main"]


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one line of a computed resolution comes from: a line index (0-based) of the hunk's base, dev or main text."""

    source: Source
    index: int


class Take(str, Enum):
    """What a candidate writes in place of a hunk (``take`` in JSON, a ``decide --take`` name)."""

    MAIN = "main"
    DEV = "dev"
    BOTH = "both"
    """Dev's lines, then main's."""
    BOTH_MAIN_FIRST = "both-main-first"
    SPLICE = "splice"
    """Dev's lines plus main's new lines, each side's deletions kept (dev's first where both wrote)."""
    SPLICE_MAIN_FIRST = "splice-main-first"
    WORDS = "words"
    """The three texts merged word by word, where that merge is clean."""
    MAIN_FORMATTED = "main-formatted"
    """Main's lines laid out by the repository's formatter (black, isort)."""
    BOTH_FORMATTED = "both-formatted"
    """Dev's lines then main's, laid out by the repository's formatter."""

    @property
    def computed(self) -> bool:
        """A resolution whose text is not one side or a concatenation: JSON carries its ``text``."""
        return self not in _PLAIN


_PLAIN = frozenset({Take.MAIN, Take.DEV, Take.BOTH, Take.BOTH_MAIN_FIRST})


class Rung(str, Enum):
    """The evidence a suggestion stands on (``rung`` in JSON), in the order the ladder tries them."""

    MAIN_REMOVED = "main-removed"
    """A main commit deleted the base lines on purpose: main."""
    MAIN_REMOVED_INCIDENTALLY = "main-removed-incidentally"
    """Main deleted the lines while doing something else (or the result still needs them): dev."""
    SQUASH_CHAIN = "squash-chain"
    """Main's side is an older dev state, or the squash of one dev PR that dev built on since: dev."""
    MAIN_AHEAD = "main-ahead"
    """Main already contains dev's change here: main."""
    GATHERED_SQUASH = "gathered-squash"
    """Main's lines come from a squash of several dev PRs (main took dev's chain as one): main."""
    DEV_LAYOUT_ONLY = "dev-layout-only"
    """Dev only re-laid the base's code out; main changed it: main, laid out by the formatter."""
    ONE_SIDE_IS_MERGE = "one-side-is-merge"
    """The three texts merge cleanly word by word, and the merge is one side's text: that side."""


@dataclass(frozen=True, slots=True)
class SideShare:
    """What a candidate does with one side's own lines (those it wrote since the base): 0-based indexes in its hunk text."""

    kept: tuple[int, ...]
    dropped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One resolution offered for a hunk: the lines it writes and what it keeps and drops of each side."""

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
