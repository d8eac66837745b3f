"""Two-way line diff: the edit script git computes for two texts."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from workbench.analysis.xdiff.compact import build_script, change_compact
from workbench.analysis.xdiff.histogram import histogram_diff
from workbench.analysis.xdiff.lines import classify
from workbench.analysis.xdiff.myers import classic_diff
from workbench.git.types import Edit


class Algorithm(str, Enum):
    """Which xdiff search to run (``git merge`` uses histogram)."""

    MYERS = "myers"
    HISTOGRAM = "histogram"


def diff_ids(
    ids1: Sequence[int],
    ids2: Sequence[int],
    algorithm: Algorithm,
    rediff_shifted: bool = False,
) -> list[Edit]:
    """Edit script over class ids; ``rediff_shifted`` mimics git >= 2.54."""
    if algorithm is Algorithm.HISTOGRAM:
        rchg1, rchg2 = histogram_diff(ids1, ids2)
    else:
        rchg1, rchg2 = classic_diff(ids1, ids2)

    def rediff_forward(start1: int, count1: int, start2: int, count2: int) -> None:
        _classic_into(ids1, rchg1, start1, count1, ids2, rchg2, start2, count2)

    def rediff_backward(start2: int, count2: int, start1: int, count1: int) -> None:
        _classic_into(ids1, rchg1, start1, count1, ids2, rchg2, start2, count2)

    use_rediff = rediff_shifted and algorithm is Algorithm.HISTOGRAM
    change_compact(rchg1, ids1, rchg2, ids2, rediff_forward if use_rediff else None)
    change_compact(rchg2, ids2, rchg1, ids1, rediff_backward if use_rediff else None)
    return build_script(rchg1, rchg2)


def _classic_into(
    ids1: Sequence[int],
    rchg1: bytearray,
    start1: int,
    count1: int,
    ids2: Sequence[int],
    rchg2: bytearray,
    start2: int,
    count2: int,
) -> None:
    sub1, sub2 = classic_diff(ids1[start1 : start1 + count1], ids2[start2 : start2 + count2])
    rchg1[start1 : start1 + count1] = sub1
    rchg2[start2 : start2 + count2] = sub2


def diff_lines(
    a: Sequence[bytes],
    b: Sequence[bytes],
    algorithm: Algorithm = Algorithm.HISTOGRAM,
    rediff_shifted: bool = False,
) -> tuple[Edit, ...]:
    """Git's edit script from lines ``a`` to lines ``b`` (no whitespace options)."""
    classes = classify(a, b)
    return tuple(diff_ids(classes.ids1, classes.ids2, algorithm, rediff_shifted))
