"""The analysis' unit memo in the cache: one signed pickle per unit, named by the unit's fingerprint.

A fingerprint (``analysis/memo.py``) is a digest of everything the unit
reads, so its entry serves any analysis whose unit reads the same: another
state of the work tree, a later run.  The key adds, through ``cache_key``,
the tool's version, source and runtime: a code change never reuses an old
answer.  Like the analyses (``analyses.py``), nothing is unpickled before
its signature is checked, anything unreadable is a miss, and the cache's
size bound evicts the least recently used.  An analysis reads only the
entries of its units and writes only the units it computed.
"""

from __future__ import annotations

import pickle
from functools import partial

from workbench.analysis.memo import Fingerprint, UnitMemo
from workbench.cache.analyses import by_constructor, dump_records
from workbench.cache.keys import cache_key
from workbench.cache.store import DiskCache


def unit_key(fingerprint: Fingerprint) -> str:
    return cache_key("unit", {"fingerprint": fingerprint.hex()})


def memo_of(cache: DiskCache, scope: Fingerprint) -> UnitMemo:
    """A memo of ``scope`` answered from ``cache``."""

    def fetch(fingerprint: Fingerprint) -> tuple[bool, object]:
        payload = cache.get(unit_key(fingerprint))
        if payload is None:
            return False, None
        try:
            return True, pickle.loads(payload)
        except Exception:  # noqa: BLE001 - damage or a stale layout is a miss, never an error
            return False, None

    return UnitMemo(scope, fetch)


def save_memo(cache: DiskCache, memo: UnitMemo) -> int:
    """Store the answers ``memo`` computed; how many were stored."""
    table = by_constructor()
    stored = 0
    for fingerprint, answer in memo.added.items():
        try:
            stored += cache.put_with(unit_key(fingerprint), partial(dump_records, value=answer, table=table),
                                     evict=False)
        except (pickle.PicklingError, TypeError, AttributeError):
            continue
    if stored:
        cache.evict()
    return stored
