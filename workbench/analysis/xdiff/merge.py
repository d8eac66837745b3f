"""Three-way merge of line lists, as git's xdl_merge computes it.

The two edit scripts (base->ours, base->theirs) are walked together;
overlapping changes become conflicts unless identical.  At the "zealous"
levels each conflict is re-diffed between ours and theirs so that lines both
sides agree on move out of it, and conflicts fewer than four lines apart
(or, at "zealous_alnum", separated only by lines without letters or digits)
are joined.  Writing the result out lives in ``result.py``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.xdiff.diff import Algorithm, diff_ids
from workbench.analysis.xdiff.lines import classify, split_lines
from workbench.analysis.xdiff.result import (
    ChunkMode,
    Favor,
    MergeChunk,
    MergeLevel,
    MergeResult,
    Style,
    needs_cr,
)
from workbench.git.types import Edit

__all__ = ["ChunkMode", "Favor", "MergeLevel", "MergeChunk", "MergeResult", "Style", "coalesce_alnum", "merge_lines", "needs_cr"]

_ALNUM = re.compile(rb"[A-Za-z0-9]")
# Module names for the merge loops: on Python 3.11 reading an enum member costs ten times a global's read.
_CONFLICT, _OURS_ONLY, _THEIRS_ONLY = ChunkMode.CONFLICT, ChunkMode.OURS_ONLY, ChunkMode.THEIRS_ONLY
_IDENTICAL = ChunkMode.IDENTICAL


@dataclass(slots=True)
class _Merge:
    mode: ChunkMode
    i0: int
    chg0: int
    i1: int
    chg1: int
    i2: int
    chg2: int
    refined: bool = False


def merge_lines(
    base: Sequence[bytes],
    ours: Sequence[bytes],
    theirs: Sequence[bytes],
    algorithm: Algorithm = Algorithm.HISTOGRAM,
    level: MergeLevel = MergeLevel.ZEALOUS,
    style: Style = Style.MERGE,
    rediff_shifted: bool = False,
    scripts: tuple[Sequence[Edit], Sequence[Edit]] | None = None,
) -> MergeResult:
    """Merge ``ours`` and ``theirs`` against ``base`` exactly as xdl_merge does.

    ``scripts`` are the base->ours and base->theirs edit scripts when already
    known (computed by git for many files at once); otherwise they are
    computed here with ``algorithm``.
    """
    base_t, ours_t, theirs_t = tuple(base), tuple(ours), tuple(theirs)
    if scripts is not None:
        script1, script2 = list(scripts[0]), list(scripts[1])
    else:
        c1 = classify(base_t, ours_t)
        script1 = diff_ids(c1.ids1, c1.ids2, algorithm, rediff_shifted)
        c2 = classify(base_t, theirs_t)
        script2 = diff_ids(c2.ids1, c2.ids2, algorithm, rediff_shifted)
    if not script1:
        return MergeResult(base_t, ours_t, theirs_t, (), style, "theirs", (), tuple(script2))
    if not script2:
        return MergeResult(base_t, ours_t, theirs_t, (), style, "ours", tuple(script1), ())

    if style is not Style.MERGE and level > MergeLevel.EAGER:
        level = MergeLevel.EAGER
    merges = _combine(script1, script2, ours_t, theirs_t, len(base_t), level)
    if style is Style.ZDIFF3:
        _trim_conflicts(merges, ours_t, theirs_t)
    elif level >= MergeLevel.ZEALOUS:
        merges = _refine_conflicts(merges, ours_t, theirs_t, algorithm, rediff_shifted)
        _simplify_non_conflicts(merges, ours_t, level > MergeLevel.ZEALOUS)
        _assign_piece_bases(merges, script1, script2, len(base_t))
    chunks = tuple(
        MergeChunk(m.mode, m.i0, m.chg0, m.i1, m.chg1, m.i2, m.chg2) for m in merges
    )
    return MergeResult(
        base_t, ours_t, theirs_t, chunks, style, None, tuple(script1), tuple(script2)
    )


def coalesce_alnum(result: MergeResult) -> MergeResult:
    """Join conflicts separated only by lines without letters or digits.

    A zealous merge (what ``git merge`` writes) joined with this pass gives
    exactly the zealous_alnum conflicts of ``git merge-file``: each gap
    between two conflicts is judged on its own, so the order of passes does
    not matter.
    """
    if result.whole is not None or result.style is not Style.MERGE:
        return result
    merges = [
        _Merge(c.mode, c.i0, c.chg0, c.i1, c.chg1, c.i2, c.chg2) for c in result.chunks
    ]
    _simplify_non_conflicts(merges, result.ours, True)
    chunks = tuple(
        MergeChunk(m.mode, m.i0, m.chg0, m.i1, m.chg1, m.i2, m.chg2) for m in merges
    )
    if len(chunks) == len(result.chunks):
        return result
    return MergeResult(
        result.base,
        result.ours,
        result.theirs,
        chunks,
        result.style,
        None,
        result.ours_script,
        result.theirs_script,
    )


def _append(
    merges: list[_Merge], mode: ChunkMode, i0: int, chg0: int, i1: int, chg1: int, i2: int, chg2: int
) -> None:
    if merges:
        last = merges[-1]
        if i1 <= last.i1 + last.chg1 or i2 <= last.i2 + last.chg2:
            if mode != last.mode:
                last.mode = _CONFLICT
            last.chg0 = i0 + chg0 - last.i0
            last.chg1 = i1 + chg1 - last.i1
            last.chg2 = i2 + chg2 - last.i2
            return
    merges.append(_Merge(mode, i0, chg0, i1, chg1, i2, chg2))


def _combine(
    script1: list[Edit],
    script2: list[Edit],
    ours: Sequence[bytes],
    theirs: Sequence[bytes],
    n_base: int,
    level: MergeLevel,
) -> list[_Merge]:
    """Walk both scripts; overlapping changes conflict unless identical."""
    merges: list[_Merge] = []
    k1 = k2 = 0
    while k1 < len(script1) and k2 < len(script2):
        a_i1, a_chg1, a_i2, a_chg2 = script1[k1]
        b_i1, b_chg1, b_i2, b_chg2 = script2[k2]
        if a_i1 + a_chg1 < b_i1:
            _append(merges, _OURS_ONLY, a_i1, a_chg1, a_i2, a_chg2, b_i2 - b_i1 + a_i1, a_chg1)
            k1 += 1
            continue
        if b_i1 + b_chg1 < a_i1:
            _append(merges, _THEIRS_ONLY, b_i1, b_chg1, a_i2 - a_i1 + b_i1, b_chg1, b_i2, b_chg2)
            k2 += 1
            continue
        if (
            level == MergeLevel.MINIMAL
            or a_i1 != b_i1
            or a_chg1 != b_chg1
            or a_chg2 != b_chg2
            or ours[a_i2 : a_i2 + a_chg2] != theirs[b_i2 : b_i2 + b_chg2]
        ):
            off = a_i1 - b_i1
            ffo = off + a_chg1 - b_chg1
            i0, i1, i2 = a_i1, a_i2, b_i2
            if off > 0:
                i0 -= off
                i1 -= off
            else:
                i2 += off
            chg0 = a_i1 + a_chg1 - i0
            chg1 = a_i2 + a_chg2 - i1
            chg2 = b_i2 + b_chg2 - i2
            if ffo < 0:
                chg0 -= ffo
                chg1 -= ffo
            else:
                chg2 += ffo
            _append(merges, _CONFLICT, i0, chg0, i1, chg1, i2, chg2)
        end1, end2 = a_i1 + a_chg1, b_i1 + b_chg1
        if end1 >= end2:
            k2 += 1
        if end2 >= end1:
            k1 += 1
    delta2 = len(theirs) - n_base
    for a_i1, a_chg1, a_i2, a_chg2 in script1[k1:]:
        _append(merges, _OURS_ONLY, a_i1, a_chg1, a_i2, a_chg2, a_i1 + delta2, a_chg1)
    delta1 = len(ours) - n_base
    for b_i1, b_chg1, b_i2, b_chg2 in script2[k2:]:
        _append(merges, _THEIRS_ONLY, b_i1, b_chg1, b_i1 + delta1, b_chg1, b_i2, b_chg2)
    return merges


def _trim_conflicts(merges: list[_Merge], ours: Sequence[bytes], theirs: Sequence[bytes]) -> None:
    """zdiff3: move lines common to both sides out of each conflict's ends."""
    for m in merges:
        if m.mode != _CONFLICT:
            continue
        while m.chg1 and m.chg2 and ours[m.i1] == theirs[m.i2]:
            m.chg1 -= 1
            m.chg2 -= 1
            m.i1 += 1
            m.i2 += 1
        while m.chg1 and m.chg2 and ours[m.i1 + m.chg1 - 1] == theirs[m.i2 + m.chg2 - 1]:
            m.chg1 -= 1
            m.chg2 -= 1


