"""The side-by-side layout of a file's merge: base, dev and main rows with word changes.

Rows follow the merge chunk by chunk, so the view shows the whole file with
every hunk where the merge put it (``align.py`` pairs the lines).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from workbench.analysis.display.align import align3
from workbench.analysis.display.safe_text import display_text
from workbench.analysis.display.word_diff import Span, word_changes
from workbench.analysis.model import Hunk
from workbench.analysis.xdiff import MergeResult
from workbench.analysis.xdiff.result import CONFLICT, IDENTICAL, OURS_ONLY, THEIRS_ONLY


class Region(str, Enum):
    """What happened to a run of lines in the merge."""

    SAME = "same"
    """Base, dev and main agree."""
    DEV = "dev"
    """Only dev changed it (merged cleanly)."""
    MAIN = "main"
    """Only main changed it (merged cleanly)."""
    BOTH = "both"
    """Both sides made the same change."""
    HUNK = "hunk"
    """Both sides changed it differently: a conflict of the plain merge."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One line of one side in a row: its 1-based number, text and word changes."""

    no: int
    text: str
    vs_other: tuple[Span, ...] = ()
    """What differs from the other side's line in the same row (dev vs main)."""
    vs_base: tuple[Span, ...] = ()
    """What differs from the base line in the same row."""


@dataclass(frozen=True, slots=True)
class AlignedRow:
    """A row of the side-by-side view: the base, dev and main lines that correspond."""

    region: Region
    hunk: int | None
    """The hunk's index (``Hunk.index``) for HUNK rows."""
    base: Cell | None
    dev: Cell | None
    main: Cell | None


@dataclass(frozen=True)
class FileLayout:
    """Every row of a file's merge, and where each hunk's rows are."""

    rows: tuple[AlignedRow, ...]
    hunk_rows: dict[int, tuple[int, int]]
    """Hunk index -> half-open range of row indices."""


def merge_layout(merge: MergeResult, hunks: Sequence[Hunk]) -> FileLayout:
    """Align base, dev and main over the whole file, chunk by chunk of the merge.

    Between chunks dev and main hold the same lines (the base's, where the
    base->dev script says so); inside a chunk the sides are aligned on the
    chunk's base lines (lines replaced on both sides share a row).  The
    merge's conflict chunks are the file's hunks, in order.
    """
    conflicts = [c for c in merge.chunks if c.mode == CONFLICT]
    if len(conflicts) != len(hunks):
        raise ValueError(f"{len(conflicts)} conflicts for {len(hunks)} hunks")
    if merge.whole is not None:
        return FileLayout(tuple(_whole_rows(merge)), {})
    to_base = _unchanged(merge.ours_script, len(merge.base), len(merge.ours))
    indices = iter(h.index for h in hunks)
    rows: list[AlignedRow] = []
    hunk_rows: dict[int, tuple[int, int]] = {}
    d = m = 0
    for chunk in merge.chunks:
        gap = chunk.i1 - d
        if gap < 0 or chunk.i2 - m != gap:
            raise ValueError("merge chunks do not tile dev and main")
        _same_rows(rows, merge, to_base, d, m, gap)
        base = merge.base[chunk.i0 : chunk.i0 + chunk.chg0]
        dev = merge.ours[chunk.i1 : chunk.i1 + chunk.chg1]
        main = merge.theirs[chunk.i2 : chunk.i2 + chunk.chg2]
        origin = (chunk.i0, chunk.i1, chunk.i2)
        start = len(rows)
        if chunk.mode == CONFLICT:
            index = next(indices)
            rows.extend(align_rows(Region.HUNK, index, base, dev, main, origin))
            hunk_rows[index] = (start, len(rows))
        else:
            region = {OURS_ONLY: Region.DEV, THEIRS_ONLY: Region.MAIN, IDENTICAL: Region.BOTH}.get(chunk.mode, Region.BOTH)
            rows.extend(align_rows(region, None, base, dev, main, origin))
        d, m = chunk.i1 + chunk.chg1, chunk.i2 + chunk.chg2
    if len(merge.ours) - d != len(merge.theirs) - m:
        raise ValueError("merge chunks do not tile dev and main")
    _same_rows(rows, merge, to_base, d, m, len(merge.ours) - d)
    return FileLayout(tuple(rows), hunk_rows)


def lost_rows(layout: FileLayout, hunks: Sequence[Hunk]) -> dict[str, frozenset[int]]:
    """Side -> the rows whose line of that side the hunk's result lost (``Hunk.lost_lines``).

    Computed once per file so painting a row is a set lookup, not a scan of ranges.
    """
    out: dict[str, frozenset[int]] = {}
    for side in ("dev", "main"):
        rows: set[int] = set()
        for hunk in hunks:
            ranges = hunk.lost_lines.side(side)
            span = layout.hunk_rows.get(hunk.index)
            if not ranges or span is None:
                continue
            for i in range(*span):
                cell: Cell | None = getattr(layout.rows[i], side)
                if cell is not None and any(r.start <= cell.no <= r.end for r in ranges):
                    rows.add(i)
        out[side] = frozenset(rows)
    return out


