"""Conflict markers in text: whether a complete ``<<<<<<< ... ======= ... >>>>>>>`` block is left.

Shared by the session (an edited hunk that still holds markers is flagged
where it was made) and the writer (a file holding them is never written).
"""

from __future__ import annotations

import re

_OPEN = re.compile(rb"^<{7}(?: |\r?$)", re.M)
_MIDDLE = re.compile(rb"^={7}\r?$", re.M)
_CLOSE = re.compile(rb"^>{7}(?: |\r?$)", re.M)


def conflict_markers(data: bytes) -> bool:
    """A complete marker block (<<<<<<< ... ======= ... >>>>>>>) is present."""
    start = _OPEN.search(data)
    if not start:
        return False
    middle = _MIDDLE.search(data, start.end())
    return bool(middle and _CLOSE.search(data, middle.end()))
