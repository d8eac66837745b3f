"""Three-way merge of line lists, as git's xdl_merge computes it.

The two edit scripts (base->ours, base->theirs) are walked together;
overlapping changes become conflicts unless identical.  At the "zealous"
levels each conflict is re-diffed between ours and theirs so that lines both
sides agree on move out of it, and conflicts fewer than four lines apart
(or, at "zealous_alnum", separated only by lines without letters or digits)
are joined.  ``render`` writes the result the way xdiff's output buffer does,
including conflict markers, ``-X ours/theirs/union`` and CRLF handling.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum

from workbench.analysis.xdiff.diff import Algorithm, diff_ids
from workbench.analysis.xdiff.lines import classify

_ALNUM = re.compile(rb"[A-Za-z0-9]")


class Level(IntEnum):
    """How hard xdiff tries to shrink conflicts (git merge: ZEALOUS)."""

    MINIMAL = 0
    EAGER = 1
    ZEALOUS = 2
    ZEALOUS_ALNUM = 3


class Style(str, Enum):
    """Conflict marker style (``merge.conflictStyle``)."""

    MERGE = "merge"
    DIFF3 = "diff3"
    ZDIFF3 = "zdiff3"


class Favor(IntEnum):
    """How conflicts are resolved when rendering (``-X ours/theirs``, union)."""

    NONE = 0
    OURS = 1
    THEIRS = 2
    UNION = 3


CONFLICT, OURS_ONLY, THEIRS_ONLY, IDENTICAL = 0, 1, 2, 4


@dataclass(slots=True)
class _Merge:
    mode: int
    i0: int
    chg0: int
    i1: int
    chg1: int
    i2: int
    chg2: int
    refined: bool = False


@dataclass(frozen=True, slots=True)
class MergeChunk:
    """One changed region: ``mode`` 0 conflict, 1 ours changed, 2 theirs, 4 same.

    ``i0/chg0`` index the base, ``i1/chg1`` ours, ``i2/chg2`` theirs (0-based).
    """

    mode: int
    i0: int
    chg0: int
    i1: int
    chg1: int
    i2: int
    chg2: int


@dataclass(frozen=True)
class MergeResult:
    """The merge's regions over the three line lists, ready to render."""

    base: tuple[bytes, ...]
    ours: tuple[bytes, ...]
    theirs: tuple[bytes, ...]
    chunks: tuple[MergeChunk, ...]
    style: Style = Style.MERGE
    whole: str | None = None
    """'ours' or 'theirs' when one side did not change the base at all."""
    ours_script: tuple[tuple[int, int, int, int], ...] = field(default=(), repr=False)
    theirs_script: tuple[tuple[int, int, int, int], ...] = field(default=(), repr=False)

    @property
    def conflicts(self) -> tuple[MergeChunk, ...]:
        return tuple(c for c in self.chunks if c.mode == CONFLICT)

    def render(
        self,
        favor: Favor = Favor.NONE,
        labels: tuple[str | None, str | None, str | None] = (None, None, None),
        marker_size: int = 7,
    ) -> bytes:
        """The merged file; ``labels`` are (ours, theirs, base) marker names."""
        if self.whole == "theirs":
            return b"".join(self.theirs)
        if self.whole == "ours":
            return b"".join(self.ours)
        out: list[bytes] = []
        pos = 0
        for chunk in self.chunks:
            mode = favor.value if (favor and chunk.mode == CONFLICT) else chunk.mode
            if mode == CONFLICT:
                out.append(_copy(self.ours, pos, chunk.i1 - pos))
                out.append(self.conflict_block(chunk, labels, marker_size))
            elif mode & 3:
                out.append(_copy(self.ours, pos, chunk.i1 - pos))
                if mode & 1:
                    cr = needs_cr(self.base, self.ours, self.theirs, chunk.i1, chunk.i2)
                    out.append(_copy(self.ours, chunk.i1, chunk.chg1, cr, bool(mode & 2)))
                if mode & 2:
                    out.append(_copy(self.theirs, chunk.i2, chunk.chg2))
            else:
                continue
            pos = chunk.i1 + chunk.chg1
        out.append(_copy(self.ours, pos, len(self.ours) - pos))
        return b"".join(out)

    def conflict_block(
        self,
        chunk: MergeChunk,
        labels: tuple[str | None, str | None, str | None],
        marker_size: int,
    ) -> bytes:
        """The marker block git writes for one conflict chunk."""
        cr = needs_cr(self.base, self.ours, self.theirs, chunk.i1, chunk.i2)
        eol = b"\r\n" if cr else b"\n"
        ours_label, theirs_label, base_label = labels
        parts = [_marker(b"<", marker_size, ours_label, eol)]
        parts.append(_copy(self.ours, chunk.i1, chunk.chg1, cr, True))
        if self.style is not Style.MERGE:
            parts.append(_marker(b"|", marker_size, base_label, eol))
            parts.append(_copy(self.base, chunk.i0, chunk.chg0, cr, True))
        parts.append(_marker(b"=", marker_size, None, eol))
        parts.append(_copy(self.theirs, chunk.i2, chunk.chg2, cr, True))
        parts.append(_marker(b">", marker_size, theirs_label, eol))
        return b"".join(parts)


