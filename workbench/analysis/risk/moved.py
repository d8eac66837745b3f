"""Lost lines the result holds elsewhere: rule R2.

A run of lost lines (at least ``MIN_LINES`` lines with content, at least
``MIN_CHARS`` characters of tokens) that the result holds, layout-blind, at
least as many times as the side's own file does was moved, not lost.  A
count, never a set: code repeated for another purpose elsewhere in the
result does not hide a loss (the maintainers' ``sort -u`` audit did).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import cached_property

from workbench.analysis.risk.layout import flat
from workbench.analysis.risk.line_compare import meaningful

MIN_LINES = 2
MIN_CHARS = 40
"""A shorter run (``return x``) is everywhere: finding it elsewhere proves nothing."""

_IDENT = re.compile(rb"[A-Za-z0-9_]")


def occurrences(needle: bytes, hay: bytes) -> int:
    """How often ``needle`` occurs in ``hay`` without running into a longer identifier at either end."""
    found, start = 0, 0
    word_start = _IDENT.match(needle[:1]) is not None
    word_end = _IDENT.match(needle[-1:]) is not None
    while (at := hay.find(needle, start)) >= 0:
        start = at + 1
        if word_start and at > 0 and _IDENT.match(hay[at - 1:at]):
            continue
        end = at + len(needle)
        if word_end and end < len(hay) and _IDENT.match(hay[end:end + 1]):
            continue
        found += 1
    return found


class Elsewhere:
    """One side's file and the result, layout-blind, asked which runs of lost lines the result holds."""

    def __init__(self, side: Sequence[bytes], result: Sequence[bytes]) -> None:
        self._side = side
        self._result = result

    @cached_property
    def _side_text(self) -> bytes:
        return flat(self._side)

    @cached_property
    def _result_text(self) -> bytes:
        return flat(self._result)

    def kept(self, lost: Iterable[int]) -> set[int]:
        """The ``lost`` lines (0-based in the side's file) in runs the result holds as often as the side."""
        runs: list[list[int]] = []
        for n in sorted(set(lost)):
            if runs and all(not meaningful(self._side[k]) for k in range(runs[-1][-1] + 1, n)):
                runs[-1].append(n)
            else:
                runs.append([n])
        kept: set[int] = set()
        for run in runs:
            i = 0
            while i < len(run):
                end = self._longest(run, i)
                if end is None:
                    i += 1
                else:
                    kept.update(run[i:end])
                    i = end
        return kept

    def _longest(self, run: list[int], i: int) -> int | None:
        """The end of the longest held run starting at ``run[i]``: the shortest that qualifies, then grown a line
        at a time while the result still holds it (linear in the run, where trying every length was quadratic)."""
        end, content = i, 0
        while end < len(run) and (content < MIN_LINES or len(self._text(run, i, end)) < MIN_CHARS):
            content += meaningful(self._side[run[end]])
            end += 1
        if content < MIN_LINES or not self._held(self._text(run, i, end)):
            return None
        while end < len(run) and self._held(self._text(run, i, end + 1)):
            end += 1
        return end

    def _text(self, run: list[int], i: int, end: int) -> bytes:
        return flat(self._side[run[i]:run[end - 1] + 1]) if end > i else b""

    def _held(self, text: bytes) -> bool:
        return len(text) >= MIN_CHARS and occurrences(text, self._result_text) >= max(1, occurrences(text, self._side_text))
