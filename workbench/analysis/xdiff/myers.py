"""xdiff's "classic" diff: Myers' O(ND) search with xdiff's heuristics.

Before searching, xdiff trims the common prefix and suffix and discards
lines that cannot match (or match too often, when they sit among unmatched
lines); the search then runs on what is left, and gives up on optimality
once the edit cost grows past a bound.  Each of those steps changes which of
several equally short scripts comes out, so all of them are reproduced.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from workbench.analysis.xdiff.lines import bogosqrt

_MAX_COST_MIN = 256
_HEUR_MIN_COST = 256
_LINE_MAX = sys.maxsize
_SNAKE_CNT = 20
_K_HEUR = 4
_MAX_EQLIMIT = 1024
_SIMSCAN_WINDOW = 100
_KPDIS_RUN = 4


def classic_diff(ids1: Sequence[int], ids2: Sequence[int]) -> tuple[bytearray, bytearray]:
    """Return per-line "changed" flags for both sequences of class ids."""
    n1, n2 = len(ids1), len(ids2)
    rchg1, rchg2 = bytearray(n1), bytearray(n2)

    lim = min(n1, n2)
    start = 0
    while start < lim and ids1[start] == ids2[start]:
        start += 1
    lim -= start
    tail = 0
    while tail < lim and ids1[n1 - 1 - tail] == ids2[n2 - 1 - tail]:
        tail += 1
    end1, end2 = n1 - tail - 1, n2 - tail - 1

    count1, count2 = Counter(ids1), Counter(ids2)
    kept1 = _keep_records(ids1, start, end1, count2, min(bogosqrt(n1), _MAX_EQLIMIT), rchg1)
    kept2 = _keep_records(ids2, start, end2, count1, min(bogosqrt(n2), _MAX_EQLIMIT), rchg2)
    _compare(ids1, kept1, rchg1, ids2, kept2, rchg2)
    return rchg1, rchg2


def _keep_records(
    ids: Sequence[int],
    start: int,
    end: int,
    other_count: Counter[int],
    mlim: int,
    rchg: bytearray,
) -> list[int]:
    """Discard lines with no match (or too many, amid unmatched ones) as changed."""
    dis = bytearray(len(ids) + 1)
    for i in range(start, end + 1):
        nm = other_count.get(ids[i], 0)
        dis[i] = 0 if nm == 0 else (2 if nm >= mlim else 1)
    kept: list[int] = []
    for i in range(start, end + 1):
        if dis[i] == 1 or (dis[i] == 2 and not _clean_mmatch(dis, i, start, end)):
            kept.append(i)
        else:
            rchg[i] = 1
    return kept


def _clean_mmatch(dis: bytearray, i: int, s: int, e: int) -> bool:
    """True when a multi-match line sits in a run dominated by unmatched lines."""
    if i - s > _SIMSCAN_WINDOW:
        s = i - _SIMSCAN_WINDOW
    if e - i > _SIMSCAN_WINDOW:
        e = i + _SIMSCAN_WINDOW
    rdis0, rpdis0, r = 0, 1, 1
    while i - r >= s:
        flag = dis[i - r]
        if flag == 0:
            rdis0 += 1
        elif flag == 2:
            rpdis0 += 1
        else:
            break
        r += 1
    if rdis0 == 0:
        return False
    rdis1, rpdis1, r = 0, 1, 1
    while i + r <= e:
        flag = dis[i + r]
        if flag == 0:
            rdis1 += 1
        elif flag == 2:
            rpdis1 += 1
        else:
            break
        r += 1
    if rdis1 == 0:
        return False
    rdis1 += rdis0
    rpdis1 += rpdis0
    return rpdis1 * _KPDIS_RUN < rpdis1 + rdis1


def _compare(
    ids1: Sequence[int],
    kept1: list[int],
    rchg1: bytearray,
    ids2: Sequence[int],
    kept2: list[int],
    rchg2: bytearray,
) -> None:
    """Divide and conquer over the kept records, marking changed lines."""
    ha1 = [ids1[i] for i in kept1]
    ha2 = [ids2[i] for i in kept2]
    big1, big2 = len(ha1), len(ha2)
    ndiags = big1 + big2 + 3
    koff = big2 + 1
    kvdf = [0] * ndiags
    kvdb = [0] * ndiags
    mxcost = max(bogosqrt(ndiags), _MAX_COST_MIN)
    stack = [(0, big1, 0, big2, False)]
    while stack:
        off1, lim1, off2, lim2, need_min = stack.pop()
        while off1 < lim1 and off2 < lim2 and ha1[off1] == ha2[off2]:
            off1 += 1
            off2 += 1
        while off1 < lim1 and off2 < lim2 and ha1[lim1 - 1] == ha2[lim2 - 1]:
            lim1 -= 1
            lim2 -= 1
        if off1 == lim1:
            for k in range(off2, lim2):
                rchg2[kept2[k]] = 1
        elif off2 == lim2:
            for k in range(off1, lim1):
                rchg1[kept1[k]] = 1
        else:
            i1, i2, min_lo, min_hi = _split(
                ha1, off1, lim1, ha2, off2, lim2, kvdf, kvdb, koff, need_min, mxcost
            )
            stack.append((i1, lim1, i2, lim2, min_hi))
            stack.append((off1, i1, off2, i2, min_lo))


def _split(
    ha1: list[int],
    off1: int,
    lim1: int,
    ha2: list[int],
    off2: int,
    lim2: int,
    kvdf: list[int],
    kvdb: list[int],
    koff: int,
    need_min: bool,
    mxcost: int,
) -> tuple[int, int, bool, bool]:
    """Find where the forward and backward searches meet (or a good-enough point)."""
    dmin, dmax = off1 - lim2, lim1 - off2
    fmid, bmid = off1 - off2, lim1 - lim2
    odd = (fmid - bmid) & 1
    fmin = fmax = fmid
    bmin = bmax = bmid
    kvdf[fmid + koff] = off1
    kvdb[bmid + koff] = lim1
    ec = 0
    while True:
        ec += 1
        got_snake = False
        if fmin > dmin:
            fmin -= 1
            kvdf[fmin - 1 + koff] = -1
        else:
            fmin += 1
        if fmax < dmax:
            fmax += 1
            kvdf[fmax + 1 + koff] = -1
        else:
            fmax -= 1
        for d in range(fmax, fmin - 1, -2):
            lo, hi = kvdf[d - 1 + koff], kvdf[d + 1 + koff]
            i1 = lo + 1 if lo >= hi else hi
            prev1 = i1
            i2 = i1 - d
            while i1 < lim1 and i2 < lim2 and ha1[i1] == ha2[i2]:
                i1 += 1
                i2 += 1
            if i1 - prev1 > _SNAKE_CNT:
                got_snake = True
            kvdf[d + koff] = i1
            if odd and bmin <= d <= bmax and kvdb[d + koff] <= i1:
                return i1, i2, True, True

        if bmin > dmin:
            bmin -= 1
            kvdb[bmin - 1 + koff] = _LINE_MAX
        else:
            bmin += 1
        if bmax < dmax:
            bmax += 1
            kvdb[bmax + 1 + koff] = _LINE_MAX
        else:
            bmax -= 1
        for d in range(bmax, bmin - 1, -2):
            lo, hi = kvdb[d - 1 + koff], kvdb[d + 1 + koff]
            i1 = lo if lo < hi else hi - 1
            prev1 = i1
            i2 = i1 - d
            while i1 > off1 and i2 > off2 and ha1[i1 - 1] == ha2[i2 - 1]:
                i1 -= 1
                i2 -= 1
            if prev1 - i1 > _SNAKE_CNT:
                got_snake = True
            kvdb[d + koff] = i1
            if not odd and fmin <= d <= fmax and i1 <= kvdf[d + koff]:
                return i1, i2, True, True

        if need_min:
            continue

        if got_snake and ec > _HEUR_MIN_COST:
            found = _forward_snake(ha1, off1, lim1, ha2, off2, lim2, kvdf, koff, fmin, fmax, fmid, ec)
            if found is not None:
                return found[0], found[1], True, False
            found = _backward_snake(ha1, off1, lim1, ha2, off2, lim2, kvdb, koff, bmin, bmax, bmid, ec)
            if found is not None:
                return found[0], found[1], False, True

        if ec >= mxcost:
            return _furthest_reach(
                off1, lim1, off2, lim2, kvdf, kvdb, koff, fmin, fmax, bmin, bmax
            )


def _forward_snake(
    ha1: list[int], off1: int, lim1: int, ha2: list[int], off2: int, lim2: int,
    kvdf: list[int], koff: int, fmin: int, fmax: int, fmid: int, ec: int,
) -> tuple[int, int] | None:
    best, found = 0, None
    for d in range(fmax, fmin - 1, -2):
        dd = d - fmid if d > fmid else fmid - d
        i1 = kvdf[d + koff]
        i2 = i1 - d
        v = (i1 - off1) + (i2 - off2) - dd
        if (
            v > _K_HEUR * ec
            and v > best
            and off1 + _SNAKE_CNT <= i1 < lim1
            and off2 + _SNAKE_CNT <= i2 < lim2
        ):
            k = 1
            while ha1[i1 - k] == ha2[i2 - k]:
                if k == _SNAKE_CNT:
                    best, found = v, (i1, i2)
                    break
                k += 1
    return found


def _backward_snake(
    ha1: list[int], off1: int, lim1: int, ha2: list[int], off2: int, lim2: int,
    kvdb: list[int], koff: int, bmin: int, bmax: int, bmid: int, ec: int,
) -> tuple[int, int] | None:
    best, found = 0, None
    for d in range(bmax, bmin - 1, -2):
        dd = d - bmid if d > bmid else bmid - d
        i1 = kvdb[d + koff]
        i2 = i1 - d
        v = (lim1 - i1) + (lim2 - i2) - dd
        if (
            v > _K_HEUR * ec
            and v > best
            and off1 < i1 <= lim1 - _SNAKE_CNT
            and off2 < i2 <= lim2 - _SNAKE_CNT
        ):
            k = 0
            while ha1[i1 + k] == ha2[i2 + k]:
                if k == _SNAKE_CNT - 1:
                    best, found = v, (i1, i2)
                    break
                k += 1
    return found


def _furthest_reach(
    off1: int, lim1: int, off2: int, lim2: int,
    kvdf: list[int], kvdb: list[int], koff: int,
    fmin: int, fmax: int, bmin: int, bmax: int,
) -> tuple[int, int, bool, bool]:
    """The cost bound is hit: split at the furthest-reaching diagonal."""
    fbest = fbest1 = -1
    for d in range(fmax, fmin - 1, -2):
        i1 = min(kvdf[d + koff], lim1)
        i2 = i1 - d
        if lim2 < i2:
            i1, i2 = lim2 + d, lim2
        if fbest < i1 + i2:
            fbest, fbest1 = i1 + i2, i1
    bbest = bbest1 = _LINE_MAX
    for d in range(bmax, bmin - 1, -2):
        i1 = max(off1, kvdb[d + koff])
        i2 = i1 - d
        if i2 < off2:
            i1, i2 = off2 + d, off2
        if i1 + i2 < bbest:
            bbest, bbest1 = i1 + i2, i1
    if (lim1 + lim2) - bbest < fbest - (off1 + off2):
        return fbest1, fbest - fbest1, True, False
    return bbest1, bbest - bbest1, False, True
