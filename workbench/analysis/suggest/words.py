"""A word-level three-way merge of a hunk's texts: both sides' edits where they touch different words of a line."""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.analysis.xdiff import Algorithm, MergeLevel, joined, merge_lines, split_lines

_TOKEN = re.compile(rb"\w+|[ \t]+|\r?\n|[^\w\s]|\s")
TOKEN_LIMIT = 400
"""A side longer than this many tokens (about ten lines of code) is not merged word by word: the merge costs
quadratic time in pure Python, and on the development set no word merge over 200 tokens was what shipped."""


def tokens(lines: Sequence[bytes]) -> list[bytes]:
    """Words, runs of blanks, line ends and single punctuation marks: joined back, exactly the text."""
    return _TOKEN.findall(joined(lines))


def merge_words(base: Sequence[bytes], dev: Sequence[bytes], main: Sequence[bytes]) -> tuple[bytes, ...] | None:
    """The hunk's lines when git's merge of the three texts' words has no conflict, else None."""
    tb, td, tm = tokens(base), tokens(dev), tokens(main)
    if max(len(tb), len(td), len(tm)) > TOKEN_LIMIT:
        return None
    merged = merge_lines(tb, td, tm, Algorithm.HISTOGRAM, MergeLevel.ZEALOUS)
    if merged.conflicts:
        return None
    return tuple(split_lines(merged.render()))
