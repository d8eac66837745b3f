"""Hunks of a conflicted file, and where each one landed in the merge result.

The hunks are the conflicts of the plain merge.  To say what the result
holds for each, the result is diffed against the pure ``-X theirs`` output,
whose layout is known exactly: a hunk's lines there are main's lines, and
whatever the result has in their place is what somebody (the bot, a fix
commit, a person) decided.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.analysis.model import Hunk, LineRange, Taken
from workbench.analysis.xdiff import Algorithm, Change, Favor, MergeResult, diff_lines, split_lines
from workbench.analysis.xdiff.result import CONFLICT

_MARKER = re.compile(rb"^(<{7}|>{7})( |\r?\n|$)")
_SEPARATOR = re.compile(rb"^(={7}|\|{7})( |\r?\n|$)")


@dataclass(frozen=True, slots=True)
class Span:
    """Where a hunk's text sits in a rendered file: 0-based start, line count."""

    start: int
    count: int


def theirs_layout(merge: MergeResult) -> tuple[list[bytes], list[Span]]:
    """The pure ``-X theirs`` lines and each conflict's span in them."""
    rendered = split_lines(merge.render(Favor.THEIRS))
    spans: list[Span] = []
    if merge.whole is not None:
        return rendered, spans
    line = 0
    pos = 0
    for chunk in merge.chunks:
        if chunk.mode == CONFLICT:
            line += chunk.i1 - pos
            spans.append(Span(line, chunk.chg2))
            line += chunk.chg2
        elif chunk.mode in (1, 2):
            line += chunk.i1 - pos
            line += chunk.chg1 if chunk.mode == 1 else chunk.chg2
        else:
            continue
        pos = chunk.i1 + chunk.chg1
    return rendered, spans


def build_hunks(merge: MergeResult, result: bytes | None, unmerged: bool = False) -> tuple[Hunk, ...]:
    """One Hunk per conflict, with what ``result`` holds there (None: file absent)."""
    conflicts = merge.conflicts
    if not conflicts:
        return ()
    theirs_lines, spans = theirs_layout(merge)
    own = [set(merge.ours[c.i1 : c.i1 + c.chg1]) for c in conflicts]
    placed = _place(theirs_lines, spans, result, own)
    hunks = []
    for index, (chunk, where) in enumerate(zip(conflicts, placed, strict=True)):
        dev_text = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]
        main_text = merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
        if where is None:
            result_range, result_text, taken = None, None, Taken.OTHER
        else:
            result_range, result_text = where
            taken = classify_taken(dev_text, main_text, result_text, unmerged)
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
    dev: Sequence[bytes], main: Sequence[bytes], result: Sequence[bytes], unmerged: bool = False
) -> Taken:
    """Which side the result's text for a hunk equals."""
    joined = b"".join(result)
    if any(_MARKER.match(line) for line in result):
        return Taken.UNRESOLVED
    if joined == b"".join(main):
        return Taken.MAIN
    if joined == b"".join(dev):
        return Taken.DEV
    dev_b, main_b = _with_newline(dev), _with_newline(main)
    if joined in (dev_b + b"".join(main), main_b + b"".join(dev)):
        return Taken.BOTH
    return Taken.UNRESOLVED if unmerged and not joined else Taken.OTHER


def _with_newline(lines: Sequence[bytes]) -> bytes:
    data = b"".join(lines)
    if data and not data.endswith(b"\n"):
        data += b"\r\n" if b"\r\n" in data else b"\n"
    return data


def _place(
    theirs_lines: list[bytes],
    spans: list[Span],
    result: bytes | None,
    own: list[set[bytes]] | None = None,
) -> list[tuple[LineRange, tuple[bytes, ...]] | None]:
    """Map each span of the ``-X theirs`` output into the result.

    A region the result changed inside a span belongs to the hunk.  Lines
    the result *inserted* right at a span's edge belong to it only when they
    are its own material (dev's lines of the hunk, or conflict markers), as
    when dev's text was kept before main's; any other line inserted there
    (a maintainer's fix next to the hunk) stays outside, so deciding the
    hunk never deletes it.
    """
    if result is None:
        return [None] * len(spans)
    result_lines = split_lines(result)
    if result_lines == theirs_lines:
        return [
            (LineRange.from_slice(s.start, s.count), tuple(result_lines[s.start : s.start + s.count]))
            for s in spans
        ]
    script = diff_lines(theirs_lines, result_lines, Algorithm.MYERS)
    placed: list[tuple[LineRange, tuple[bytes, ...]] | None] = []
    for k, span in enumerate(spans):
        material = own[k] if own is not None else set()

        def absorbs(change: Change, material: set[bytes] = material) -> bool:
            inserted = result_lines[change.i2 : change.i2 + change.chg2]
            return all(line in material or _MARKER.match(line) or _SEPARATOR.match(line) for line in inserted)

        lo = _map_start(script, span.start, absorbs)
        hi = max(_map_end(script, span.start + span.count, absorbs), lo)
        placed.append((LineRange.from_slice(lo, hi - lo), tuple(result_lines[lo:hi])))
    return placed


def _map_start(script: Sequence[Change], pos: int, absorbs: Callable[[Change], bool]) -> int:
    """Result index for the start of a span, widened over edits that belong to it."""
    shift = 0
    for change in script:
        if change.i1 > pos:
            break
        inside = change.i1 <= pos < change.i1 + change.chg1
        if inside or (change.chg1 == 0 and change.i1 == pos and absorbs(change)):
            return change.i2
        if change.i1 + change.chg1 <= pos:
            shift = (change.i2 + change.chg2) - (change.i1 + change.chg1)
    return pos + shift


def _map_end(script: Sequence[Change], pos: int, absorbs: Callable[[Change], bool]) -> int:
    """Result index for the (exclusive) end of a span, widened likewise."""
    shift = 0
    for change in script:
        if change.i1 > pos:
            break
        inside = change.i1 < pos <= change.i1 + change.chg1
        at_edge = change.chg1 == 0 and change.i1 == pos
        if inside or (at_edge and absorbs(change)):
            return change.i2 + change.chg2
        if at_edge:
            break  # lines inserted just after the span stay outside it
        shift = (change.i2 + change.chg2) - (change.i1 + change.chg1)
    return pos + shift
