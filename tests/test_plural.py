"""Counts in sentences agree in number."""

from __future__ import annotations

from workbench.wording import plural


def test_plural_agrees_in_number() -> None:
    assert [plural(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]
