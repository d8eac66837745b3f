"""A merge's three line lists packed into one buffer, for merges that are kept.

A sync's analysis keeps every file's merge model until its last stage (and
the app and the cache keep it after). As tuples of ``bytes`` each distinct
line costs a Python object (33 bytes before its text) and each version a
pointer per line; pickled back from the forked worker it is an object per
line to rebuild. Packed, the distinct lines of the three versions are one
``bytes`` with their offsets, and each version is an array of line numbers
into it: a third to a half of the memory, and a few objects to pickle. A line
read from it is a new ``bytes`` slice, equal to the original one.

The first version is laid out whole, in order (its repeated lines too), so a
run of its lines is one slice of the pool: a merge renders mostly runs of
ours' lines, at the speed of the tuples it replaces.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload

_SMALL = 2**32
"""Offsets and line numbers below this fit four bytes (array code ``I``)."""


class Lines(Sequence[bytes]):
    """One version's lines: ``ids`` index the lines held in ``pool`` at ``starts`` (a range: laid out in order)."""

    __slots__ = ("_ids", "_pool", "_starts")

    def __init__(self, pool: bytes, starts: array[int], ids: array[int] | range) -> None:
        self._pool = pool
        self._starts = starts
        self._ids = ids

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, index: int) -> bytes: ...

    @overload
    def __getitem__(self, index: slice) -> Lines: ...

    def __getitem__(self, index: int | slice) -> bytes | Lines:
        if isinstance(index, slice):  # a hunk's lines: the same pool, pickled once with the merge
            return Lines(self._pool, self._starts, self._ids[index])
        ident = self._ids[index]
        return self._pool[self._starts[ident] : self._starts[ident + 1]]

    def join(self, start: int, stop: int) -> bytes:
        """``b"".join(self[start:stop])``, a slice of the pool per run of lines laid out in order."""
        run = self._ids[start:stop]
        if not run:
            return b""
        pool, starts = self._pool, self._starts
        if isinstance(run, range) and run.step == 1:
            return pool[starts[run.start] : starts[run.stop]]
        parts = []
        first = last = run[0]
        for ident in run[1:]:
            if ident != last + 1:
                parts.append(pool[starts[first] : starts[last + 1]])
                first = ident
            last = ident
        parts.append(pool[starts[first] : starts[last + 1]])
        return b"".join(parts)

    def __iter__(self) -> Iterator[bytes]:
        pool, starts = self._pool, self._starts
        return (pool[starts[i] : starts[i + 1]] for i in self._ids)

    def __eq__(self, other: object) -> bool:
        """Equal to any sequence of the same lines (a tuple of them included), as the tuple it replaces was."""
        if (isinstance(other, Lines) and other._pool is self._pool and other._starts is self._starts
                and isinstance(other._ids, array) and isinstance(self._ids, array)):
            return other._ids == self._ids  # one number per distinct line, outside the first version
        if not isinstance(other, Sequence) or isinstance(other, (bytes, str)):
            return NotImplemented
        return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Lines({tuple(self)!r})"

    def __reduce__(self) -> tuple[type[Lines], tuple[bytes, array[int], array[int] | range]]:
        # pickle keeps one copy of the pool and offsets the three versions share
        return (Lines, (self._pool, self._starts, self._ids))


def joined(lines: Sequence[bytes], start: int = 0, stop: int | None = None) -> bytes:
    """``b"".join(lines[start:stop])``: for packed lines without a ``bytes`` per line."""
    if isinstance(lines, Lines):
        return lines.join(start, len(lines) if stop is None else stop)
    return b"".join(lines[start:stop])


def pack(versions: Sequence[Sequence[bytes]]) -> tuple[Lines, ...]:
    """The versions as ``Lines`` over one pool: the first version whole, then the other versions' lines it lacks."""
    first = versions[0] if versions else ()
    pieces = list(first)
    table = dict(zip(reversed(pieces), range(len(pieces) - 1, -1, -1), strict=True))  # a line's first place wins
    numbered = [_numbers(version, table, pieces) for version in versions[1:]]
    pool = b"".join(pieces)
    code = "I" if len(pool) < _SMALL and len(pieces) < _SMALL else "Q"
    starts = array(code, [0])
    starts.extend(accumulate(map(len, pieces)))
    packed = [Lines(pool, starts, array(code, ids)) for ids in numbered]
    return tuple([Lines(pool, starts, range(len(first))), *packed][: len(versions)])


def _numbers(version: Sequence[bytes], table: dict[bytes, int], pieces: list[bytes]) -> list[int]:
    """Each line's number in ``table``; the lines not in it are added to ``pieces`` (and numbered) first, in order."""
    for line in [line for line in dict.fromkeys(version) if line not in table]:
        table[line] = len(pieces)
        pieces.append(line)
    return list(map(table.__getitem__, version))
