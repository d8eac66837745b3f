"""Records and equivalence classes, as xdiff prepares them.

A record is one line *including* its terminating ``\\n`` (a last line without
one is its own record, different from the same text with a newline).  Two
records are equal only when their bytes are equal; each distinct line gets a
small integer class id, so the algorithms compare ints, never bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def split_lines(data: bytes) -> list[bytes]:
    """Split on ``\\n`` only, keeping terminators (``\\r`` stays inside the line)."""
    if not data:
        return []
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


@dataclass(frozen=True, slots=True)
class Classified:
    """Two files as class ids, plus how often each class occurs in each file."""

    ids1: list[int]
    ids2: list[int]
    count1: list[int]
    count2: list[int]


def classify(lines1: Sequence[bytes], lines2: Sequence[bytes]) -> Classified:
    """Number distinct lines in order of first appearance (file 1, then file 2)."""
    table: dict[bytes, int] = {}
    ids1 = [table.setdefault(line, len(table)) for line in lines1]
    ids2 = [table.setdefault(line, len(table)) for line in lines2]
    count1 = [0] * len(table)
    count2 = [0] * len(table)
    for ident in ids1:
        count1[ident] += 1
    for ident in ids2:
        count2[ident] += 1
    return Classified(ids1, ids2, count1, count2)


def bogosqrt(n: int) -> int:
    """xdiff's integer square-root approximation (a power of two)."""
    i = 1
    while n > 0:
        n >>= 2
        i <<= 1
    return i