def with_edits(layout: FileLayout, edits: Sequence[Hunk]) -> FileLayout:
    """``layout`` with each edit hunk's rows found, so the view shows it after the conflicts' hunks.

    An edit lies in what git merged cleanly, so its rows are the merge's own
    rows holding its base, dev or main lines (the rows are not changed: only
    where the hunk is).  An edit that holds no line of either side (the
    result only added lines) sits before the row of dev's next line.
    """
    hunk_rows = dict(layout.hunk_rows)
    for edit in edits:
        found = [i for i, row in enumerate(layout.rows) if _in_edit(row, edit)]
        if found:
            hunk_rows[edit.index] = (found[0], found[-1] + 1)
            continue
        after = next((i for i, row in enumerate(layout.rows) if row.dev is not None and row.dev.no >= edit.dev.start),
                     len(layout.rows))
        hunk_rows[edit.index] = (min(after, max(len(layout.rows) - 1, 0)),) * 2
    return FileLayout(layout.rows, hunk_rows)


def _in_edit(row: AlignedRow, edit: Hunk) -> bool:
    return any(cell is not None and span.start <= cell.no <= span.end
               for cell, span in ((row.base, edit.base), (row.dev, edit.dev), (row.main, edit.main)))


def _unchanged(script: Sequence[tuple[int, int, int, int]], n_base: int, n_side: int) -> dict[int, int]:
    """Side line -> base line for every line a base->side edit script leaves alone."""
    out: dict[int, int] = {}
    b = s = 0
    for i1, chg1, i2, chg2 in (*script, (n_base, 0, n_side, 0)):
        while b < i1 and s < i2:
            out[s] = b
            b += 1
            s += 1
        b, s = i1 + chg1, i2 + chg2
    return out


def _whole_rows(merge: MergeResult) -> list[AlignedRow]:
    """One side left the base alone: the other side's changes, row by row."""
    changed = Region.MAIN if merge.whole == "theirs" else Region.DEV
    rows = align_rows(changed, None, merge.base, merge.ours, merge.theirs)
    return [
        AlignedRow(Region.SAME, None, r.base, r.dev, r.main)
        if r.base and r.dev and r.main and r.base.text == r.dev.text == r.main.text
        else r
        for r in rows
    ]


def hunks_layout(hunks: Sequence[Hunk]) -> FileLayout:
    """Rows for the hunks alone, when the file's merge is not available."""
    rows: list[AlignedRow] = []
    hunk_rows: dict[int, tuple[int, int]] = {}
    for hunk in hunks:
        start = len(rows)
        origin = (hunk.base.start - 1, hunk.dev.start - 1, hunk.main.start - 1)
        rows.extend(align_rows(Region.HUNK, hunk.index, hunk.base_text, hunk.dev_text, hunk.main_text, origin))
        hunk_rows[hunk.index] = (start, len(rows))
    return FileLayout(tuple(rows), hunk_rows)


def _same_rows(
    rows: list[AlignedRow], merge: MergeResult, to_base: dict[int, int], d: int, m: int, count: int
) -> None:
    for k in range(count):
        text = display_text(merge.ours[d + k])
        b = to_base.get(d + k)
        base = Cell(b + 1, text) if b is not None else None
        rows.append(AlignedRow(Region.SAME, None, base, Cell(d + k + 1, text), Cell(m + k + 1, text)))


def align_rows(
    region: Region,
    hunk: int | None,
    base: Sequence[bytes],
    dev: Sequence[bytes],
    main: Sequence[bytes],
    origin: tuple[int, int, int] = (0, 0, 0),
) -> list[AlignedRow]:
    """Rows for one region, each with word-level changes against its neighbours.

    ``origin`` holds the 0-based line where each text starts in its side,
    so cells carry real line numbers.
    """
    rows = []
    for bi, di, mi in align3(base, dev, main):
        btext = display_text(base[bi]) if bi is not None else None
        dtext = display_text(dev[di]) if di is not None else None
        mtext = display_text(main[mi]) if mi is not None else None
        d_other, m_other = word_changes(dtext, mtext) if dtext is not None and mtext is not None else ((), ())
        d_base, b_dev = word_changes(dtext, btext) if dtext is not None and btext is not None else ((), ())
        m_base, b_main = word_changes(mtext, btext) if mtext is not None and btext is not None else ((), ())
        rows.append(
            AlignedRow(
                region,
                hunk,
                None if bi is None or btext is None else Cell(origin[0] + bi + 1, btext, (), _merge_spans(b_dev, b_main)),
                None if di is None or dtext is None else Cell(origin[1] + di + 1, dtext, d_other, d_base),
                None if mi is None or mtext is None else Cell(origin[2] + mi + 1, mtext, m_other, m_base),
            )
        )
    return rows


def _merge_spans(a: tuple[Span, ...], b: tuple[Span, ...]) -> tuple[Span, ...]:
    out: list[Span] = []
    for start, end in sorted(a + b):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return tuple(out)
