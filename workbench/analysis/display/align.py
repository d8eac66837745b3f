"""Line alignment of base, dev and main: which lines share a row of the side-by-side view.

Kept apart from the rows themselves because it is pure index work over
git's own line diff (``xdiff``, histogram), with no display text involved.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.xdiff import Algorithm, diff_lines

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
