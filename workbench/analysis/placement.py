"""Where each conflict of the model sits in a file: the ``-X theirs`` layout, mapped by a diff.

The pure ``-X theirs`` output has a known layout (each conflict's span holds
main's lines); diffing it against another file (the result, or the work
tree's conflict text with its blocks projected to main's side) carries every
span over.  Shared by the hunk builder and the reading of the work tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from workbench.analysis.xdiff import Algorithm, ChunkMode, Edit, Favor, MergeResult, diff_lines, split_lines

MARKER = re.compile(rb"^(<{7}|>{7})( |\r?\n|$)")
SEPARATOR = re.compile(rb"^(={7}|\|{7})( |\r?\n|$)")


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
        if chunk.mode is ChunkMode.CONFLICT:
            line += chunk.i1 - pos
            spans.append(Span(line, chunk.chg2))
            line += chunk.chg2
        elif chunk.mode is ChunkMode.OURS_ONLY or chunk.mode is ChunkMode.THEIRS_ONLY:
            line += chunk.i1 - pos
            line += chunk.chg1 if chunk.mode is ChunkMode.OURS_ONLY else chunk.chg2
        else:
            continue
        pos = chunk.i1 + chunk.chg1
    return rendered, spans


def place_spans(
    theirs_lines: Sequence[bytes],
    spans: Sequence[Span],
    result_lines: Sequence[bytes],
    own: Sequence[set[bytes]] | None = None,
) -> list[tuple[int, int]]:
    """Map each span of the ``-X theirs`` output into ``result_lines``: [start, end) per span.

    A region the result changed inside a span belongs to the hunk.  Lines
    the result *inserted* right at a span's edge belong to it only when they
    are its own material (dev's lines of the hunk, or conflict markers), as
    when dev's text was kept before main's; any other line inserted there
    (a maintainer's fix next to the hunk) stays outside, so deciding the
    hunk never deletes it.  An insertion the diff put a few equal lines away
    from an edge is first slid to it when it is the span's own there
    (``_slid_to_edges``).
    """
    if list(result_lines) == list(theirs_lines):
        return [(s.start, s.start + s.count) for s in spans]
    diffed = diff_lines(list(theirs_lines), list(result_lines), Algorithm.MYERS)
    materials = [own[k] if own is not None else set() for k in range(len(spans))]

    def absorbs_into(k: int, change: Edit) -> bool:
        inserted = result_lines[change.i2 : change.i2 + change.chg2]
        return all(line in materials[k] or MARKER.match(line) or SEPARATOR.match(line) for line in inserted)

    script = _slid_to_edges(diffed, theirs_lines, result_lines, spans, absorbs_into)
    placed: list[tuple[int, int]] = []
    for k, span in enumerate(spans):
        absorbs = partial(absorbs_into, k)
        lo = _map_start(script, span.start, absorbs)
        hi = max(_map_end(script, span.start + span.count, absorbs), lo)
        placed.append((lo, hi))
    return placed


def _slid_to_edges(
    script: Sequence[Edit],
    theirs_lines: Sequence[bytes],
    result_lines: Sequence[bytes],
    spans: Sequence[Span],
    absorbs_into: Callable[[int, Edit], bool],
) -> list[Edit]:
    """``script`` with each pure insertion slid over equal lines to the edge of a span it belongs to.

    Where inserted lines repeat the lines beside them (a block that starts
    with a blank line, inserted after a blank line), a diff may put them
    one line or more away from the span: dev's block kept in place of an
    empty main side then read as main's side with an edit beside it.
    Sliding over equal lines gives an equally valid script, so the block
    is put at the edge where it is the span's own material, when there is one.
    """
    edges: dict[int, list[int]] = {}
    for k, span in enumerate(spans):
        for edge in {span.start, span.start + span.count}:
            edges.setdefault(edge, []).append(k)
    slid = list(script)
    for n, change in enumerate(slid):
        if change.chg1 or not change.chg2 or any(absorbs_into(k, change) for k in edges.get(change.i1, ())):
            continue
        floor = slid[n - 1].i1 + slid[n - 1].chg1 if n else 0
        ceiling = slid[n + 1].i1 if n + 1 < len(slid) else len(theirs_lines)
        for delta in _slides(change, theirs_lines, result_lines, floor, ceiling):
            moved = Edit(change.i1 + delta, 0, change.i2 + delta, change.chg2)
            if any(absorbs_into(k, moved) for k in edges.get(moved.i1, ())):
                slid[n] = moved
                break
    return slid


def _slides(change: Edit, theirs: Sequence[bytes], result: Sequence[bytes], floor: int, ceiling: int) -> list[int]:
    """How far a pure insertion can move over equal lines without touching another change, nearest first."""
    up, down = 0, 0
    end = change.i2 + change.chg2
    while change.i1 - up - 1 > floor and theirs[change.i1 - up - 1] == result[end - up - 1]:
        up += 1
    while change.i1 + down + 1 < ceiling and theirs[change.i1 + down] == result[change.i2 + down]:
        down += 1
    return sorted([-d for d in range(1, up + 1)] + list(range(1, down + 1)), key=abs)


def _map_start(script: Sequence[Edit], pos: int, absorbs: Callable[[Edit], bool]) -> int:
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


def _map_end(script: Sequence[Edit], pos: int, absorbs: Callable[[Edit], bool]) -> int:
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
