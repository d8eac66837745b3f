"""The hunk model laid over the conflict text git wrote: where each hunk is, and whether they agree.

Git's blocks are projected to main's side (see ``conflict_text``) and the
model's ``-X theirs`` layout is mapped into that projection, so every hunk
gets a span there however git grouped its blocks.  Model and file agree when
main's text sits in every span and putting dev's text there instead gives
exactly the file with every block projected to dev's side: then any choice
per hunk can be written from the projection.  When they do not, only git's
own text can be trusted (a whole-side choice projects the blocks) and the
caller says so.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice, pairwise

from workbench.analysis.conflict_text import (
    DEFAULT_MARKER_SIZE,
    Block,
    ConflictText,
    Fits,
    Projection,
    Section,
    fitting,
    marker_sizes,
    parse_conflicts,
    project,
    readings,
)
from workbench.analysis.edits import edit_hunks
from workbench.analysis.model import Hunk, LineRange
from workbench.analysis.placement import place_spans, theirs_layout
from workbench.analysis.xdiff import MergeResult


@dataclass(frozen=True, slots=True)
class Located:
    """The hunks of a model found in a file holding git's conflict blocks."""

    text: ConflictText
    theirs: Projection
    ours: Projection
    spans: tuple[tuple[int, int], ...]
    """Each hunk's [start, end) in ``theirs.lines``."""
    ranges: tuple[tuple[int, int], ...]
    """Each hunk's [start, end) in the file's own lines, widened over the blocks it touches."""
    problem: str | None
    """None when model and file agree; else why not, in a sentence."""
    sure: frozenset[Section] = frozenset()
    """The sides whose sections the blocks give one way only (``Readings.sure``): where model and file
    disagree, the one case where it matters, only their projections can be written."""
    touched: frozenset[int] = frozenset()
    """Hunks still holding some of git's blocks whose text is not git's: another of their blocks resolved
    (replaced by text) or deleted by hand.  Deciding one replaces all it holds; undecided, it keeps it."""

    @property
    def agrees(self) -> bool:
        return self.problem is None

    def blocked(self, k: int) -> bool:
        """Whether hunk ``k`` still holds one of git's blocks (else it was resolved by hand)."""
        lo, hi = self.spans[k]
        return bool(_blocks_in(self.text, self.theirs, lo, hi))

    def held(self, k: int, merge: MergeResult) -> bytes:
        """Hunk ``k``'s text as the file holds it, git's own blocks drawn as git's default (merge) style draws them."""
        lo, hi = self.spans[k]
        if k in self.touched:
            return b"".join(self.text.lines[slice(*self.ranges[k])])
        if not self.blocked(k):
            return b"".join(self.theirs.lines[lo:hi])
        return merge.conflict_block(merge.conflicts[k], self.text.labels, self.text.marker_size)

    def held_at(self, k: int) -> tuple[int, int]:
        """Where ``held(k)`` goes in ``theirs.lines``: the hunk's span, widened for a touched hunk over its
        blocks' sections (a diff3 block also holds lines both sides share beside the hunk)."""
        lo, hi = self.spans[k]
        if k not in self.touched:
            return lo, hi
        blocks = _blocks_in(self.text, self.theirs, lo, hi)
        return min([lo, *(self.theirs.at[b] for b in blocks)]), max([hi, *(self.theirs.ends[b] for b in blocks)])

    def drawn(self, merge: MergeResult) -> bytes:
        """The file with every hunk as it holds it (``held``): git's own blocks in git's default style."""
        out: list[bytes] = []
        pos = 0
        for k in range(len(self.spans)):
            lo, hi = self.held_at(k)
            out.extend(self.theirs.lines[pos:lo])
            out.append(self.held(k, merge))
            pos = hi
        out.extend(self.theirs.lines[pos:])
        return b"".join(out)


def edits_beside(found: Located, merge: MergeResult, first_index: int) -> tuple[Hunk, ...] | None:
    """The edit hunks of a file still holding git's blocks (``found`` agrees): what it changed outside the hunks,
    found in the file projected to main's side and placed on the file's own lines; None when one falls inside
    a block.

    A diff3 block holds lines both sides share beside the model's hunk;
    read in the file, they would look like lines the hunk took from outside
    it (and deciding the edit would write them twice).
    """
    held = [LineRange.from_slice(lo, hi - lo) for lo, hi in found.spans]
    edits = edit_hunks(merge, b"".join(found.theirs.lines), None, held, first_index)
    placed: list[Hunk] = []
    for edit in edits:
        assert edit.result is not None
        lo, hi = edit.result.start - 1, edit.result.end
        if any(found.theirs.origin[n] < 0 for n in range(lo, hi)):
            return None
        start = _file_line(found.text, found.theirs, lo, opening=True)
        placed.append(replace(edit, result=LineRange.from_slice(start, hi - lo)))
    return tuple(placed)


