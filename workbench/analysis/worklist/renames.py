"""One name replaced by another: a hunk whose lost text and the result's differ only by identifiers swapped.

When the same swap explains hunks in several places (``tp_group`` became
``pg_tp`` across files), the rename is one decision, not one per hunk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_TOKEN = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*|[^\sA-Za-z0-9_]")
_NAME = re.compile(rb"[A-Za-z_]")

Swap = tuple[str, str]


def swaps(before: Sequence[bytes], after: Sequence[bytes]) -> frozenset[Swap]:
    """The (old, new) names that turn ``before`` into ``after``, when nothing else differs; else empty.

    Only names replaced one for one: the token sequences are as long as each
    other and differ only where a name stands on both sides, so comparing
    them position by position is the whole alignment (linear, whatever the size).
    """
    a = _TOKEN.findall(b"\n".join(before))
    b = _TOKEN.findall(b"\n".join(after))
    if not a or len(a) != len(b):
        return frozenset()
    found: set[Swap] = set()
    for old, new in zip(a, b, strict=True):
        if old == new:
            continue
        if not (_NAME.match(old) and _NAME.match(new)):
            return frozenset()
        found.add((old.decode("utf-8", "replace"), new.decode("utf-8", "replace")))
    return frozenset(found)
