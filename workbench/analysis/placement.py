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
    hunk never deletes it.
    """
    if list(result_lines) == list(theirs_lines):
        return [(s.start, s.start + s.count) for s in spans]
    script = diff_lines(list(theirs_lines), list(result_lines), Algorithm.MYERS)
    placed: list[tuple[int, int]] = []
    for k, span in enumerate(spans):
        material = own[k] if own is not None else set()

        def absorbs(change: Edit, material: set[bytes] = material) -> bool:
            inserted = result_lines[change.i2 : change.i2 + change.chg2]
            return all(line in material or MARKER.match(line) or SEPARATOR.match(line) for line in inserted)

        lo = _map_start(script, span.start, absorbs)
        hi = max(_map_end(script, span.start + span.count, absorbs), lo)
        placed.append((lo, hi))
    return placed


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
