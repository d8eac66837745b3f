"""Which of each side's lines a hunk lost: the lines a reviewer has to read.

Generic over the kind of hunk (a conflict of the plain merge or a region the
resolution edited): all it needs is the hunk's side ranges, where it landed
in the result, and each side's lines with its edit script against the base.
A side's line is *lost* when that side wrote it (it differs from the base),
it carries content, and the result's text near the hunk (``WINDOW`` lines
either side of where it landed) has no line equal to it, whitespace-blind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from workbench.analysis.model import ChoiceLoss, Hunk, LineRange, LostLines, Taken
from workbench.analysis.risk.layout import kept_positional
from workbench.analysis.risk.line_compare import meaningful, norm
from workbench.analysis.risk.script_index import side_lines
from workbench.analysis.xdiff import MergeResult, Script

WINDOW = 20
"""Lines either side of a hunk where a side's line still counts as kept."""

Key = Callable[[bytes], bytes]


def side_changed(script: Script, where: LineRange) -> list[int]:
    """0-based lines of ``where`` (a side's range) that differ from the merge base (that side's own work).

    Scripts are (base start, base count, side start, side count), sorted.
    """
    return side_lines(script, where.start - 1, where.end)  # bisected: a scan per hunk was quadratic


def window(lines: Sequence[bytes], where: LineRange | None, key: Key) -> set[bytes]:
    """The keys of ``lines`` within ``WINDOW`` lines of ``where`` (none when ``where`` is None)."""
    if where is None:
        return set()
    lo = max(0, where.start - 1 - WINDOW)
    hi = min(len(lines), where.end + WINDOW)
    return {key(line) for line in lines[lo:hi]}


def missing(lines: Sequence[bytes], changed: Iterable[int], kept: set[bytes], key: Key) -> list[int]:
    """The ``changed`` lines (0-based) with content whose key is not in ``kept``."""
    return [n for n in changed if meaningful(lines[n]) and key(lines[n]) not in kept]


def kept_near(hunk: Hunk, result: Sequence[bytes] | None, key: Key) -> set[bytes] | None:
    """What the result keeps near the hunk; None when undecided (conflict markers, or no result text known)."""
    if hunk.taken is Taken.UNRESOLVED or result is None or hunk.result is None:
        return None
    return window(result, hunk.result, key)


def lost_main(hunk: Hunk, merge: MergeResult, result: Sequence[bytes] | None, data: bool = False) -> list[int]:
    """0-based lines of main's file that main wrote in the hunk and the result lacks near it.

    A still-conflicted hunk (or one without a known result) loses none of
    main's lines: the sentences there speak of taking main's side.
    ``data`` (values only) compares stripped lines, as ``find_dropped`` does.
    """
    key = bytes.strip if data else norm
    kept = kept_near(hunk, result, key)
    if kept is None:
        return []
    return missing(merge.theirs, side_changed(merge.theirs_script, hunk.main), kept, key)


def as_ranges(lines: Sequence[int], text: Sequence[bytes]) -> tuple[LineRange, ...]:
    """Sorted 0-based line numbers as 1-based ranges; a gap of lines without content joins two runs."""
    out: list[LineRange] = []
    for n in sorted(set(lines)):
        if out and all(not meaningful(text[k]) for k in range(out[-1].end, n)):
            out[-1] = LineRange(out[-1].start, n + 1)
        else:
            out.append(LineRange(n + 1, n + 1))
    return tuple(out)


def lost_lines(dev: Sequence[int], main: Sequence[int], merge: MergeResult) -> LostLines:
    """Both sides' lost lines (0-based indexes into each side's file) as the model's ranges."""
    return LostLines(as_ranges(dev, merge.ours), as_ranges(main, merge.theirs))


def choice_loss(hunk: Hunk, merge: MergeResult, data: bool = False, python: bool = False) -> ChoiceLoss:
    """What taking each side's text here would lose of the other side's own lines (both directions).

    A side's own line is lost to the other side's text when that text has no
    line equal to it near the hunk (whitespace-blind; stripped for values);
    in Python a line the other side only laid out anew (the same tokens) is
    not lost (``layout.py``).
    """
    key = bytes.strip if data else norm
    dev = missing(merge.ours, side_changed(merge.ours_script, hunk.dev), window(merge.theirs, hunk.main, key), key)
    main = missing(merge.theirs, side_changed(merge.theirs_script, hunk.main), window(merge.ours, hunk.dev, key), key)
    if python and not data:
        same_dev = kept_positional(merge.ours, hunk.dev, dev, merge.theirs, hunk.main)
        same_main = kept_positional(merge.theirs, hunk.main, main, merge.ours, hunk.dev)
        dev = [n for n in dev if n not in same_dev]
        main = [n for n in main if n not in same_main]
    return ChoiceLoss(take_dev=as_ranges(main, merge.theirs), take_main=as_ranges(dev, merge.ours))
