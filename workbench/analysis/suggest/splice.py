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

from workbench.analysis.suggest.model import Origin
from workbench.analysis.xdiff import Algorithm, Edit, diff_lines


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
    base: Sequence[bytes], dev: SideEdits, main: SideEdits, order: Order, dev_lines: Sequence[bytes], main_lines: Sequence[bytes]
) -> tuple[Origin, ...]:
    """The origins of the spliced lines: both sides' insertions at their anchors, base lines neither deleted.

    Where both sides write at the same place, the lines they share are written
    once (a line both added is not new to either) and the rest in ``order``.
    """
    out: list[Origin] = []
    for pos in range(len(base) + 1):
        out.extend(_both_wrote(dev.inserted[pos], main.inserted[pos], order, dev_lines, main_lines))
        if pos < len(base) and pos not in dev.deleted and pos not in main.deleted:
            out.append(Origin("base", pos))
    return tuple(out)


def _both_wrote(
    dev: tuple[int, ...], main: tuple[int, ...], order: Order, dev_lines: Sequence[bytes], main_lines: Sequence[bytes]
) -> list[Origin]:
    """Two runs written at one place: shared lines once (as dev's), each differing stretch dev's or main's first."""
    if not dev or not main:
        return [Origin("dev", i) for i in dev] + [Origin("main", i) for i in main]
    out: list[Origin] = []
    at_dev = 0
    script = diff_lines([dev_lines[i] for i in dev], [main_lines[i] for i in main], Algorithm.HISTOGRAM)
    for i1, chg1, i2, chg2 in (*script, Edit(len(dev), 0, len(main), 0)):
        out.extend(Origin("dev", dev[k]) for k in range(at_dev, i1))
        ours = [Origin("dev", dev[k]) for k in range(i1, i1 + chg1)]
        theirs = [Origin("main", main[k]) for k in range(i2, i2 + chg2)]
        out.extend(ours + theirs if order is Order.DEV_FIRST else theirs + ours)
        at_dev = i1 + chg1
    return out
