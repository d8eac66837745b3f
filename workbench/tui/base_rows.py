"""Rows only the base has, when the base column is hidden: one line that says so.

Where both sides deleted a block of the base, the aligned layout gives each
deleted base line a row with nothing on dev or main.  With the base column
hidden those rows are blank: a one-line hunk would be drawn 40 rows tall.
``collapse_base_only`` replaces every such run (two rows or more) with one
``BothDeleted`` entry, drawn as "19 base lines deleted on both sides".
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.display.folds import Fold, RowRef, ViewEntry
from workbench.analysis.display.layout import AlignedRow, FileLayout


@dataclass(frozen=True, slots=True)
class BothDeleted(Fold):
    """Layout rows ``start``..``end`` that hold base lines only (both sides deleted them)."""


def _base_only(row: AlignedRow) -> bool:
    return row.base is not None and row.dev is None and row.main is None


def collapse_base_only(entries: tuple[ViewEntry, ...], layout: FileLayout) -> tuple[ViewEntry, ...]:
    """``entries`` with each run of base-only rows (two or more) as one ``BothDeleted``."""
    out: list[ViewEntry] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= 2:
            out.append(BothDeleted(run[0], run[-1] + 1))
        else:
            out.extend(RowRef(i) for i in run)
        run.clear()

    for entry in entries:
        if isinstance(entry, RowRef) and _base_only(layout.rows[entry.index]) and (not run or run[-1] + 1 == entry.index):
            run.append(entry.index)
            continue
        flush()
        if isinstance(entry, RowRef) and _base_only(layout.rows[entry.index]):
            run.append(entry.index)
        else:
            out.append(entry)
    flush()
    return tuple(out)
