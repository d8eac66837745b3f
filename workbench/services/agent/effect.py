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

from workbench.analysis.model import FileAnalysis, Hunk, HunkKind, LineRange, LostLines, Whose
from workbench.analysis.risk.line_compare import norm
from workbench.analysis.risk.lost import WINDOW, missing, side_changed, window
from workbench.analysis.xdiff import split_lines
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Decision, chosen_text, edit_text

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


def lost_with(entry: FileAnalysis, hunk: Hunk, decision: Decision | None = None,
              choice: FileChoice | None = None, result: Sequence[bytes] | None = None) -> Lost:
    """Each side's lines ``hunk`` loses with ``decision`` (or the whole-file ``choice``) applied.

    ``result``: the result's lines (read from ``entry`` when not given).  Neither a decision nor a choice:
    the engine's own answer."""
    merge = entry.merge
    if merge is None or (decision is None and choice is None):
        return engine_lost(hunk)
    if choice is not None:
        if choice is FileChoice.KEEP_DEV:
            kept = window(merge.ours, hunk.dev, norm)
        elif choice is FileChoice.TAKE_MAIN:
            kept = window(merge.theirs, hunk.main, norm)
        else:
            kept = set()
    else:
        assert decision is not None
        kept = _near(hunk, split_lines(decided_text(hunk, decision)), result if result is not None else _lines(entry))
    return {
        "dev": tuple(missing(merge.ours, side_changed(merge.ours_script, hunk.dev), kept, norm)),
        "main": tuple(missing(merge.theirs, side_changed(merge.theirs_script, hunk.main), kept, norm)),
    }


def _lines(entry: FileAnalysis) -> Sequence[bytes]:
    data = entry.result_bytes
    return split_lines(data) if data is not None else ()


def _near(hunk: Hunk, placed: Sequence[bytes], result: Sequence[bytes]) -> set[bytes]:
    """The keys of the decided text and of the result's lines within ``WINDOW`` of the hunk's place."""
    kept = {norm(line) for line in placed}
    where = hunk.result
    if where is not None:
        kept |= {norm(line) for line in result[max(0, where.start - 1 - WINDOW) : max(0, where.start - 1)]}
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
