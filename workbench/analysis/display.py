"""What front ends draw, computed once: aligned rows, folds, unified diffs, word changes.

Widgets must not compute diffs (they re-render on every scroll), so every
comparison the workbench shows is prepared here, in a worker, as plain
records: the side-by-side rows of a file's merge (base, dev and main
aligned line by line, with word-level changes), the folds that hide
agreed-upon context, and unified diffs (result against each side, a commit's
change to a file).  Line diffs use git's own algorithm (``xdiff``); the
word-level refinement inside a changed line uses difflib, which is plenty for
one line.  Texts are display strings: decoded, without line terminators,
tabs expanded, control characters spelled out so none reaches a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from enum import Enum

from workbench.analysis.model import Hunk
from workbench.analysis.xdiff import Algorithm, MergeResult, diff_lines
from workbench.analysis.xdiff.merge import CONFLICT, IDENTICAL, OURS_ONLY, THEIRS_ONLY

Span = tuple[int, int]
"""A 0-based half-open character range of a display text."""

TAB_SIZE = 4
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_WORD = re.compile(r"\w+|\s+|[^\w\s]")
_WORD_DIFF_LIMIT = 2000
"""Lines longer than this are marked changed as a whole (difflib is quadratic)."""


def _spell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def display_text(line: bytes) -> str:
    """One line as it may be shown: decoded, unterminated, tabs expanded, controls spelled out."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        text = line.decode("latin-1")
    if "\t" in text:
        text = text.expandtabs(TAB_SIZE)
    return _CONTROL.sub(_spell, text)


def word_changes(a: str, b: str) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The character ranges of ``a`` and of ``b`` that differ, at word granularity."""
    if a == b:
        return (), ()
    if len(a) > _WORD_DIFF_LIMIT or len(b) > _WORD_DIFF_LIMIT:
        return ((0, len(a)),) if a else (), ((0, len(b)),) if b else ()
    ta, tb = _WORD.findall(a), _WORD.findall(b)
    oa, ob = _offsets(ta), _offsets(tb)
    spans_a: list[Span] = []
    spans_b: list[Span] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            _add_span(spans_a, oa[i1], oa[i2])
        if j2 > j1:
            _add_span(spans_b, ob[j1], ob[j2])
    return tuple(spans_a), tuple(spans_b)


def _offsets(tokens: Sequence[str]) -> list[int]:
    out = [0]
    for token in tokens:
        out.append(out[-1] + len(token))
    return out


def _add_span(spans: list[Span], start: int, end: int) -> None:
    if spans and spans[-1][1] == start:
        spans[-1] = (spans[-1][0], end)
    else:
        spans.append((start, end))


# -- the side-by-side layout of a file's merge -------------------------------------


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


Triple = tuple[int | None, int | None, int | None]


def align3(base: Sequence[bytes], dev: Sequence[bytes], main: Sequence[bytes]) -> list[Triple]:
    """Rows of (base, dev, main) line indices, anchored on the base.

    A base line kept or replaced on a side shares its row with that side's
    line; lines a side inserted before a base line get rows of their own,
    paired with the other side's insertions at the same place.  Without a
    base (add/add), dev and main are aligned with each other directly.
    """
    if not base:
        return [(None, di, mi) for di, mi in align2(dev, main)]
    dev_at, dev_ins = _anchor(base, dev)
    main_at, main_ins = _anchor(base, main)
    rows: list[Triple] = []
    for j in range(len(base) + 1):
        extra_d, extra_m = dev_ins.get(j, []), main_ins.get(j, [])
        for k in range(max(len(extra_d), len(extra_m))):
            rows.append((None, extra_d[k] if k < len(extra_d) else None, extra_m[k] if k < len(extra_m) else None))
        if j < len(base):
            rows.append((j, dev_at[j], main_at[j]))
    return rows


def _anchor(base: Sequence[bytes], side: Sequence[bytes]) -> tuple[list[int | None], dict[int, list[int]]]:
    """For each base line, the side line in its row (None: deleted); plus insertions."""
    at: list[int | None] = [None] * len(base)
    inserted: dict[int, list[int]] = {}
    b = s = 0
    for change in (*diff_lines(base, side, Algorithm.HISTOGRAM), None):
        stop_b = change.i1 if change else len(base)
        while b < stop_b:
            at[b] = s
            b += 1
            s += 1
        if change is None:
            break
        paired = min(change.chg1, change.chg2)
        for k in range(paired):
            at[change.i1 + k] = change.i2 + k
        if change.chg2 > paired:
            inserted.setdefault(change.i1 + change.chg1, []).extend(range(change.i2 + paired, change.i2 + change.chg2))
        b = change.i1 + change.chg1
        s = change.i2 + change.chg2
    return at, inserted


def align2(a: Sequence[bytes], b: Sequence[bytes]) -> list[tuple[int | None, int | None]]:
    """Rows of (a, b) line indices: equal lines together, replaced lines paired in order."""
    rows: list[tuple[int | None, int | None]] = []
    i = j = 0
    for change in (*diff_lines(a, b, Algorithm.HISTOGRAM), None):
        stop = change.i1 if change else len(a)
        while i < stop:
            rows.append((i, j))
            i += 1
            j += 1
        if change is None:
            break
        for k in range(max(change.chg1, change.chg2)):
            rows.append(
                (change.i1 + k if k < change.chg1 else None, change.i2 + k if k < change.chg2 else None)
            )
        i, j = change.i1 + change.chg1, change.i2 + change.chg2
    return rows


# -- folding: what the view shows of a layout ---------------------------------------


@dataclass(frozen=True, slots=True)
class RowRef:
    """Show layout row ``index``."""

    index: int


@dataclass(frozen=True, slots=True)
class HunkHeader:
    """The title line above a hunk's rows."""

    hunk: int


