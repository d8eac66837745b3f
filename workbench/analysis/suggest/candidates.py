"""The menu of resolutions for one conflict hunk: each side, the concatenations, the splices, the word merge,
main reflowed; every one with the exact lines it writes and what it keeps and drops of each side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from workbench.analysis.model import Candidate, SideShare, Take
from workbench.analysis.suggest.splice import Order, SideEdits, side_edits, splice
from workbench.analysis.xdiff import Edit

MENU_SIZE = 4
"""At most this many candidates are offered, best first."""


@dataclass(frozen=True, slots=True)
class HunkTexts:
    """A conflict hunk's three texts, as lines."""

    base: tuple[bytes, ...]
    dev: tuple[bytes, ...]
    main: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Reflowed:
    """Candidates' lines as the repository's formatter lays them out (None: not reflowed, or unchanged)."""

    main: tuple[bytes, ...] | None = None
    both: tuple[bytes, ...] | None = None
    checked: bool = False
    """The formatter ran over main's text here (``main`` None then means it was already laid out so)."""


@dataclass(frozen=True, slots=True)
class Edits:
    """Both sides' edits of the hunk's base, computed once per hunk."""

    dev: SideEdits
    main: SideEdits

    @classmethod
    def of(cls, texts: HunkTexts) -> Edits:
        return cls(side_edits(texts.base, texts.dev), side_edits(texts.base, texts.main))


NOTES: dict[Take, str] = {
    Take.MAIN: "main's lines",
    Take.DEV: "dev's lines",
    Take.BOTH: "dev's lines, then main's",
    Take.BOTH_MAIN_FIRST: "main's lines, then dev's",
    Take.SPLICE: "dev's lines plus main's new lines, each side's deletions kept",
    Take.SPLICE_MAIN_FIRST: "main's lines plus dev's new lines, each side's deletions kept",
    Take.WORDS: "both sides' edits, merged word by word",
    Take.MAIN_FORMATTED: "main's lines, laid out by the repository's formatter",
    Take.BOTH_FORMATTED: "dev's lines then main's, laid out by the repository's formatter",
}


def all_candidates(
    texts: HunkTexts, edits: Edits, reflowed: Reflowed = Reflowed(), words: tuple[bytes, ...] | None = None,
    limit: int | None = None,
) -> tuple[Candidate, ...]:
    """Every distinct resolution, in the order the menu prefers them (a text offered twice keeps its first name);
    ``words`` is the hunk's clean word-level merge, when it has one (``merge_words``).  ``limit``: the first
    that many only (the splices after them are never computed)."""
    kept: dict[_Keeps, tuple[SideShare, SideShare]] = {}

    def shares(keeps: _Keeps) -> tuple[SideShare, SideShare]:
        if keeps not in kept:
            lines = texts.main if keeps == "main" else texts.dev if keeps == "dev" else texts.dev + texts.main
            kept[keeps] = _shares(texts, edits, lines)
        return kept[keeps]

    seen: set[bytes] = set()
    out: list[Candidate] = []
    for take, lines, keeps in _made(texts, edits, reflowed, words):
        if limit is not None and len(out) >= limit:
            break
        text = b"".join(lines)
        if text not in seen:
            seen.add(text)
            dev, main = shares(keeps)
            out.append(Candidate(take, lines, dev, main, NOTES[take]))
    return tuple(out)


_Keeps = Literal["main", "dev", "all"]
"""What a candidate keeps of the sides' own lines: main's or dev's (a side, reflowed or not), or all of them."""


def _made(
    texts: HunkTexts, edits: Edits, reflowed: Reflowed, words: tuple[bytes, ...] | None
) -> Iterator[tuple[Take, tuple[bytes, ...], _Keeps]]:
    """Every resolution in the menu's order, each made when asked for."""
    yield Take.MAIN, texts.main, "main"
    yield Take.DEV, texts.dev, "dev"
    if reflowed.main is not None:
        yield Take.MAIN_FORMATTED, reflowed.main, "main"
    if reflowed.both is not None:
        yield Take.BOTH_FORMATTED, reflowed.both, "all"
    if words is not None:
        yield Take.WORDS, words, "all"
    scripts: dict[int, Sequence[Edit]] = {}  # both splices diff the same places where both sides wrote
    yield Take.SPLICE, spliced(texts, edits, Order.DEV_FIRST, scripts), "all"
    yield Take.SPLICE_MAIN_FIRST, spliced(texts, edits, Order.MAIN_FIRST, scripts), "all"
    yield Take.BOTH, texts.dev + texts.main, "all"
    yield Take.BOTH_MAIN_FIRST, texts.main + texts.dev, "all"


def spliced(texts: HunkTexts, edits: Edits, order: Order, scripts: dict[int, Sequence[Edit]] | None = None) -> tuple[bytes, ...]:
    """The splice's lines."""
    source = {"base": texts.base, "dev": texts.dev, "main": texts.main}
    origins = splice(texts.base, edits.dev, edits.main, order, texts.dev, texts.main, scripts)
    return tuple(source[o.source][o.index] for o in origins)


def _shares(texts: HunkTexts, edits: Edits, lines: Sequence[bytes]) -> tuple[SideShare, SideShare]:
    return _share(texts.dev, edits.dev.written, lines), _share(texts.main, edits.main.written, lines)


def _share(side: Sequence[bytes], own: Sequence[int], lines: Sequence[bytes]) -> SideShare:
    """Which of the side's own lines the text holds (each line of the text matched once)."""
    left = Counter(lines)
    kept: list[int] = []
    dropped: list[int] = []
    for index in own:
        if left[side[index]] > 0:
            left[side[index]] -= 1
            kept.append(index)
        else:
            dropped.append(index)
    return SideShare(tuple(kept), tuple(dropped))
