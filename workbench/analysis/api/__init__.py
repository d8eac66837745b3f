"""The API-mismatch audit: main's callers against dev's callees, and the reverse."""

from __future__ import annotations

from workbench.analysis.api.stage import audit_api

__all__ = ["audit_api"]