@dataclass(frozen=True, slots=True)
class Fold:
    """Layout rows ``start``..``end`` (half-open) hidden behind one line."""

    start: int
    end: int
    dev_changes: int = 0
    """Clean dev-only change regions inside (merged without conflict)."""
    main_changes: int = 0
    both_changes: int = 0

    @property
    def lines(self) -> int:
        return self.end - self.start


ViewEntry = RowRef | HunkHeader | Fold


def fold_layout(
    layout: FileLayout, context: int = 3, expanded: frozenset[int] = frozenset(), expand_all: bool = False
) -> tuple[ViewEntry, ...]:
    """The lines a view shows: every hunk with ``context`` rows around it, the rest folded.

    A fold is identified by its ``start`` row; folds listed in ``expanded``
    (or all, with ``expand_all``) are shown in full.  A fold shorter than
    two rows is never made: hiding one line behind one line saves nothing.
    """
    starts = {start: index for index, (start, _end) in layout.hunk_rows.items()}
    keep = [expand_all] * len(layout.rows)
    for start, end in layout.hunk_rows.values():
        for i in range(max(0, start - context), min(len(layout.rows), end + context)):
            keep[i] = True
    entries: list[ViewEntry] = []
    i = 0
    total = len(layout.rows)
    while i < total:
        if i in starts:
            entries.append(HunkHeader(starts[i]))
        if keep[i]:
            entries.append(RowRef(i))
            i += 1
            continue
        j = i
        while j < total and not keep[j]:
            j += 1
        if j - i < 2 or i in expanded:
            entries.extend(RowRef(k) for k in range(i, j))
        else:
            entries.append(_fold(layout, i, j))
        i = j
    return tuple(entries)


def _fold(layout: FileLayout, start: int, end: int) -> Fold:
    counts = {Region.DEV: 0, Region.MAIN: 0, Region.BOTH: 0}
    previous: Region | None = None
    for row in layout.rows[start:end]:
        if row.region in counts and row.region is not previous:
            counts[row.region] += 1
        previous = row.region
    return Fold(start, end, counts[Region.DEV], counts[Region.MAIN], counts[Region.BOTH])


# -- unified diffs -------------------------------------------------------------------


class DiffKind(str, Enum):
    """A line of a unified diff."""

    HEADER = "header"
    CONTEXT = "context"
    DELETE = "delete"
    INSERT = "insert"


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One line of a unified diff; ``old``/``new`` are 1-based line numbers."""

    kind: DiffKind
    old: int | None
    new: int | None
    text: str
    changed: tuple[Span, ...] = ()


def unified_rows(a: Sequence[bytes], b: Sequence[bytes], context: int = 3) -> tuple[DiffRow, ...]:
    """``git diff``'s view of ``a`` -> ``b`` (histogram), with word changes in replaced lines."""
    changes = diff_lines(a, b, Algorithm.HISTOGRAM)
    if not changes:
        return ()
    groups: list[list] = [[changes[0]]]
    for change in changes[1:]:
        last = groups[-1][-1]
        if change.i1 - (last.i1 + last.chg1) <= 2 * context:
            groups[-1].append(change)
        else:
            groups.append([change])
    rows: list[DiffRow] = []
    for group in groups:
        first, last = group[0], group[-1]
        start_a = max(0, first.i1 - context)
        start_b = first.i2 - (first.i1 - start_a)
        end_a = min(len(a), last.i1 + last.chg1 + context)
        end_b = last.i2 + last.chg2 + (end_a - (last.i1 + last.chg1))
        rows.append(DiffRow(DiffKind.HEADER, None, None, _range_header(start_a, end_a, start_b, end_b)))
        i, j = start_a, start_b
        for change in group:
            while i < change.i1:
                rows.append(DiffRow(DiffKind.CONTEXT, i + 1, j + 1, display_text(a[i])))
                i += 1
                j += 1
            rows.extend(_replaced(a, b, change.i1, change.chg1, change.i2, change.chg2))
            i, j = change.i1 + change.chg1, change.i2 + change.chg2
        while i < end_a:
            rows.append(DiffRow(DiffKind.CONTEXT, i + 1, j + 1, display_text(a[i])))
            i += 1
            j += 1
    return tuple(rows)


def _replaced(a: Sequence[bytes], b: Sequence[bytes], i1: int, n1: int, i2: int, n2: int) -> list[DiffRow]:
    old = [display_text(a[i1 + k]) for k in range(n1)]
    new = [display_text(b[i2 + k]) for k in range(n2)]
    old_spans: list[tuple[Span, ...]] = [() for _ in old]
    new_spans: list[tuple[Span, ...]] = [() for _ in new]
    for k in range(min(n1, n2)):
        old_spans[k], new_spans[k] = word_changes(old[k], new[k])
    rows = [DiffRow(DiffKind.DELETE, i1 + k + 1, None, old[k], old_spans[k]) for k in range(n1)]
    rows += [DiffRow(DiffKind.INSERT, None, i2 + k + 1, new[k], new_spans[k]) for k in range(n2)]
    return rows


def _range_header(start_a: int, end_a: int, start_b: int, end_b: int) -> str:
    def part(start: int, end: int) -> str:
        count = end - start
        first = start + 1 if count else start
        return f"{first},{count}" if count != 1 else f"{first}"

    return f"@@ -{part(start_a, end_a)} +{part(start_b, end_b)} @@"


def diff_stats(rows: Sequence[DiffRow]) -> tuple[int, int]:
    """(lines deleted, lines inserted) in a unified diff."""
    deleted = sum(1 for r in rows if r.kind is DiffKind.DELETE)
    inserted = sum(1 for r in rows if r.kind is DiffKind.INSERT)
    return deleted, inserted