def in_default_style(result: bytes, merge: MergeResult) -> tuple[bytes, Located | None]:
    """``result`` with each hunk still holding git's blocks drawn as git's default style draws it, and its
    hunks found there (``locate``).

    git draws a conflict in the user's ``merge.conflictStyle`` (diff3 and
    zdiff3 add the base's lines, and do not join or refine blocks the way
    the default style does); the hunk model is git's default style.  Read
    this way, a file's analysis is of the merge, whichever style drew it;
    hand edits, and hunks resolved or touched by hand, stay as they are.
    A file whose blocks do not agree with the model is left as it is.
    """
    found = locate(result, merge)
    if found is None or not found.agrees:
        return result, found
    drawn = found.drawn(merge)
    if drawn == result:
        return result, found
    again = locate(drawn, merge)
    if again is None or not again.agrees:
        return result, found
    return drawn, again


def locate(result: bytes, merge: MergeResult) -> Located | None:
    """The model's hunks in ``result``; None when it holds no conflict block at all.

    Each marker length the file's opening markers have is tried (the
    ``conflict-marker-size`` attribute decides what git wrote; the default
    first), and where a line of text may be taken for a marker, the other
    readings of it (``conflict_text.readings``): the first reading under
    which model and file agree is taken, else the first other reading
    (sections that are the sides' own lines first), else the plain
    reading that found blocks, with its problem.
    """
    first: Located | None = None
    fallback: Located | None = None
    fits = fitting(merge.ours, merge.base, merge.theirs)
    sizes = marker_sizes(result)
    for size in sizes or [DEFAULT_MARKER_SIZE]:
        text = parse_conflicts(result, size)
        plain = None if text is None or not text.blocks else _locate(text, merge, fits)
        if plain is not None and plain.agrees:
            return plain
        first = first or plain
        if not sizes:
            continue
        found = readings(result, size, fits)
        if found is None:
            continue
        for other in islice(found.texts(), _OTHER_READINGS):
            located = _locate(other, merge, fits)
            if located.agrees:
                return located
            if fallback is None:
                fallback = replace(located, sure=found.sure)
    return fallback or first


_OTHER_READINGS = 8
"""Readings tried where the plain one disagrees, at most (where text looks like a marker, the first
that fits the sides usually agrees)."""


def _locate(text: ConflictText, merge: MergeResult, fits: Fits) -> Located:
    conflicts = merge.conflicts
    theirs_lines, spans = theirs_layout(merge)
    theirs = project(text, Section.THEIRS, merge.theirs)
    ours = project(text, Section.OURS, merge.ours)
    dev = [merge.ours[c.i1 : c.i1 + c.chg1] for c in conflicts]
    placed = tuple(place_spans(theirs_lines, spans, theirs.lines, dev))
    ranges = tuple(_file_range(text, theirs, lo, hi) for lo, hi in placed)
    problem, touched = _disagreement(text, theirs, ours, placed, ranges, merge, fits)
    return Located(text, theirs, ours, placed, ranges, problem, touched=touched)


def _file_range(text: ConflictText, projection: Projection, lo: int, hi: int) -> tuple[int, int]:
    """The file lines behind projected lines [lo, hi), widened to whole blocks."""
    start = _file_line(text, projection, lo, opening=True)
    end = _file_line(text, projection, hi - 1, opening=False) if hi > lo else start
    for k in _blocks_in(text, projection, lo, hi):
        start, end = min(start, text.blocks[k].start), max(end, text.blocks[k].end)
    return start, end


def _blocks_in(text: ConflictText, projection: Projection, lo: int, hi: int) -> list[int]:
    """The blocks whose section overlaps projected lines [lo, hi); an empty section, or an empty
    span (a hunk where main has no lines), counts when it sits at an edge of the other."""
    found = []
    k = bisect_left(projection.ends, lo)  # sections are in order: the first that ends at or after lo
    while k < len(text.blocks) and projection.at[k] <= hi:
        at, end = projection.at[k], projection.ends[k]
        if at == end or lo == hi or (at < hi and lo < end):
            found.append(k)
        k += 1
    return found


def _file_line(text: ConflictText, projection: Projection, n: int, opening: bool) -> int:
    if n >= len(projection.origin):
        return len(text.lines)
    origin = projection.origin[n]
    if origin >= 0:
        return origin if opening else origin + 1
    block = text.blocks[-1 - origin]
    return block.start if opening else block.end