def _marker(char: bytes, size: int, label: str | None, eol: bytes) -> bytes:
    text = char * size
    if label is not None:
        text += b" " + label.encode("utf-8", "surrogateescape")
    return text + eol


def _copy(
    lines: Sequence[bytes], start: int, count: int, cr: bool = False, add_nl: bool = False
) -> bytes:
    """xdl_recs_copy: lines, plus a newline when the last one lacks it and asked."""
    if count < 1:
        return b""
    data = b"".join(lines[start : start + count])
    if add_nl and not data.endswith(b"\n"):
        data += b"\r\n" if cr else b"\n"
    return data


def _eol_crlf(lines: Sequence[bytes], i: int) -> int:
    """1 if line i ends in CRLF, 0 if LF, -1 if it cannot be told (xdiff's rule)."""
    n = len(lines)
    if i < n - 1:
        return int(len(lines[i]) > 1 and lines[i][-2:-1] == b"\r")
    if n == 0:
        return -1
    line = lines[i]
    if line.endswith(b"\n"):
        return int(len(line) > 1 and line[-2:-1] == b"\r")
    if i == 0:
        return -1
    prev = lines[i - 1]
    return int(len(prev) > 1 and prev[-2:-1] == b"\r")


def needs_cr(
    base: Sequence[bytes], ours: Sequence[bytes], theirs: Sequence[bytes], i1: int, i2: int
) -> bool:
    """Whether text added around a conflict at (i1, i2) should end in CRLF."""
    flag = _eol_crlf(ours, i1 - 1 if i1 else 0)
    if flag:
        flag = _eol_crlf(theirs, i2 - 1 if i2 else 0)
    if flag:
        flag = _eol_crlf(base, 0)
    return flag > 0


def merge_lines(
    base: Sequence[bytes],
    ours: Sequence[bytes],
    theirs: Sequence[bytes],
    algorithm: Algorithm = Algorithm.HISTOGRAM,
    level: Level = Level.ZEALOUS,
    style: Style = Style.MERGE,
    rediff_shifted: bool = False,
    scripts: tuple[Sequence[tuple[int, int, int, int]], Sequence[tuple[int, int, int, int]]] | None = None,
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

    if style is not Style.MERGE and level > Level.EAGER:
        level = Level.EAGER
    merges = _combine(script1, script2, ours_t, theirs_t, len(base_t), level)
    if style is Style.ZDIFF3:
        _trim_conflicts(merges, ours_t, theirs_t)
    elif level >= Level.ZEALOUS:
        merges = _refine_conflicts(merges, ours_t, theirs_t, algorithm, rediff_shifted)
        _simplify_non_conflicts(merges, ours_t, level > Level.ZEALOUS)
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
    merges: list[_Merge], mode: int, i0: int, chg0: int, i1: int, chg1: int, i2: int, chg2: int
) -> None:
    if merges:
        last = merges[-1]
        if i1 <= last.i1 + last.chg1 or i2 <= last.i2 + last.chg2:
            if mode != last.mode:
                last.mode = CONFLICT
            last.chg0 = i0 + chg0 - last.i0
            last.chg1 = i1 + chg1 - last.i1
            last.chg2 = i2 + chg2 - last.i2
            return
    merges.append(_Merge(mode, i0, chg0, i1, chg1, i2, chg2))


