"""Change-group compaction and edit-script building, as xdiff does them.

After the search, each group of changed lines is slid up and down over lines
equal to it, merged with neighbouring groups it bumps into, and finally
parked where it lines up with a change on the other side (or as low as it
goes).  This is what makes git's hunks start and end where they do.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.git.types import Edit

Rediff = Callable[[int, int, int, int], None]


@dataclass(slots=True)
class _Group:
    """A run [start, end) of changed lines; empty when start == end."""

    start: int
    end: int


class _Side:
    """One file's changed flags with sentinels, and its class ids."""

    __slots__ = ("flags", "ids", "n")

    def __init__(self, flags: bytearray, ids: Sequence[int]) -> None:
        self.n = len(ids)
        self.ids = ids
        self.flags = flags

    def changed(self, i: int) -> bool:
        return 0 <= i < self.n and self.flags[i] == 1

    def first_group(self) -> _Group:
        g = _Group(0, 0)
        while self.changed(g.end):
            g.end += 1
        return g

    def next_group(self, g: _Group) -> bool:
        if g.end == self.n:
            return False
        g.start = g.end + 1
        g.end = g.start
        while self.changed(g.end):
            g.end += 1
        return True

    def previous_group(self, g: _Group) -> bool:
        if g.start == 0:
            return False
        g.end = g.start - 1
        g.start = g.end
        while self.changed(g.start - 1):
            g.start -= 1
        return True

    def slide_down(self, g: _Group) -> bool:
        if g.end < self.n and self.ids[g.start] == self.ids[g.end]:
            self.flags[g.start] = 0
            g.start += 1
            self.flags[g.end] = 1
            g.end += 1
            while self.changed(g.end):
                g.end += 1
            return True
        return False

    def slide_up(self, g: _Group) -> bool:
        if g.start > 0 and self.ids[g.start - 1] == self.ids[g.end - 1]:
            g.start -= 1
            self.flags[g.start] = 1
            g.end -= 1
            self.flags[g.end] = 0
            while self.changed(g.start - 1):
                g.start -= 1
            return True
        return False


class CompactionError(RuntimeError):
    """The two files' change groups fell out of step (a bug, never input)."""


def change_compact(
    flags: bytearray,
    ids: Sequence[int],
    other_flags: bytearray,
    other_ids: Sequence[int],
    rediff: Rediff | None = None,
) -> None:
    """Slide and merge the change groups of one file, keeping the other in step.

    ``rediff(start, count, other_start, other_count)`` re-diffs a group that
    grew while sliding (git >= 2.54 does this for histogram diffs).
    """
    side, other = _Side(flags, ids), _Side(other_flags, other_ids)
    g, go = side.first_group(), other.first_group()
    other_zeros = _unchanged_positions(other_flags)
    while True:
        if g.end != g.start:
            original = (g.start, g.end)
            while True:
                groupsize = g.end - g.start
                end_matching_other = -1
                while side.slide_up(g):
                    _require(other.previous_group(go))
                earliest_end = g.end
                if go.end > go.start:
                    end_matching_other = g.end
                while side.slide_down(g):
                    _require(other.next_group(go))
                    if go.end > go.start:
                        end_matching_other = g.end
                if groupsize == g.end - g.start:
                    break
            if g.end != earliest_end and end_matching_other != -1:
                while go.end == go.start:
                    _require(side.slide_up(g))
                    _require(other.previous_group(go))
            if (
                rediff is not None
                and go.end != go.start
                and (g.start, g.end) != original
            ):
                rediff(g.start, g.end - g.start, go.start, go.end - go.start)
                other_zeros = _unchanged_positions(other_flags)
        if not _skip_to_next_change(side, g, other, go, other_zeros):
            break


def _skip_to_next_change(
    side: _Side, g: _Group, other: _Side, go: _Group, other_zeros: list[int]
) -> bool:
    """Advance both files to the next non-empty group of ``side``.

    Equivalent to calling next_group on both once per unchanged line (what
    git does): each step crosses one unchanged line, and the k-th unchanged
    line of one file pairs with the k-th of the other.  Jumping by that
    count keeps a long file with few changes to a handful of steps.
    """
    if g.end == side.n:
        if go.end != other.n:
            raise CompactionError("group sync broken at end of file")
        return False
    change = side.flags.find(1, g.end + 1)
    target = side.n if change == -1 else change
    ordinal = bisect_left(other_zeros, go.end) + (target - g.end)
    if change == -1:
        if ordinal < len(other_zeros):
            raise CompactionError("group sync broken at end of file")
        return False
    g.start = change
    end = side.flags.find(0, change)
    g.end = side.n if end == -1 else end
    go.start = other_zeros[ordinal - 1] + 1
    go.end = other_zeros[ordinal] if ordinal < len(other_zeros) else other.n
    return True


def _unchanged_positions(flags: bytearray) -> list[int]:
    return [i for i, flag in enumerate(flags) if not flag]


def _require(ok: bool) -> None:
    if not ok:
        raise CompactionError("group sync broken")


def build_script(rchg1: bytearray, rchg2: bytearray) -> list[Edit]:
    """Collect changed runs into an edit script, first to last."""
    n1, n2 = len(rchg1), len(rchg2)
    script: list[Edit] = []
    i1, i2 = n1, n2
    while i1 >= 0 or i2 >= 0:
        if (i1 >= 1 and rchg1[i1 - 1]) or (i2 >= 1 and rchg2[i2 - 1]):
            l1 = i1
            while i1 >= 1 and rchg1[i1 - 1]:
                i1 -= 1
            l2 = i2
            while i2 >= 1 and rchg2[i2 - 1]:
                i2 -= 1
            script.append(Edit(i1, l1 - i1, i2, l2 - i2))
        i1 -= 1
        i2 -= 1
    script.reverse()
    return script