def _disagreement(
    text: ConflictText,
    theirs: Projection,
    ours: Projection,
    placed: Sequence[tuple[int, int]],
    ranges: Sequence[tuple[int, int]],
    merge: MergeResult,
    fits: Fits,
) -> tuple[str | None, frozenset[int]]:
    """Why writing choices from the projection would not give git's merge, or None; and the hunks touched by hand.

    Every block must overlap or touch some hunk's place (a diff3 block also
    holds lines both sides share, which the model leaves outside its hunks),
    and its sides must differ (git never writes a block of equal sides):
    else it is a conflict the model does not know, or text that only looks
    like markers of this length.  A hunk without a block of git's in its
    place was resolved by hand: its text stands for both sides.  A hunk
    whose blocks are each still git's (its sections runs of the sides' own
    lines), and lie inside its place but for lines both their sections
    share, but whose text, projected to either
    side, is not that side's was touched by hand (another of its blocks
    resolved or emptied, as when git drew two diff3 blocks where the model
    has one hunk): its projections stand for themselves.  A block whose
    sections are not the sides' lines (edited inside, or text git merged
    otherwise, as under ``merge.renormalize``) is no sign of a hand.  Every
    other hunk must hold main's text, and dev's text in all of them must
    give the file projected to dev's side.
    """
    if any(lo < prev_hi for (_, prev_hi), (lo, _) in pairwise(placed)):
        return "its hunks overlap in the conflict text", frozenset()
    starts = [lo for lo, _ in placed]
    for k, block in enumerate(text.blocks):
        n = bisect_right(starts, theirs.ends[k]) - 1  # the last span starting at or before the section's end
        if block.ours == block.theirs or n < 0 or placed[n][1] < theirs.at[k]:
            return f"the conflict at line {block.start + 1} is not one of its hunks", frozenset()
    dev_everywhere: list[bytes] = []
    touched: set[int] = set()
    pos = 0
    for k, ((lo, hi), chunk) in enumerate(zip(placed, merge.conflicts, strict=True)):
        dev_everywhere.extend(theirs.lines[pos:lo])
        pos = hi
        blocks = _blocks_in(text, theirs, lo, hi)
        if not blocks:
            dev_everywhere.extend(theirs.lines[lo:hi])
            continue
        main = tuple(merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2])
        dev = tuple(merge.ours[chunk.i1 : chunk.i1 + chunk.chg1])
        own = _on_ours(theirs, ours, lo, hi, blocks) if all(_gits(text.blocks[b], fits) for b in blocks) else None
        if own is not None and (tuple(theirs.lines[lo:hi]) != main or own != dev):
            touched.add(k)
            dev_everywhere.extend(own)
            continue
        if tuple(theirs.lines[lo:hi]) != main:
            line = _file_line(text, theirs, lo, opening=True) + 1
            return f"the conflict text near line {line} is not main's side of a hunk", frozenset()
        dev_everywhere.extend(dev)
    dev_everywhere.extend(theirs.lines[pos:])
    if b"".join(dev_everywhere) != b"".join(ours.lines):
        return "its conflict blocks do not match the hunks computed from the merge", frozenset()
    return None, frozenset(touched)


def _gits(block: Block, fits: Fits) -> bool:
    """Whether a block's sections are still runs of the sides' own lines, as git copied them."""
    return fits("ours", block.ours) and fits("theirs", block.theirs) and (block.base is None or fits("base", block.base))


def _on_ours(theirs: Projection, ours: Projection, lo: int, hi: int, blocks: Sequence[int]) -> tuple[bytes, ...] | None:
    """What lines [lo, hi) of the projection to main's side are in the projection to dev's side (``blocks``: the
    hunk's); None when a block's section is cut there by other than lines both its sections share (a diff3
    block holds lines both sides share beside the model's hunk, which git does not refine away)."""
    start, end = _to_ours(theirs, ours, lo, False, blocks), _to_ours(theirs, ours, hi, True, blocks)
    return None if start is None or end is None or end < start else tuple(ours.lines[start:end])


def _to_ours(theirs: Projection, ours: Projection, x: int, end: bool, blocks: Sequence[int]) -> int | None:
    """Where boundary ``x`` of the projection to main's side falls in the projection to dev's side: ``end``, a
    hunk's end (an empty section there is the hunk's), else its start.  A section of one of the hunk's
    ``blocks`` that reaches past ``x`` must have there lines both its sections share."""
    at = x
    for b, (first, last) in enumerate(zip(theirs.at, theirs.ends, strict=True)):
        if first < x < last or (b in blocks and first < last and (first == x if end else last == x)):
            if end:
                tail = theirs.lines[x:last]
                return ours.ends[b] - len(tail) if ours.lines[ours.ends[b] - len(tail) : ours.ends[b]] == tail else None
            head = theirs.lines[first:x]
            return ours.at[b] + len(head) if ours.lines[ours.at[b] : ours.at[b] + len(head)] == head else None
        if last < x or (last == x and (end or first < x)):
            at += (ours.ends[b] - ours.at[b]) - (last - first)
    return at
