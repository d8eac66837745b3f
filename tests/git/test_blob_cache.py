"""The bounded cache of blobs read: recent blobs stay within the budget."""

from __future__ import annotations

from workbench.git.blob_cache import BlobCache


def test_the_least_recently_read_blobs_go_first_and_the_budget_holds() -> None:
    cache = BlobCache(budget=44)
    for oid in "abcde":
        cache.put(oid, oid.encode() * 10)
    assert cache.get("a") is None and cache.get("b") == b"b" * 10  # a went to make room for e; b is now recent
    cache.put("f", b"f" * 10)
    assert cache.get("c") is None and all(cache.get(oid) is not None for oid in "bdef")
    cache.put("huge", b"h" * 12)  # over a quarter of the budget: never kept
    assert cache.get("huge") is None
