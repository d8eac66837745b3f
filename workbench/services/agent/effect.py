"""What a member loses once a decision is applied: the engine's rule, over the text the decision puts there.

The engine calls a side's line lost when the side wrote it (it differs from
the base), it carries content, and the result near the hunk (``WINDOW`` lines
either side) has no line equal to it, whitespace-blind (``risk/lost.py``).
For a decision not yet written, the text near the hunk is the decided text
between the result's own lines around the hunk; for a whole-file choice, the
chosen side's file around that side's lines.  Without a decision the
engine's own ``lost_lines`` stand.  Cheap enough to price every take of every
item in ``queue``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import FileAnalysis, Hunk, HunkKind, LineRange, LostLines, Whose
from workbench.analysis.risk.line_compare import meaningful, norm
from workbench.analysis.risk.lost import WINDOW, side_changed, window
from workbench.analysis.xdiff import split_lines
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision, chosen_text, edit_text

Lost = dict[Whose, tuple[int, ...]]
"""Each side's lost lines, 0-based in that side's file."""


def engine_lost(hunk: Hunk) -> Lost:
    """The analysis' own lost lines of a hunk, as line indexes."""
    return {side: _indexes(hunk.lost_lines.side(side)) for side in ("dev", "main")}


def _indexes(ranges: Sequence[LineRange]) -> tuple[int, ...]:
    return tuple(n for r in ranges if not r.empty for n in range(r.start - 1, r.end))


def decided_text(hunk: Hunk, decision: Decision) -> bytes:
    """The bytes ``decision`` puts in place of ``hunk``."""
    if hunk.kind is HunkKind.EDIT:
        return edit_text(hunk, decision)
    crlf = any(line.endswith(b"\r\n") for line in (*hunk.dev_text, *hunk.main_text))
    return chosen_text(hunk.dev_text, hunk.main_text, decision, crlf)


class Pricer:
    """Each member's loss for many takes of the same hunks: each hunk's own lines and the result around it are read
    and normalised once (``queue`` prices every take of every member)."""

    def __init__(self) -> None:
        self._hunks: dict[tuple[str, int], _HunkKeys] = {}

    def lost(self, entry: FileAnalysis, hunk: Hunk, decision: Decision | None = None,
             choice: FileChoice | None = None, result: Sequence[bytes] | None = None) -> Lost:
        """Each side's lines ``hunk`` loses with ``decision`` (or the whole-file ``choice``) applied; neither: the
        engine's own answer.  ``result``: the result's lines (read from ``entry`` when not given)."""
        merge = entry.merge
        if merge is None or (decision is None and choice is None):
            return engine_lost(hunk)
        keys = self._keys(entry, hunk, result)
        if choice is FileChoice.KEEP_DEV:
            kept = frozenset(window(merge.ours, hunk.dev, norm))
        elif choice is FileChoice.TAKE_MAIN:
            kept = frozenset(window(merge.theirs, hunk.main, norm))
        elif choice is not None:
            kept = frozenset()
        else:
            assert decision is not None
            kept = keys.around | self._placed(hunk, keys, decision)
        return {"dev": tuple(n for n, key in keys.dev if key not in kept),
                "main": tuple(n for n, key in keys.main if key not in kept)}

    @staticmethod
    def _placed(hunk: Hunk, keys: _HunkKeys, decision: Decision) -> frozenset[bytes]:
        """The keys of what the decision puts in the hunk's place (a side's, both sides', or its own text)."""
        choice = decision.choice
        if choice is Choice.DEV:
            return keys.dev_text
        if choice is Choice.MAIN:
            return keys.main_text
        if choice in (Choice.BOTH, Choice.BOTH_MAIN_FIRST):
            return keys.dev_text | keys.main_text
        return frozenset(norm(line) for line in split_lines(decided_text(hunk, decision)))

    def _keys(self, entry: FileAnalysis, hunk: Hunk, result: Sequence[bytes] | None) -> _HunkKeys:
        found = self._hunks.get((entry.path, hunk.index))
        if found is None:
            merge = entry.merge
            assert merge is not None
            lines = result if result is not None else _lines(entry)
            found = _HunkKeys(
                _changed(merge.ours, side_changed(merge.ours_script, hunk.dev)),
                _changed(merge.theirs, side_changed(merge.theirs_script, hunk.main)),
                frozenset(_around(hunk, lines)),
                frozenset(norm(line) for line in hunk.dev_text),
                frozenset(norm(line) for line in hunk.main_text),
            )
            self._hunks[(entry.path, hunk.index)] = found
        return found


@dataclass(frozen=True, slots=True)
class _HunkKeys:
    dev: tuple[tuple[int, bytes], ...]
    """Dev's own content lines in the hunk (0-based in dev's file) and their keys."""
    main: tuple[tuple[int, bytes], ...]
    around: frozenset[bytes]
    """The keys of the result's lines within ``WINDOW`` of the hunk's place, the hunk's own left out."""
    dev_text: frozenset[bytes]
    """The keys of the hunk's own dev lines (what taking dev puts there)."""
    main_text: frozenset[bytes]


def _changed(lines: Sequence[bytes], changed: Sequence[int]) -> tuple[tuple[int, bytes], ...]:
    return tuple((n, norm(lines[n])) for n in changed if meaningful(lines[n]))


def _lines(entry: FileAnalysis) -> Sequence[bytes]:
    data = entry.result_bytes
    return split_lines(data) if data is not None else ()


def _around(hunk: Hunk, result: Sequence[bytes]) -> set[bytes]:
    """The keys of the result's lines within ``WINDOW`` of the hunk's place, not the hunk's own."""
    where = hunk.result
    if where is None:
        return set()
    kept = {norm(line) for line in result[max(0, where.start - 1 - WINDOW) : max(0, where.start - 1)]}
    kept |= {norm(line) for line in result[where.end : where.end + WINDOW]}
    return kept


def as_lost_lines(lost: Lost, entry: FileAnalysis) -> LostLines:
    """Indexes as the model's ranges (the JSON's ``lost_lines``)."""
    from workbench.analysis.risk.lost import as_ranges

    merge = entry.merge
    if merge is None:
        return LostLines()
    return LostLines(as_ranges(lost.get("dev", ()), merge.ours), as_ranges(lost.get("main", ()), merge.theirs))


def count(lost: Lost) -> dict[Whose, int]:
    return {"dev": len(lost.get("dev", ())), "main": len(lost.get("main", ()))}