def _refine_conflicts(
    merges: list[_Merge],
    ours: Sequence[bytes],
    theirs: Sequence[bytes],
    algorithm: Algorithm,
    rediff_shifted: bool,
) -> list[_Merge]:
    """Diff ours against theirs inside each conflict; keep only what differs."""
    refined: list[_Merge] = []
    for m in merges:
        if m.mode != _CONFLICT or m.chg1 == 0 or m.chg2 == 0:
            refined.append(m)
            continue
        part1 = ours[m.i1 : m.i1 + m.chg1]
        part2 = theirs[m.i2 : m.i2 + m.chg2]
        classes = classify(part1, part2)
        script = diff_ids(classes.ids1, classes.ids2, algorithm, rediff_shifted)
        if not script:
            m.mode = _IDENTICAL
            refined.append(m)
            continue
        base_i1, base_i2 = m.i1, m.i2
        for n, (x_i1, x_chg1, x_i2, x_chg2) in enumerate(script):
            piece = m if n == 0 else _Merge(_CONFLICT, m.i0, m.chg0, 0, 0, 0, 0)
            piece.i1, piece.chg1 = base_i1 + x_i1, x_chg1
            piece.i2, piece.chg2 = base_i2 + x_i2, x_chg2
            piece.refined = True
            refined.append(piece)
    return refined


