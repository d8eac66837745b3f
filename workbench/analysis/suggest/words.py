"""A word-level three-way merge of a hunk's texts: both sides' edits where they touch different words of a line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.analysis.xdiff import Algorithm, Level, joined, merge_lines, split_lines

_TOKEN = re.compile(rb"\w+|[ \t]+|\r?\n|[^\w\s]|\s")
TOKEN_LIMIT = 20_000
"""Hunks longer than this many tokens are not merged word by word (the diff would cost more than it offers)."""


def tokens(lines: Sequence[bytes]) -> list[bytes]:
    """Words, runs of blanks, line ends and single punctuation marks: joined back, exactly the text."""
    return _TOKEN.findall(joined(lines))


def merge_words(base: Sequence[bytes], dev: Sequence[bytes], main: Sequence[bytes]) -> tuple[bytes, ...] | None:
    """The hunk's lines when git's merge of the three texts' words has no conflict, else None."""
    tb, td, tm = tokens(base), tokens(dev), tokens(main)
    if max(len(tb), len(td), len(tm)) > TOKEN_LIMIT:
        return None
    merged = merge_lines(tb, td, tm, Algorithm.HISTOGRAM, Level.ZEALOUS)
    if merged.conflicts:
        return None
    return tuple(split_lines(merged.render()))
