"""Edit hunks: regions where the result differs from git's merge outside its conflicts.

git's merge of a file is a sequence of segments: lines all three versions
share, one side's clean change (dev's or main's), and conflicts.  Rendered
with main's side in each conflict, it is the file ``-X theirs`` gives and,
for a file without conflicts, exactly the blob git's automatic merge wrote.
Diffing that text against the result finds what the resolution changed; each
change is widened to the whole segments it touches (a clean change of one
side is kept or undone as a unit) and becomes a hunk of kind ``edit`` with
the base, dev and main lines git merged there and what the result holds.
Changes inside a conflict belong to the conflict hunks and are left to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import Hunk, HunkKind, LineRange, Taken
from workbench.analysis.xdiff import Algorithm, ChunkMode, Edit, Favor, MergeChunk, MergeResult, diff_lines, joined, split_lines


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of the rendered merge: ``count`` lines from ``at``, and the lines behind them on each side."""

    at: int
    count: int
    base: tuple[int, int]
    dev: tuple[int, int]
    main: tuple[int, int]
    """(0-based start, count) in each side's file."""
    stable: bool
    conflict: bool = False


def segments(merge: MergeResult) -> list[Segment]:
    """The rendered ``-X theirs`` text of ``merge`` cut into stable runs and chunks."""
    out: list[Segment] = []
    a = o = b = t = 0
    for ch in _chunks(merge):
        gap = ch.i1 - o
        if gap > 0:
            out.append(Segment(a, gap, (b, gap), (o, gap), (t, gap), True))
            a += gap
        if ch.mode is ChunkMode.CONFLICT or ch.mode is ChunkMode.THEIRS_ONLY:
            count = ch.chg2
        else:  # dev's clean change, or the same change on both sides
            count = ch.chg1
        out.append(
            Segment(a, count, (ch.i0, ch.chg0), (ch.i1, ch.chg1), (ch.i2, ch.chg2), False, ch.mode is ChunkMode.CONFLICT)
        )
        a += count
        o, b, t = ch.i1 + ch.chg1, ch.i0 + ch.chg0, ch.i2 + ch.chg2
    tail = len(merge.ours) - o
    if tail > 0:
        out.append(Segment(a, tail, (b, tail), (o, tail), (t, tail), True))
    return out


def _chunks(merge: MergeResult) -> list[MergeChunk]:
    """The merge's chunks; a merge where one side kept the base is the other side's script."""
    if merge.whole == "theirs":
        return [MergeChunk(ChunkMode.THEIRS_ONLY, i, c, i, c, j, d) for i, c, j, d in merge.theirs_script]
    if merge.whole == "ours":
        return [MergeChunk(ChunkMode.OURS_ONLY, i, c, j, d, i, c) for i, c, j, d in merge.ours_script]
    return list(merge.chunks)


def edit_hunks(
    merge: MergeResult,
    result: bytes | None,
    script: Sequence[Edit] | None = None,
    taken_in_result: Sequence[LineRange] = (),
    first_index: int = 0,
) -> tuple[Hunk, ...]:
    """The regions where ``result`` (None: no file) differs from ``merge`` outside its conflicts.

    ``script`` is git's edit script from the rendered merge to the result when
    known; ``taken_in_result`` are the result lines conflict hunks already
    hold (an edit there is theirs).
    """
    rendered = split_lines(merge.render(Favor.THEIRS))
    lines = split_lines(result) if result is not None else []
    if rendered == lines:
        return ()
    segs = segments(merge)
    if sum(s.count for s in segs) != len(rendered):
        return (whole_file_hunk(merge, lines, first_index, None),)
    if script is not None:
        changes, outside = list(script), False
    else:
        changes, outside = _between_conflicts(rendered, lines, segs, taken_in_result)
    regions = _widen(changes, segs, taken_in_result, outside)
    return tuple(_hunk(merge, segs, rendered, lines, region, first_index + k) for k, region in enumerate(regions))


