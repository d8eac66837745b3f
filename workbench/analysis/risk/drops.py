"""Line-loss signals: dev's own lines that neither main nor the result kept.

The maintainers' audit compares sorted line sets per file, so a line that
happens to exist anywhere else in the file hides a loss, and a loss cannot
be pinned to a hunk.  Here each hunk's dev lines are looked for near the
hunk in main's file and in the result (a window of lines around it), and
only lines dev itself wrote (changed since the merge base) count.  A loss
is intentional when a main commit deleted the base lines dev had edited;
that commit is named as the evidence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.analysis.model import Hunk, LineRange, Signal
from workbench.analysis.risk.evidence import FileEvidence, labels
from workbench.analysis.risk.names import dangling
from workbench.analysis.risk.text import content_lines, is_data, meaningful, norm, shorten
from workbench.analysis.xdiff import MergeResult

DEV_ONLY_LINES_DROPPED = "dev-only-lines-dropped"
MAIN_REMOVED_INTENTIONALLY = "main-removed-intentionally"

WINDOW = 20
"""Lines either side of a hunk where a dev line still counts as kept."""
DROPPED_WEIGHT = 20
"""Weight of the first dropped line of code..."""
PER_LINE = 4
"""...plus this for each further one..."""
MAX_LINES_BONUS = 28
"""...up to this much (8 lines of code make a hunk high on their own)."""
DANGLING_BONUS = 30
"""A name the dropped lines defined is still used by the result."""
DATA_WEIGHT = 5
"""Only values (golden numbers, lock entries) were dropped."""
REMOVED_WEIGHT = -50


@dataclass(frozen=True)
class Dropped:
    """Dev lines of one hunk that are gone: 0-based indexes in dev's file, and their text."""

    lines: tuple[int, ...] = ()
    text: tuple[bytes, ...] = ()

    @property
    def code(self) -> tuple[bytes, ...]:
        """The dropped lines that are code rather than plain values."""
        return tuple(line for line in self.text if not is_data(line))


def _window(lines: Sequence[bytes], where: LineRange | None, key: Callable[[bytes], bytes]) -> set[bytes]:
    if where is None:
        return set()
    lo = max(0, where.start - 1 - WINDOW)
    hi = min(len(lines), where.end + WINDOW)
    return {key(line) for line in lines[lo:hi]}


def dev_changed(script: tuple[tuple[int, int, int, int], ...], hunk: Hunk) -> list[int]:
    """0-based dev lines of the hunk that differ from the merge base (dev's own work)."""
    lo, hi = hunk.dev.start - 1, hunk.dev.end
    found: list[int] = []
    for _, _, start, count in script:
        found.extend(range(max(lo, start), min(hi, start + count)))
    return found


def find_dropped(
    hunk: Hunk,
    merge: MergeResult,
    result_lines: Sequence[bytes] | None,
    data: bool = False,
) -> Dropped:
    """Dev's own content lines in the hunk that the result's text near it lacks.

    Main having the line matters only through the result: a line dev moved
    and main kept in place is lost just the same when the result drops it.
    Without a result (the file is gone) main's text stands in for it.  Code
    is compared whitespace-blind; ``data`` (values only) just stripped, as
    good for generated files and much cheaper on large ones.
    """
    key = bytes.strip if data else norm
    if result_lines is not None and hunk.result is not None:
        kept = _window(result_lines, hunk.result, key)
    else:
        kept = _window(merge.theirs, hunk.main, key)
    pairs = [
        (index, merge.ours[index])
        for index in dev_changed(merge.ours_script, hunk)
        if key(merge.ours[index]) not in kept and meaningful(merge.ours[index])
    ]
    return Dropped(tuple(i for i, _ in pairs), tuple(line for _, line in pairs))


def dev_only_lines_dropped(
    hunk: Hunk,
    dropped: Dropped,
    writers: Sequence[str],
    ev: FileEvidence,
    result_lines: Sequence[bytes] | None,
    data: bool = False,
) -> Signal | None:
    """The hunk loses lines only dev had; more so if the result still needs them."""
    if not dropped.lines:
        return None
    code = () if data else dropped.code
    commits = [ev.commit(sha) for sha in writers]
    source = f" (from dev's {labels(commits)})" if commits else ""
    count = len(dropped.lines)
    what = f"{count} line{'s' if count > 1 else ''}"
    if not code:
        return Signal(
            DEV_ONLY_LINES_DROPPED,
            f"{what} of values dev wrote here{source} {'is' if count == 1 else 'are'} not in the "
            f"result, e.g. \u201c{shorten(dropped.text[0])}\u201d",
            tuple(writers),
            DATA_WEIGHT,
        )
    weight = DROPPED_WEIGHT + min(MAX_LINES_BONUS, PER_LINE * (len(code) - 1))
    message = (
        f"{what} dev wrote here{source} {'is' if count == 1 else 'are'} not in the result, e.g. \u201c{shorten(code[0])}\u201d"
    )
    names = _dangling(hunk, code, result_lines)
    if names:
        weight += DANGLING_BONUS
        shown = ", ".join(n.decode("utf-8", "replace") for n in names[:3])
        message += f"; the result still uses {shown}, which only {'this line' if count == 1 else 'these lines'} defined"
    return Signal(DEV_ONLY_LINES_DROPPED, message, tuple(writers), weight)


def _dangling(hunk: Hunk, code: tuple[bytes, ...], result_lines: Sequence[bytes] | None) -> list[bytes]:
    if result_lines is None or hunk.result is None:
        return []
    return dangling(code, result_lines, hunk.result.start - 1, hunk.result.end)


def main_removed_intentionally(hunk: Hunk, dropped: Dropped, ev: FileEvidence) -> Signal | None:
    """Main deleted the base lines dev had edited here; the deleting commit is the evidence."""
    base = content_lines(hunk.base_text)
    if not base or not dropped.lines:
        return None
    if len(content_lines(hunk.main_text)) * 4 > len(base):
        return None  # main rewrote these lines rather than deleting them
    deleters = ev.main_deleters(hunk)
    if not deleters:
        return None
    commits = [ev.commit(sha) for sha in deleters]
    return Signal(
        MAIN_REMOVED_INTENTIONALLY,
        f"main's {labels(commits)} deleted this code on purpose (\u201c{shorten(commits[0].subject, 70)}\u201d); "
        "dev's edits to it go with it",
        tuple(deleters),
        REMOVED_WEIGHT,
    )
