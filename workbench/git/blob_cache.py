"""Recently read blobs kept in memory, bounded by their total size."""

from __future__ import annotations

from collections import OrderedDict

BUDGET = 32 * 1024 * 1024
"""Hits come from the versions of the file being looked at, so a small cache loses few reads, while a
full cache is part of a large sync's peak memory (docs/performance.md)."""


class BlobCache:
    """Recently read blobs, bounded by total size (history can be hundreds of MB)."""

    def __init__(self, budget: int = BUDGET) -> None:
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._budget = budget

    def get(self, oid: str) -> bytes | None:
        data = self._items.get(oid)
        if data is not None:
            self._items.move_to_end(oid)
        return data

    def put(self, oid: str, data: bytes) -> None:
        if oid in self._items or len(data) > self._budget // 4:
            return
        self._items[oid] = data
        self._size += len(data)
        while self._size > self._budget and self._items:
            _, dropped = self._items.popitem(last=False)
            self._size -= len(dropped)
