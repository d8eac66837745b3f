"""Unified diffs as ``git diff`` shows them (histogram), with word changes in replaced lines.

For the views that compare two texts rather than three: the result
against each side, and a commit's change to a file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from workbench.analysis.display.safe_text import display_text
from workbench.analysis.display.word_diff import Span, word_changes
from workbench.analysis.xdiff import Algorithm, diff_lines


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
    groups: list[list[Any]] = [[changes[0]]]
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