def _simplify_non_conflicts(
    merges: list[_Merge], ours: Sequence[bytes], only_if_no_alnum: bool
) -> None:
    """Join conflicts separated by < 4 lines (or, optionally, by lines w/o alnum)."""
    idx = 0
    while idx + 1 < len(merges):
        m, nxt = merges[idx], merges[idx + 1]
        begin, end = m.i1 + m.chg1, nxt.i1
        if (
            m.mode != _CONFLICT
            or nxt.mode != _CONFLICT
            or (
                end - begin > 3
                and (
                    not only_if_no_alnum
                    or any(_ALNUM.search(line) for line in ours[begin:end])
                )
            )
        ):
            idx += 1
            continue
        m.chg1 = nxt.i1 + nxt.chg1 - m.i1
        m.chg2 = nxt.i2 + nxt.chg2 - m.i2
        m.refined = m.refined or nxt.refined
        m.chg0 = max(m.i0 + m.chg0, nxt.i0 + nxt.chg0) - m.i0
        del merges[idx + 1]


def _assign_piece_bases(
    merges: list[_Merge],
    script1: list[Edit],
    script2: list[Edit],
    n_base: int,
) -> None:
    """Give refined conflict pieces the base lines between their anchors.

    git keeps the unrefined region's base for the first piece and leaves the
    others undefined (it never shows them); the workbench shows a base pane,
    so each piece gets the base lines between the nearest lines before and
    after it that neither side changed, clipped to the original region.
    """
    for m in merges:
        if not m.refined or m.mode != _CONFLICT:
            continue
        lo1, hi1 = _base_gap(script1, m.i1, m.i1 + m.chg1, n_base)
        lo2, hi2 = _base_gap(script2, m.i2, m.i2 + m.chg2, n_base)
        lo, hi = max(lo1, lo2, m.i0), min(hi1, hi2, m.i0 + m.chg0)
        if lo <= hi:
            m.i0, m.chg0 = lo, hi - lo


def _base_gap(
    script: list[Edit], lo: int, hi: int, n_base: int
) -> tuple[int, int]:
    """Base range between the unchanged postimage lines around [lo, hi)."""
    return _base_after_anchor(script, lo), _base_before_anchor(script, hi, n_base)


def _base_after_anchor(script: list[Edit], pos: int) -> int:
    """Base index right after the last unchanged postimage line before ``pos``."""
    starts = [entry[2] for entry in script]
    k = bisect_right(starts, pos - 1) - 1
    if k < 0:
        return pos
    b_i1, b_chg1, p_i2, p_chg2 = script[k]
    if pos - 1 < p_i2 + p_chg2:
        return b_i1
    return pos - ((p_i2 + p_chg2) - (b_i1 + b_chg1))


def _base_before_anchor(script: list[Edit], pos: int, n_base: int) -> int:
    """Base index of the first unchanged postimage line at or after ``pos``."""
    starts = [entry[2] for entry in script]
    k = bisect_right(starts, pos) - 1
    if k >= 0:
        b_i1, b_chg1, p_i2, p_chg2 = script[k]
        if pos < p_i2 + p_chg2 or (p_chg2 == 0 and pos == p_i2):
            return b_i1 + b_chg1
        return min(pos - ((p_i2 + p_chg2) - (b_i1 + b_chg1)), n_base)
    return min(pos, n_base)


def text_model(base: bytes, ours: bytes, theirs: bytes, rediff_shifted: bool) -> MergeResult:
    """The model of a file known only by its three texts: git's merge (histogram, zealous), its conflicts
    separated by lines without letters or digits joined (``coalesce_alnum``), as the engine models a file."""
    zealous = merge_lines(split_lines(base), split_lines(ours), split_lines(theirs), Algorithm.HISTOGRAM,
                          MergeLevel.ZEALOUS, rediff_shifted=rediff_shifted)
    return coalesce_alnum(zealous)
