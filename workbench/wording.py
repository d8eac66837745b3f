"""Counts in sentences: one function so every front end and message says ``1 file``, ``2 files``."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """``count`` with ``noun`` in the right number (regular plurals: ``noun`` + "s")."""
    return f"{count} {noun}" + ("" if count == 1 else "s")
