"""The hunk view's screen lines: side by side or inline (unified), each optionally soft-wrapped.

The view's entries (``folds.py``: rows, hunk headers, folds) become screen
lines here.  Side by side, a row is one line; inline, a run of rows that
differ becomes its dev lines, then its main lines (the base's first, when
shown), like a unified diff, and rows the sides agree on stay one line.
With wrap on, a line whose text does not fit takes as many lines as it
needs.  Pure functions of the entries, the layout and the width, so the
widget only paints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from workbench.analysis.display.folds import HunkHeader, RowRef, ViewEntry
from workbench.analysis.display.layout import AlignedRow, Cell, FileLayout, Region

MIN_SPLIT_TEXT = 40
"""Side by side needs this many characters of text per side; narrower, ``auto`` shows inline."""


class Layout(str, Enum):
    """How the hunk view lays out the sides."""

    AUTO = "auto"
    """Side by side when each side gets ``MIN_SPLIT_TEXT`` characters, else inline."""
    SPLIT = "split"
    INLINE = "inline"


@dataclass(frozen=True, slots=True)
class ScreenLine:
    """One line on screen: an entry, the side it shows (inline only) and which wrapped piece."""

    entry: int
    side: str | None = None
    """Inline: "base", "dev" or "main" for a line of one side; None for a row both sides agree on."""
    part: int = 0


def split_columns(width: int, show_base: bool) -> list[tuple[str, int]]:
    """The side-by-side columns in ``width`` cells: one cell of cursor marker, one between columns."""
    sides = ["base", "dev", "main"] if show_base else ["dev", "main"]
    available = max(0, width - 1 - (len(sides) - 1))
    each = available // len(sides)
    widths = [each] * len(sides)
    widths[-1] += available - each * len(sides)
    return list(zip(sides, widths, strict=True))


def resolved_layout(layout: Layout, width: int, gutter: int, show_base: bool) -> Layout:
    """``AUTO`` made concrete for a view ``width`` cells wide."""
    if layout is not Layout.AUTO:
        return layout
    narrowest = min(w for _side, w in split_columns(width, show_base)) - gutter
    return Layout.SPLIT if narrowest >= MIN_SPLIT_TEXT else Layout.INLINE


def differs(row: AlignedRow) -> bool:
    """Whether inline shows the row's sides on separate lines."""
    if row.dev is None or row.main is None:
        return True
    return row.region is Region.HUNK or row.dev.text != row.main.text


def shared_cell(row: AlignedRow) -> tuple[str, Cell] | None:
    """The side whose cell an agreed row shows inline."""
    if row.dev is not None:
        return "dev", row.dev
    if row.main is not None:
        return "main", row.main
    return None


def screen_lines(entries: Sequence[ViewEntry], layout: FileLayout | None, inline: bool, show_base: bool,
                 wrap_width: int | None, split_widths: dict[str, int]) -> list[ScreenLine]:
    """Every line on screen, in order (``wrap_width``: inline text width when wrapping, else None)."""
    lines: list[ScreenLine] = []
    rows = layout.rows if layout is not None else ()
    i = 0
    while i < len(entries):
        entry = entries[i]
        if not isinstance(entry, RowRef):
            lines.append(ScreenLine(i))
            i += 1
            continue
        row = rows[entry.index]
        if not inline:
            parts = _split_parts(row, split_widths, show_base) if wrap_width is not None else 1
            lines.extend(ScreenLine(i, None, k) for k in range(parts))
            i += 1
            continue
        if not differs(row):
            cell = shared_cell(row)
            lines.extend(ScreenLine(i, None, k) for k in range(_parts(cell[1] if cell else None, wrap_width)))
            i += 1
            continue
        run_end = i
        while (run_end < len(entries) and isinstance(entries[run_end], RowRef)
               and _same_run(rows[entries[run_end].index], row)):  # type: ignore[union-attr]
            run_end += 1
        sides = ("base", "dev", "main") if show_base and row.region is Region.HUNK else ("dev", "main")
        for side in sides:
            for j in range(i, run_end):
                cell = getattr(rows[entries[j].index], side)  # type: ignore[union-attr]
                if cell is not None:
                    lines.extend(ScreenLine(j, side, k) for k in range(_parts(cell, wrap_width)))
        i = run_end
    return lines


def _same_run(candidate: AlignedRow, first: AlignedRow) -> bool:
    return candidate.region is first.region and candidate.hunk == first.hunk and differs(candidate)


def _parts(cell: Cell | None, width: int | None) -> int:
    if cell is None or width is None or width <= 0:
        return 1
    return max(1, -(-len(cell.text) // width))


def _split_parts(row: AlignedRow, widths: dict[str, int], show_base: bool) -> int:
    sides = ("base", "dev", "main") if show_base else ("dev", "main")
    return max(_parts(getattr(row, side), widths.get(side)) for side in sides)


def first_difference(row: AlignedRow, show_base: bool) -> int | None:
    """The first character where the row's sides differ (what → jumps to), or None."""
    starts: list[int] = []
    for side in ("dev", "main"):
        cell: Cell | None = getattr(row, side)
        if cell is not None:
            spans = cell.vs_base if show_base else cell.vs_other
            starts.extend(start for start, _stop in spans)
    return min(starts) if starts else None


def hidden_difference(layout: FileLayout, entry: ViewEntry, show_base: bool, x_offset: int, room: int) -> int | None:
    """Where text must start so the first difference of ``entry`` (a row, or a header's hunk) shows.

    None when it already shows in the ``room`` characters from ``x_offset``, or there is none.
    """
    if isinstance(entry, RowRef):
        rows = [layout.rows[entry.index]]
    elif isinstance(entry, HunkHeader) and entry.hunk in layout.hunk_rows:
        start, end = layout.hunk_rows[entry.hunk]
        rows = list(layout.rows[start:end])
    else:
        return None
    firsts = [f for f in (first_difference(row, show_base) for row in rows) if f is not None]
    if not firsts:
        return None
    first = min(firsts)
    if x_offset <= first < x_offset + max(1, room):
        return None
    return max(0, first - 8)


def cut_spans(spans: tuple[tuple[int, int], ...], start: int, stop: int) -> list[tuple[int, int]]:
    """Word spans within ``[start, stop)``, shifted to start at 0 (a wrapped piece)."""
    return [(max(a, start) - start, min(b, stop) - start) for a, b in spans if b > start and a < stop]


def cut_kinds(spans: tuple[tuple[int, int, str], ...], start: int, stop: int) -> list[tuple[int, int, str]]:
    """Syntax spans within ``[start, stop)``, shifted likewise."""
    return [(max(a, start) - start, min(b, stop) - start, kind) for a, b, kind in spans if b > start and a < stop]
