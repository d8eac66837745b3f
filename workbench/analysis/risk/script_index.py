"""Edit scripts looked up by line in logarithmic time, so scoring a file is not quadratic in its hunks.

A script is a tuple of ``Edit`` runs (base start, base count, side start, side count) in
file order: both the base ranges and the side ranges are sorted and do not
overlap.  Scanning the whole script for every hunk (or every dropped line)
made a file of 2,000 hunks cost millions of steps; a bisection over starts
computed once per script costs a few.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import OrderedDict

from workbench.analysis.xdiff import Edit, Script

_CACHED = 8
_starts: OrderedDict[int, tuple[Script, list[int], list[int]]] = OrderedDict()


def _keys(script: Script) -> tuple[list[int], list[int]]:
    """(base starts, side starts) of ``script``, computed once per script object.

    Keyed by identity; the entry keeps the script alive, so an id is never
    reused for another script while it is cached.
    """
    found = _starts.get(id(script))
    if found is not None and found[0] is script:
        _starts.move_to_end(id(script))
        return found[1], found[2]
    bases, sides = [e[0] for e in script], [e[2] for e in script]
    _starts[id(script)] = (script, bases, sides)
    if len(_starts) > _CACHED:
        _starts.popitem(last=False)
    return bases, sides


def side_lines(script: Script, lo: int, hi: int) -> list[int]:
    """0-based side lines in ``[lo, hi)`` that the script changes (in order)."""
    _, sides = _keys(script)
    first = bisect_left(sides, lo)
    if first > 0 and script[first - 1][2] + script[first - 1][3] > lo:
        first -= 1  # the one entry starting before lo may reach into it
    found: list[int] = []
    for k in range(first, bisect_left(sides, hi)):
        start, count = script[k][2], script[k][3]
        found.extend(range(max(lo, start), min(hi, start + count)))
    return found


def holding(script: Script, line: int) -> Edit | None:
    """The entry whose side range holds 0-based ``line``, if any (only the last entry starting at or
    before it can: the ranges are disjoint)."""
    _, sides = _keys(script)
    k = bisect_right(sides, line) - 1
    if k >= 0 and line < script[k][2] + script[k][3]:
        return script[k]
    return None


def replaces_near(script: Script, base: int, count: int) -> bool:
    """Whether the script replaces base lines overlapping ``[base, base + count)`` (``count`` > 0),
    or, for an insertion before base line ``base`` (``count`` == 0), a range strictly around it."""
    bases, _ = _keys(script)
    k = bisect_left(bases, base + count) - 1  # entries starting before the range ends (before base: an insertion)
    while k >= 0:
        other, size = script[k][0], script[k][1]
        if other + size <= base:  # disjoint and sorted: nothing earlier reaches base either
            return False
        if size:
            return True
        k -= 1
    return False
