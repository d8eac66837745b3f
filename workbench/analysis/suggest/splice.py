"""Three-way splices inside one hunk: both sides' edits of the base applied together.

"Dev's lines plus main's new lines, each side's deletions kept": every base
line either side deleted or rewrote is gone, every line either side wrote is
there, and where both wrote at the same place of the base, dev's lines come
first (``Order.DEV_FIRST``) or main's (``Order.MAIN_FIRST``).  Unlike git's
``--union`` of the hunk (dev's whole block, then main's whole block), a base
line one side rewrote cannot come back through the other side's block.

Each output line carries its origin, so what a splice keeps and drops of each
side is read off the splice itself, not guessed from its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Literal

from workbench.analysis.xdiff import Algorithm, Edit, diff_lines

Source = Literal["base", "dev", "main"]


@dataclass(frozen=True, slots=True)
class Origin:
    """Where one line of a computed resolution comes from: a line index (0-based) of the hunk's base, dev or main text."""

    source: Source
    index: int


class Order(str, Enum):
    """Whose lines come first where both sides wrote at the same place."""

    DEV_FIRST = "dev-first"
    MAIN_FIRST = "main-first"


@dataclass(frozen=True, slots=True)
class SideEdits:
    """One side's edit of the base, as insertions anchored before base lines and the base lines it deleted."""

    inserted: tuple[tuple[int, ...], ...]
    """For each base position 0..len(base), the indexes of the side's lines written before that base line."""
    deleted: frozenset[int]
    """Base indexes the side deleted or rewrote."""

    @property
    def written(self) -> tuple[int, ...]:
        """Every line the side wrote, in order."""
        return tuple(i for run in self.inserted for i in run)


def side_edits(base: Sequence[bytes], side: Sequence[bytes]) -> SideEdits:
    """How ``side`` edits ``base``, by git's histogram diff."""
    return edits_of(diff_lines(base, side, Algorithm.HISTOGRAM), len(base))


def edits_of(script: Sequence[Edit], n_base: int) -> SideEdits:
    """A side's edit script as anchored insertions and deletions."""
    inserted: list[tuple[int, ...]] = [() for _ in range(n_base + 1)]
    deleted: set[int] = set()
    for i1, chg1, i2, chg2 in script:
        deleted.update(range(i1, i1 + chg1))
        if chg2:
            inserted[i1] = inserted[i1] + tuple(range(i2, i2 + chg2))
    return SideEdits(tuple(inserted), frozenset(deleted))


def splice(
    base: Sequence[bytes], dev: SideEdits, main: SideEdits, order: Order, dev_lines: Sequence[bytes], main_lines: Sequence[bytes],
    scripts: dict[int, Sequence[Edit]] | None = None,
) -> tuple[Origin, ...]:
    """The origins of the spliced lines: both sides' insertions at their anchors, base lines neither deleted.

    Where both sides write at the same place, the lines they share are written
    once (a line both added is not new to either) and the rest in ``order``.
    ``scripts`` keeps the diffs of those places for the other order's splice.
    """
    out: list[Origin] = []
    known = scripts if scripts is not None else {}
    for pos in range(len(base) + 1):
        ours, theirs = dev.inserted[pos], main.inserted[pos]
        if ours and theirs:
            out.extend(_both_wrote(ours, theirs, order, dev_lines, main_lines, known, pos))
        elif ours:
            out.extend(Origin("dev", i) for i in ours)
        elif theirs:
            out.extend(Origin("main", i) for i in theirs)
        if pos < len(base) and pos not in dev.deleted and pos not in main.deleted:
            out.append(Origin("base", pos))
    return tuple(out)


def _both_wrote(
    dev: tuple[int, ...], main: tuple[int, ...], order: Order, dev_lines: Sequence[bytes], main_lines: Sequence[bytes],
    scripts: dict[int, Sequence[Edit]], pos: int,
) -> list[Origin]:
    """Two runs written at one place (both non-empty): shared lines once (as dev's), each differing stretch dev's
    or main's first."""
    out: list[Origin] = []
    at_dev = 0
    if pos not in scripts:
        scripts[pos] = diff_lines([dev_lines[i] for i in dev], [main_lines[i] for i in main], Algorithm.HISTOGRAM)
    script = scripts[pos]
    for i1, chg1, i2, chg2 in (*script, Edit(len(dev), 0, len(main), 0)):
        out.extend(Origin("dev", dev[k]) for k in range(at_dev, i1))
        ours = [Origin("dev", dev[k]) for k in range(i1, i1 + chg1)]
        theirs = [Origin("main", main[k]) for k in range(i2, i2 + chg2)]
        out.extend(ours + theirs if order is Order.DEV_FIRST else theirs + ours)
        at_dev = i1 + chg1
    return out
