"""One name replaced by another: a hunk whose lost text and the result's differ only by identifiers swapped.

When the same swap explains hunks in several places (``tp_group`` became
``pg_collection.tp`` across files), the rename is one decision, not one per hunk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|[^\sA-Za-z0-9_]")
_NAME = re.compile(rb"[A-Za-z_]")
MAX_TOKENS = 4000
"""Texts longer than this are not compared (a rename is found in hunks a person reads, not in whole files)."""

Swap = tuple[str, str]


def swaps(before: Sequence[bytes], after: Sequence[bytes]) -> frozenset[Swap]:
    """The (old, new) names that turn ``before`` into ``after``, when nothing else differs; else empty."""
    a = _TOKEN.findall(b"\n".join(before))
    b = _TOKEN.findall(b"\n".join(after))
    if not a or not b or len(a) + len(b) > MAX_TOKENS:
        return frozenset()
    found: set[Swap] = set()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op != "replace" or i2 - i1 != j2 - j1:
            return frozenset()
        for old, new in zip(a[i1:i2], b[j1:j2], strict=True):
            if not (_NAME.match(old) and _NAME.match(new)):
                return frozenset()
            found.add((old.decode("utf-8", "replace"), new.decode("utf-8", "replace")))
    return frozenset(found)
