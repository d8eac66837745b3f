"""A word-level three-way merge of a hunk's texts: both sides' edits where they touch different words of a line."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import islice

from workbench.analysis.xdiff import Algorithm, MergeLevel, joined, merge_lines, split_lines

_TOKEN = re.compile(rb"\w+|[ \t]+|\r?\n|[^\w\s]|\s")
TOKEN_LIMIT = 400
"""A side longer than this many tokens (about ten lines of code) is not merged word by word: the merge costs
quadratic time in pure Python, and on the development set no word merge over 200 tokens was what shipped."""


def _few_tokens(lines: Sequence[bytes]) -> list[bytes] | None:
    """Words, runs of blanks, line ends and single punctuation marks (joined back, exactly the text); None past
    ``TOKEN_LIMIT`` of them (a long text is never split to its end)."""
    found = list(islice(_TOKEN.finditer(joined(lines)), TOKEN_LIMIT + 1))
    return [match.group() for match in found] if len(found) <= TOKEN_LIMIT else None


def merge_words(base: Sequence[bytes], dev: Sequence[bytes], main: Sequence[bytes]) -> tuple[bytes, ...] | None:
    """The hunk's lines when git's merge of the three texts' words has no conflict, else None."""
    tb, td, tm = _few_tokens(base), _few_tokens(dev), _few_tokens(main)
    if tb is None or td is None or tm is None:
        return None
    merged = merge_lines(tb, td, tm, Algorithm.HISTOGRAM, MergeLevel.ZEALOUS)
    if merged.conflicts:
        return None
    return tuple(split_lines(merged.render()))
