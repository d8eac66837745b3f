"""The menu of resolutions for one conflict hunk: each side, the concatenations, the splices, the word merge,
main reflowed; every one with the exact lines it writes and what it keeps and drops of each side."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.suggest.model import Candidate, SideShare, Take
from workbench.analysis.suggest.splice import Order, SideEdits, side_edits, splice

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
    texts: HunkTexts, edits: Edits, reflowed: Reflowed = Reflowed(), words: tuple[bytes, ...] | None = None
) -> tuple[Candidate, ...]:
    """Every distinct resolution, in the order the menu prefers them (a text offered twice keeps its first name);
    ``words`` is the hunk's clean word-level merge, when it has one (``merge_words``)."""
    keep_all = _shares(texts, edits, texts.dev + texts.main)
    made: list[tuple[Take, tuple[bytes, ...], tuple[SideShare, SideShare]]] = [
        (Take.MAIN, texts.main, _shares(texts, edits, texts.main)),
        (Take.DEV, texts.dev, _shares(texts, edits, texts.dev)),
    ]
    if reflowed.main is not None:
        made.append((Take.MAIN_FORMATTED, reflowed.main, _shares(texts, edits, texts.main)))
    if reflowed.both is not None:
        made.append((Take.BOTH_FORMATTED, reflowed.both, keep_all))
    if words is not None:
        made.append((Take.WORDS, words, keep_all))
    for take, order in ((Take.SPLICE, Order.DEV_FIRST), (Take.SPLICE_MAIN_FIRST, Order.MAIN_FIRST)):
        made.append((take, spliced(texts, edits, order), keep_all))
    made.append((Take.BOTH, texts.dev + texts.main, keep_all))
    made.append((Take.BOTH_MAIN_FIRST, texts.main + texts.dev, keep_all))
    seen: set[bytes] = set()
    out: list[Candidate] = []
    for take, lines, (dev, main) in made:
        text = b"".join(lines)
        if text not in seen:
            seen.add(text)
            out.append(Candidate(take, tuple(lines), dev, main, NOTES[take]))
    return tuple(out)


def spliced(texts: HunkTexts, edits: Edits, order: Order) -> tuple[bytes, ...]:
    """The splice's lines."""
    source = {"base": texts.base, "dev": texts.dev, "main": texts.main}
    origins = splice(texts.base, edits.dev, edits.main, order, texts.dev, texts.main)
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