def _combine(
    script1: list[tuple[int, int, int, int]],
    script2: list[tuple[int, int, int, int]],
    ours: Sequence[bytes],
    theirs: Sequence[bytes],
    n_base: int,
    level: Level,
) -> list[_Merge]:
    """Walk both scripts; overlapping changes conflict unless identical."""
    merges: list[_Merge] = []
    k1 = k2 = 0
    while k1 < len(script1) and k2 < len(script2):
        a_i1, a_chg1, a_i2, a_chg2 = script1[k1]
        b_i1, b_chg1, b_i2, b_chg2 = script2[k2]
        if a_i1 + a_chg1 < b_i1:
            _append(merges, OURS_ONLY, a_i1, a_chg1, a_i2, a_chg2, b_i2 - b_i1 + a_i1, a_chg1)
            k1 += 1
            continue
        if b_i1 + b_chg1 < a_i1:
            _append(merges, THEIRS_ONLY, b_i1, b_chg1, a_i2 - a_i1 + b_i1, b_chg1, b_i2, b_chg2)
            k2 += 1
            continue
        if (
            level == Level.MINIMAL
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
            _append(merges, CONFLICT, i0, chg0, i1, chg1, i2, chg2)
        end1, end2 = a_i1 + a_chg1, b_i1 + b_chg1
        if end1 >= end2:
            k2 += 1
        if end2 >= end1:
            k1 += 1
    delta2 = len(theirs) - n_base
    for a_i1, a_chg1, a_i2, a_chg2 in script1[k1:]:
        _append(merges, OURS_ONLY, a_i1, a_chg1, a_i2, a_chg2, a_i1 + delta2, a_chg1)
    delta1 = len(ours) - n_base
    for b_i1, b_chg1, b_i2, b_chg2 in script2[k2:]:
        _append(merges, THEIRS_ONLY, b_i1, b_chg1, b_i1 + delta1, b_chg1, b_i2, b_chg2)
    return merges


def _trim_conflicts(merges: list[_Merge], ours: Sequence[bytes], theirs: Sequence[bytes]) -> None:
    """zdiff3: move lines common to both sides out of each conflict's ends."""
    for m in merges:
        if m.mode != CONFLICT:
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
        if m.mode != CONFLICT or m.chg1 == 0 or m.chg2 == 0:
            refined.append(m)
            continue
        part1 = ours[m.i1 : m.i1 + m.chg1]
        part2 = theirs[m.i2 : m.i2 + m.chg2]
        classes = classify(part1, part2)
        script = diff_ids(classes.ids1, classes.ids2, algorithm, rediff_shifted)
        if not script:
            m.mode = IDENTICAL
            refined.append(m)
            continue
        base_i1, base_i2 = m.i1, m.i2
        for n, (x_i1, x_chg1, x_i2, x_chg2) in enumerate(script):
            piece = m if n == 0 else _Merge(CONFLICT, m.i0, m.chg0, 0, 0, 0, 0)
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
            m.mode != CONFLICT
            or nxt.mode != CONFLICT
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
    script1: list[tuple[int, int, int, int]],
    script2: list[tuple[int, int, int, int]],
    n_base: int,
) -> None:
    """Give refined conflict pieces the base lines between their anchors.

    git keeps the unrefined region's base for the first piece and leaves the
    others undefined (it never shows them); the workbench shows a base pane,
    so each piece gets the base lines between the nearest lines before and
    after it that neither side changed, clipped to the original region.
    """
    for m in merges:
        if not m.refined or m.mode != CONFLICT:
            continue
        lo1, hi1 = _base_gap(script1, m.i1, m.i1 + m.chg1, n_base)
        lo2, hi2 = _base_gap(script2, m.i2, m.i2 + m.chg2, n_base)
        lo, hi = max(lo1, lo2, m.i0), min(hi1, hi2, m.i0 + m.chg0)
        if lo <= hi:
            m.i0, m.chg0 = lo, hi - lo


def _base_gap(
    script: list[tuple[int, int, int, int]], lo: int, hi: int, n_base: int
) -> tuple[int, int]:
    """Base range between the unchanged postimage lines around [lo, hi)."""
    return _base_after_anchor(script, lo), _base_before_anchor(script, hi, n_base)


def _base_after_anchor(script: list[tuple[int, int, int, int]], pos: int) -> int:
    """Base index right after the last unchanged postimage line before ``pos``."""
    starts = [entry[2] for entry in script]
    k = bisect_right(starts, pos - 1) - 1
    if k < 0:
        return pos
    b_i1, b_chg1, p_i2, p_chg2 = script[k]
    if pos - 1 < p_i2 + p_chg2:
        return b_i1
    return pos - ((p_i2 + p_chg2) - (b_i1 + b_chg1))


def _base_before_anchor(script: list[tuple[int, int, int, int]], pos: int, n_base: int) -> int:
    """Base index of the first unchanged postimage line at or after ``pos``."""
    starts = [entry[2] for entry in script]
    k = bisect_right(starts, pos) - 1
    if k >= 0:
        b_i1, b_chg1, p_i2, p_chg2 = script[k]
        if pos < p_i2 + p_chg2 or (p_chg2 == 0 and pos == p_i2):
            return b_i1 + b_chg1
        return min(pos - ((p_i2 + p_chg2) - (b_i1 + b_chg1)), n_base)
    return min(pos, n_base)
