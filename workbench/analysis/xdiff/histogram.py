"""xdiff's histogram diff (from JGit): anchor on the rarest common lines.

In a region, the longest run of matching lines whose rarest line is rarest
of all becomes the anchor; both sides of it are diffed the same way.  A
region whose common lines all occur more than 64 times falls back to the
classic (Myers) diff, exactly as git does.  Lines are numbered from 1 here,
as in git's implementation, so the comparisons line up one for one.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.xdiff.myers import classic_diff

_MAX_CHAIN_LENGTH = 64



def histogram_diff(ids1: Sequence[int], ids2: Sequence[int]) -> tuple[bytearray, bytearray]:
    """Return per-line "changed" flags for both sequences of class ids."""
    rchg1, rchg2 = bytearray(len(ids1)), bytearray(len(ids2))

    def fallback(line1: int, count1: int, line2: int, count2: int) -> None:
        sub1, sub2 = classic_diff(
            ids1[line1 - 1 : line1 - 1 + count1], ids2[line2 - 1 : line2 - 1 + count2]
        )
        rchg1[line1 - 1 : line1 - 1 + count1] = sub1
        rchg2[line2 - 1 : line2 - 1 + count2] = sub2

    stack = [(1, len(ids1), 1, len(ids2))]
    while stack:
        line1, count1, line2, count2 = stack.pop()
        if count1 <= 0 and count2 <= 0:
            continue
        if count1 <= 0:
            rchg2[line2 - 1 : line2 - 1 + count2] = b"\x01" * count2
            continue
        if count2 <= 0:
            rchg1[line1 - 1 : line1 - 1 + count1] = b"\x01" * count1
            continue
        lcs = _find_lcs(ids1, ids2, line1, count1, line2, count2)
        if lcs is None:
            fallback(line1, count1, line2, count2)
            continue
        begin1, end1, begin2, end2 = lcs
        if begin1 == 0 and begin2 == 0:
            rchg1[line1 - 1 : line1 - 1 + count1] = b"\x01" * count1
            rchg2[line2 - 1 : line2 - 1 + count2] = b"\x01" * count2
            continue
        last1, last2 = line1 + count1 - 1, line2 + count2 - 1
        stack.append((end1 + 1, last1 - end1, end2 + 1, last2 - end2))
        stack.append((line1, begin1 - line1, line2, begin2 - line2))
    return rchg1, rchg2


def _find_lcs(
    ids1: Sequence[int],
    ids2: Sequence[int],
    line1: int,
    count1: int,
    line2: int,
    count2: int,
) -> tuple[int, int, int, int] | None:
    """The anchor region (begin1, end1, begin2, end2), or None to fall back.

    (0, 0, 0, 0) means the region has no line in common.
    """
    last1, last2 = line1 + count1 - 1, line2 + count2 - 1
    # Occurrences per line value in A: first (lowest) line, chain to the next,
    # and the count, scanned bottom-up as git does.
    first: dict[int, int] = {}
    count: dict[int, int] = {}
    next_ptr = [0] * (count1 + 1)
    for ptr in range(last1, line1 - 1, -1):
        ident = ids1[ptr - 1]
        previous = first.get(ident)
        if previous is not None:
            next_ptr[ptr - line1] = previous
            count[ident] += 1
        else:
            count[ident] = 1
        first[ident] = ptr

    best_cnt = _MAX_CHAIN_LENGTH + 1
    has_common = False
    begin1 = end1 = begin2 = end2 = 0
    b_ptr = line2
    while b_ptr <= last2:
        b_next = b_ptr + 1
        ident = ids2[b_ptr - 1]
        rec_cnt = count.get(ident)
        if rec_cnt is not None:
            has_common = True
            if rec_cnt <= best_cnt:
                as_ = first[ident]
                while True:
                    np = next_ptr[as_ - line1]
                    bs = b_ptr
                    ae, be = as_, bs
                    rc = rec_cnt
                    while line1 < as_ and line2 < bs and ids1[as_ - 2] == ids2[bs - 2]:
                        as_ -= 1
                        bs -= 1
                        if rc > 1:
                            rc = min(rc, count[ids1[as_ - 1]])
                    while ae < last1 and be < last2 and ids1[ae] == ids2[be]:
                        ae += 1
                        be += 1
                        if rc > 1:
                            rc = min(rc, count[ids1[ae - 1]])
                    if b_next <= be:
                        b_next = be + 1
                    if end1 - begin1 < ae - as_ or rc < best_cnt:
                        begin1, end1, begin2, end2 = as_, ae, bs, be
                        best_cnt = rc
                    if np == 0:
                        break
                    while np <= ae:
                        np = next_ptr[np - line1]
                        if np == 0:
                            break
                    if np == 0:
                        break
                    as_ = np
        b_ptr = b_next

    if has_common and best_cnt > _MAX_CHAIN_LENGTH:
        return None
    return begin1, end1, begin2, end2
