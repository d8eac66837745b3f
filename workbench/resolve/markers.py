"""Conflict markers in text: whether a complete ``<<<<<<< ... ======= ... >>>>>>>`` block is left.

Shared by the session (an edited hunk that still holds markers is flagged
where it was made) and the writer (a file holding them is never written).
Markers are as long as the file's ``conflict-marker-size`` attribute says
(7 by default), exactly as git recognises them: a longer or shorter run of
``<`` is content (reST and AsciiDoc use such lines).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from workbench.analysis.conflict_text import DEFAULT_MARKER_SIZE


def _patterns(size: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes], re.Pattern[bytes]]:
    return (
        re.compile(rb"^<{%d}(?: |\r?$)" % size, re.M),
        re.compile(rb"^(?:={%d}|\|{%d}(?: .*)?)\r?$" % (size, size), re.M),
        re.compile(rb"^>{%d}(?: |\r?$)" % size, re.M),
    )


def conflict_markers(data: bytes, size: int = DEFAULT_MARKER_SIZE) -> bool:
    """Two kinds of marker of ``size`` in conflict order: an opening then a separator
    (``=======`` or diff3's ``|||||||``), or a separator then a closing marker.

    A whole block is not needed: half a block left behind is as wrong.
    """
    opening, middle, closing = _patterns(size)
    start = opening.search(data)
    if start and middle.search(data, start.end()):
        return True
    separator = middle.search(data)
    return bool(separator and closing.search(data, separator.end()))


def any_markers(data: bytes, sizes: Iterable[int]) -> int | None:
    """The first of ``sizes`` whose complete marker block ``data`` holds, or None."""
    return next((size for size in sizes if conflict_markers(data, size)), None)
