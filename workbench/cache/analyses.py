"""Whole analyses in the cache, as pickles of the frozen ``SyncAnalysis``.

A pickle keeps every field the front ends read (the rebuilt merge, the
result's bytes) with no second serialiser to keep in step with the model.
Loading a pickle can run code, so nothing is unpickled before the store has
checked the entry's signature under this user's own secret (store.py): an
entry anyone else wrote reads as absent, and anything that fails to load is
a miss.

The model's records are pickled as calls of their class with their field
values (``by_constructor``): Python's own way for a frozen dataclass with
slots asks ``dataclasses.fields`` of every object again when loading, which
was half of a load's time.
"""

from __future__ import annotations

import dataclasses
import pickle
import sys
from collections.abc import Callable
from typing import BinaryIO

from workbench.analysis.model import FileAnalysis, SyncAnalysis
from workbench.analysis.xdiff import joined
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


_PICKLE_PER_TEXT_BYTE = 3
"""A pickled analysis takes at most about this many bytes per byte of the files' text as ``_text_size``
counts it (main's version, and a result that is not main's rendering; the pickle also holds the merges'
packed lines and the hunks; docs/performance.md has measured sizes)."""


def _text_size(entry: FileAnalysis) -> int:
    """The bytes of ``entry``'s text, counted without rendering it: main's version and a result kept apart."""
    kept = len(entry.stored_result or entry.stored_theirs or b"")
    return kept + len(joined(entry.merge.theirs)) if entry.merge is not None else kept


Reducer = Callable[[object], tuple[type, tuple[object, ...]]]


def by_constructor() -> dict[type, Reducer]:
    """A reducer per record class of the analysis layer that its constructor rebuilds exactly: a dataclass whose
    fields are all ``__init__`` arguments, with no ``__post_init__`` (anything else is pickled Python's way)."""
    table: dict[type, Reducer] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith(("workbench.analysis", "workbench.git.types")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type) and value.__module__ == name and rebuilt_by_constructor(value):
                table[value] = _reducer(value, tuple(f.name for f in dataclasses.fields(value)))
    return table


def rebuilt_by_constructor(cls: type) -> bool:
    """Whether ``cls(*field values)`` makes an equal record: a dataclass whose every field is an ``__init__``
    argument and that derives nothing after (no ``__post_init__``)."""
    return dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__") \
        and all(f.init for f in dataclasses.fields(cls))


def _reducer(cls: type, names: tuple[str, ...]) -> Reducer:
    def reduce(record: object) -> tuple[type, tuple[object, ...]]:
        return cls, tuple(getattr(record, name) for name in names)

    return reduce


def dump_records(out: BinaryIO, value: object, table: dict[type, Reducer]) -> None:
    """Pickle ``value`` to ``out``, the model's records as calls of their class (``table``: ``by_constructor()``)."""
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = table
    pickler.dump(value)


def save_analysis(cache: DiskCache, key: str, analysis: SyncAnalysis) -> bool:
    """Store ``analysis`` under ``key`` (streamed to disk); False when it cannot be pickled or written.

    An analysis whose pickle would not fit the cache's bound is not even
    started: pickling thousands of files costs time, disk and (pickle's memo
    of every object) memory, only to be thrown away.
    """
    text = sum(_text_size(f) for f in analysis.files)
    if text * _PICKLE_PER_TEXT_BYTE > cache.max_bytes:
        return False
    table = by_constructor()
    try:
        return cache.put_with(key, lambda out: dump_records(out, analysis, table))
    except (pickle.PicklingError, TypeError, AttributeError):  # an unpicklable field: no caching, not a failure
        return False
