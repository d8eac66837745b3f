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


_PICKLE_PER_TEXT_BYTE = 6
"""A pickled analysis takes about this many bytes per byte of the files' text (the merge's three
versions, the result, hunk texts): 21 MB for the 3.6 MB of Megatron-LM #4291's 126 files."""


def save_analysis(cache: DiskCache, key: str, analysis: SyncAnalysis) -> bool:
    """Store ``analysis`` under ``key`` (streamed to disk); False when it cannot be pickled or written.

    An analysis whose pickle would not fit the cache's bound is not even
    started: pickling thousands of files costs time, disk and (pickle's memo
    of every object) memory, only to be thrown away.
    """
    text = sum(len(f.theirs_bytes or f.result_bytes or b"") for f in analysis.files)
    if text * _PICKLE_PER_TEXT_BYTE > cache.max_bytes:
        return False
    try:
        return cache.put_with(key, lambda out: pickle.dump(analysis, out, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):  # an unpicklable field: no caching, not a failure
        return False
