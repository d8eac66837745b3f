"""The API-mismatch audit: main's callers against dev's callees, and the reverse."""

from __future__ import annotations

from workbench.analysis.api import index, symbols
from workbench.analysis.api.stage import audit_api
from workbench.analysis.python import parse

__all__ = ["audit_api", "clear_caches"]


def clear_caches() -> None:
    """Forget every parsed tree, index and interface (cold measurements, long sessions)."""
    parse._TREES.clear()
    index._CACHE.clear()
    symbols._LAYOUTS.clear()