def _diff(a: list[bytes], b: list[bytes]) -> list[Edit]:
    return list(diff_lines(a, b, Algorithm.HISTOGRAM))


def _between_conflicts(
    rendered: list[bytes], lines: list[bytes], segs: list[Segment], held: Sequence[LineRange]
) -> tuple[list[Edit], bool]:
    """The changes from ``rendered`` to ``lines``, diffing only the text between conflicts, and whether they
    were (True: none of them is a conflict's, even one beside a conflict main emptied).

    When each conflict's place in the result is known (``held``, in order),
    the stretches between them are compared pairwise: most are equal, and a
    whole-file diff of a large file is the slow part of an analysis.
    """
    conflicts = [s for s in segs if s.conflict]
    if len(conflicts) != len(held) or not held:
        return _diff(rendered, lines), False
    out: list[Edit] = []
    a, r = 0, 0
    for seg, rng in zip([*conflicts, None], [*held, None], strict=False):
        a_end = seg.at if seg is not None else len(rendered)
        r_end = rng.start - 1 if rng is not None else len(lines)
        if r_end < r:
            return _diff(rendered, lines), False
        if rendered[a:a_end] != lines[r:r_end]:
            out += [Edit(i1 + a, c1, i2 + r, c2) for i1, c1, i2, c2 in _diff(rendered[a:a_end], lines[r:r_end])]
        if seg is not None and rng is not None:
            a, r = seg.at + seg.count, rng.end
    return out, True


@dataclass(frozen=True, slots=True)
class _Region:
    a0: int
    a1: int
    r0: int
    r1: int


def _widen(changes: Sequence[Edit], segs: list[Segment], held: Sequence[LineRange], outside: bool) -> list[_Region]:
    """Each change widened to whole chunks; overlapping ones joined; conflicts' own changes dropped.

    ``outside``: no change is a conflict's (they were found between the conflicts' places), so one beside a
    conflict main emptied is kept, widened over the clean chunks it touches but never over the conflict.
    """
    regions: list[_Region] = []
    emptied = {s.at for s in segs if s.conflict and s.count == 0}
    for i1, chg1, i2, chg2 in changes:
        a0, a1 = i1, i1 + chg1
        touched = [s for s in segs if not s.stable and _touches(s, a0, a1) and not (outside and s.conflict)]
        if any(s.conflict for s in touched) or _held(i2, i2 + chg2, held):
            continue
        lo = min([a0, *(s.at for s in touched)])
        hi = max([a1, *(s.at + s.count for s in touched)])
        r0, r1 = i2 - (a0 - lo), i2 + chg2 + (hi - a1)
        if regions and (lo < regions[-1].a1 or lo == regions[-1].a1 and lo not in emptied):
            last = regions.pop()
            if last.a1 > hi:  # this change sits inside the last region: it only shifts its end
                hi, r1 = last.a1, last.r1 + (chg2 - chg1)
            lo, r0 = last.a0, last.r0
        regions.append(_Region(lo, hi, r0, r1))
    return regions


def _touches(seg: Segment, a0: int, a1: int) -> bool:
    """Whether a change of rendered lines [a0, a1) reaches into a chunk.

    An insertion at a chunk's edge does not; a chunk without rendered lines
    (main deleted lines there) is reached by a change at or around its place.
    """
    end = seg.at + seg.count
    if seg.count == 0:
        return a0 <= seg.at <= a1
    if a0 == a1:
        return seg.at < a0 < end
    return seg.at < a1 and a0 < end


def _held(r0: int, r1: int, held: Sequence[LineRange]) -> bool:
    """Whether result lines [r0, r1) fall in what a conflict hunk holds."""
    for rng in held:
        lo, hi = rng.start - 1, rng.end
        if (r0 < hi and lo < r1) if r0 < r1 else lo < r0 < hi:
            return True
    return False


