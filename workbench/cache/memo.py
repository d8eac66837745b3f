"""The analysis' unit memo in the cache: one signed pickle per scope (``analysis/memo.py``).

Its key holds the scope's digest (the sync's commits, histories, policy
and settings) and, through ``cache_key``, the tool's version, source and
runtime: a code change never reuses an old answer.  A unit's fingerprint
holds everything else it reads (its file's result), so the entry serves any
state of the sync's work tree.  Like the analyses (``analyses.py``), nothing
is unpickled before its signature is checked, anything unreadable is a
miss, and the cache's size bound evicts the least recently used.
"""

from __future__ import annotations

import pickle
from typing import BinaryIO

from workbench.analysis.memo import Fingerprint, UnitMemo
from workbench.cache.analyses import by_constructor
from workbench.cache.keys import cache_key
from workbench.cache.store import DiskCache

KEEP_FACTOR = 3
"""Answers kept per scope: this many times the units one analysis used (older states of the decided files)."""


def memo_key(scope: Fingerprint) -> str:
    return cache_key("unit-memo", {"scope": scope.hex()})


def load_memo(cache: DiskCache, scope: Fingerprint) -> UnitMemo:
    """The memo stored for ``scope``, or an empty one (absent, unreadable, forged)."""
    payload = cache.get(memo_key(scope))
    known: object = None
    if payload is not None:
        try:
            known = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - damage or a stale layout is a miss, never an error
            known = None
    if not isinstance(known, dict) or not all(isinstance(k, bytes) for k in known):
        known = {}
    return UnitMemo(scope, known)


def save_memo(cache: DiskCache, memo: UnitMemo) -> bool:
    """Store what ``memo`` used and added (and older answers, up to a bound); False when not stored or nothing new."""
    if not memo.added:
        return False
    entries = memo.entries(KEEP_FACTOR * max(1, len(memo.used)))
    table = by_constructor()

    def dump(out: BinaryIO) -> None:
        pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = table
        pickler.dump(entries)

    try:
        return cache.put_with(memo_key(memo.scope), dump)
    except (pickle.PicklingError, TypeError, AttributeError):
        return False
