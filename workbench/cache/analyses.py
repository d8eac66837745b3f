"""Whole analyses in the cache, as pickles of the frozen ``SyncAnalysis``.

A pickle keeps every field the front ends read (the rebuilt merge, the
result's bytes) with no second serialiser to keep in step with the model.
Entries are only ever read from the user's own cache directory, and a
checksum guards against damage; anything that fails to load is a miss.
"""

from __future__ import annotations

import pickle

from workbench.analysis.model import SyncAnalysis
from workbench.cache.store import DiskCache


def load_analysis(cache: DiskCache, key: str) -> SyncAnalysis | None:
    """The analysis stored under ``key``, or None when absent or unusable."""
    payload = cache.get(key)
    if payload is None:
        return None
    try:
        value = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - any damage or stale class layout is a miss, never an error
        return None
    return value if isinstance(value, SyncAnalysis) else None


def save_analysis(cache: DiskCache, key: str, analysis: SyncAnalysis) -> bool:
    """Store ``analysis`` under ``key`` (streamed to disk); False when it cannot be pickled or written."""
    try:
        return cache.put_with(key, lambda out: pickle.dump(analysis, out, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):  # an unpicklable field: no caching, not a failure
        return False
