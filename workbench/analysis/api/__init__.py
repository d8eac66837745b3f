"""The API-mismatch audit: main's callers against dev's callees, and the reverse."""

from __future__ import annotations

from workbench.analysis.api import symbols
from workbench.analysis.python import module_index, parse

__all__ = ["clear_caches"]


def clear_caches() -> None:
    """Forget every parsed tree, index and interface (cold measurements, long sessions)."""
    parse._TREES.clear()
    module_index._CACHE.clear()
    symbols._LAYOUTS.clear()