def _side_at(segs: list[Segment], a: int, which: str, total: int, after_conflict: bool = False) -> int:
    """The 0-based line of one side at rendered boundary ``a`` (a chunk edge or inside a stable run);
    ``after_conflict``: past a conflict main emptied there (a region starting beside it)."""
    for seg in segs:
        if after_conflict and seg.conflict and seg.count == 0 and a == seg.at:
            continue
        if a < seg.at + seg.count or (a == seg.at and seg.count == 0):
            start: int = getattr(seg, which)[0]
            return start + (a - seg.at if seg.stable else 0)
    return total


def _hunk(
    merge: MergeResult, segs: list[Segment], rendered: list[bytes], lines: list[bytes], region: _Region, index: int
) -> Hunk:
    """The hunk of one region; git's merge there is the rendered text (a region never reaches into a conflict)."""
    base = _range(segs, region, "base", len(merge.base))
    dev = _range(segs, region, "dev", len(merge.ours))
    main = _range(segs, region, "main", len(merge.theirs))
    result = LineRange.from_slice(region.r0, region.r1 - region.r0)
    merged = tuple(rendered[region.a0 : region.a1])
    return _make(merge, base, dev, main, result, tuple(lines[region.r0 : region.r1]), index, merged)


def _range(segs: list[Segment], region: _Region, which: str, total: int) -> LineRange:
    lo = _side_at(segs, region.a0, which, total, after_conflict=region.a1 > region.a0)
    hi = _side_at(segs, region.a1, which, total) if region.a1 > region.a0 else lo
    if region.a1 > region.a0:
        # an empty chunk right at the end belongs to the region too (main deleted lines there), a conflict's not
        for seg in segs:
            if seg.count == 0 and seg.at == region.a1 and not seg.stable and not seg.conflict:
                start, count = getattr(seg, which)
                hi = max(hi, start + count)
    else:
        for seg in segs:
            if seg.count == 0 and seg.at == region.a0 and not seg.stable and not seg.conflict:
                start, count = getattr(seg, which)
                lo, hi = min(lo, start), max(hi, start + count)
    return LineRange.from_slice(lo, max(hi, lo) - lo)


def whole_file_hunk(merge: MergeResult, lines: list[bytes], index: int, merged: tuple[bytes, ...] | None) -> Hunk:
    """One hunk for the whole file, when the merge cannot be laid over the rendered text; ``merged`` is git's
    merged file when it is known and clean (what restoring git's merge writes back)."""
    return _make(
        merge,
        LineRange.from_slice(0, len(merge.base)),
        LineRange.from_slice(0, len(merge.ours)),
        LineRange.from_slice(0, len(merge.theirs)),
        LineRange.from_slice(0, len(lines)),
        tuple(lines),
        index,
        merged,
    )


def _make(
    merge: MergeResult,
    base: LineRange,
    dev: LineRange,
    main: LineRange,
    result: LineRange,
    result_text: tuple[bytes, ...],
    index: int,
    merged_text: tuple[bytes, ...] | None,
) -> Hunk:
    dev_text = merge.ours[dev.slice()]  # packed lines stay slices of the merge's pool
    main_text = merge.theirs[main.slice()]
    return Hunk(
        index=index,
        base=base,
        dev=dev,
        main=main,
        result=result,
        taken=_taken(dev_text, main_text, result_text),
        base_text=merge.base[base.slice()],
        dev_text=dev_text,
        main_text=main_text,
        result_text=result_text,
        kind=HunkKind.EDIT,
        merged_text=merged_text,
    )


def _taken(dev: Sequence[bytes], main: Sequence[bytes], result: tuple[bytes, ...]) -> Taken:
    """Whose text the result put in place of git's merge here (newline at the end aside)."""
    held = b"".join(result)
    if dev != main and _same(held, joined(dev)):
        return Taken.DEV
    if dev != main and _same(held, joined(main)):
        return Taken.MAIN
    return Taken.OTHER


def _same(held: bytes, side: bytes) -> bool:
    """Equal texts, or equal but for the newline ending the last line (an empty text is no side's blank lines)."""
    return held == side or (bool(held) and held.rstrip(b"\r\n") == side.rstrip(b"\r\n"))
