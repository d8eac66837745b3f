"""Hunks of a conflicted file, and where each one landed in the merge result.

The hunks are the conflicts of the plain merge.  To say what the result
holds for each, the result is diffed against the pure ``-X theirs`` output,
whose layout is known exactly: a hunk's lines there are main's lines, and
whatever the result has in their place is what somebody (the bot, a fix
commit, a person) decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.conflict_map import Located, locate
from workbench.analysis.model import Hunk, LineRange, Taken
from workbench.analysis.placement import MARKER, Span, place_spans, theirs_layout
from workbench.analysis.xdiff import MergeResult, split_lines

__all__ = ["Span", "build_hunks", "classify_taken", "theirs_layout"]


def build_hunks(
    merge: MergeResult, result: bytes | None, unmerged: bool = False, located: Located | None = None
) -> tuple[Hunk, ...]:
    """One Hunk per conflict, with what ``result`` holds there (None: file absent); ``located``: the hunks
    already found among git's conflict blocks in ``result`` (``locate``), for a file left ``unmerged``."""
    conflicts = merge.conflicts
    if not conflicts:
        return ()
    placed = _placed(merge, result, unmerged, located)
    hunks = []
    for index, (chunk, where) in enumerate(zip(conflicts, placed, strict=True)):
        dev_text = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]
        main_text = merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
        if where is None:
            result_range, result_text, taken = None, None, Taken.OTHER
        else:
            result_range, result_text, blocked = where
            taken = classify_taken(dev_text, main_text, result_text, blocked)
        hunks.append(
            Hunk(
                index=index,
                base=LineRange.from_slice(chunk.i0, chunk.chg0),
                dev=LineRange.from_slice(chunk.i1, chunk.chg1),
                main=LineRange.from_slice(chunk.i2, chunk.chg2),
                result=result_range,
                taken=taken,
                base_text=merge.base[chunk.i0 : chunk.i0 + chunk.chg0],
                dev_text=dev_text,
                main_text=main_text,
                result_text=result_text,
            )
        )
    return tuple(hunks)


def classify_taken(
    dev: Sequence[bytes],
    main: Sequence[bytes],
    result: Sequence[bytes],
    blocked: bool = False,
) -> Taken:
    """Which side the result's text for a hunk equals (``blocked``: it holds one of git's conflict blocks); a
    hunk someone emptied by hand in a file still conflicted holds the empty text they left (``other``)."""
    joined = b"".join(result)
    if blocked or any(MARKER.match(line) for line in result):
        return Taken.UNRESOLVED
    if joined == b"".join(main):
        return Taken.MAIN
    if joined == b"".join(dev):
        return Taken.DEV
    if joined in (*_unions(dev, main), *_unions(main, dev)):
        return Taken.BOTH
    return Taken.OTHER


def _unions(first: Sequence[bytes], second: Sequence[bytes]) -> tuple[bytes, ...]:
    """``first``'s lines then ``second``'s, as a union writes them: an unended last line of ``first`` is ended
    with the newline git's merge picks (either, here)."""
    head, tail = b"".join(first), b"".join(second)
    if not head or head.endswith(b"\n"):
        return (head + tail,)
    return head + b"\n" + tail, head + b"\r\n" + tail


Placed = tuple[LineRange, tuple[bytes, ...], bool] | None
"""Where a hunk sits in the result, the text there, and whether a conflict block of git's is in it."""


def _placed(merge: MergeResult, result: bytes | None, unmerged: bool, located: Located | None) -> list[Placed]:
    """Each conflict's place in ``result``; git's conflict blocks, in whatever style, are read as such."""
    theirs_lines, spans = theirs_layout(merge)
    if result is None:
        return [None] * len(spans)
    found = (located if located is not None else locate(result, merge)) if unmerged else None
    if found is not None:
        lines = found.text.lines
        return [
            (LineRange.from_slice(lo, hi - lo), lines[lo:hi], any(lo <= b.start < hi for b in found.text.blocks))
            for lo, hi in found.ranges
        ]
    result_lines = split_lines(result)
    dev = [merge.ours[c.i1 : c.i1 + c.chg1] for c in merge.conflicts]
    return [
        (LineRange.from_slice(lo, hi - lo), tuple(result_lines[lo:hi]), False)
        for lo, hi in place_spans(theirs_lines, spans, result_lines, dev)
    ]
