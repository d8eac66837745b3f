"""A hunk's dev, main and result text as diffs a reviewer reads at a glance.

The first diff runs from dev's lines to what the result holds, so every
``-`` line is dev work the result lost.  When the result is not simply
main's side, a second diff from main's lines shows what was done instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import Hunk, LineRange
from workbench.analysis.xdiff import diff_lines
from workbench.wording import plural
from workbench.textsafe import decode

MAX_LINES = 120
"""Per diff; longer hunks are cut with a count of what was left out."""


@dataclass(frozen=True, slots=True)
class DiffLine:
    """``sign`` is ``" "``, ``"-"``, ``"+"``, ``"@"`` (a header) or ``"…"`` (a cut)."""

    sign: str
    text: str


def hunk_diffs(hunk: Hunk) -> list[DiffLine]:
    """dev -> result (or dev -> main when the file is gone), then main -> result if they differ."""
    if hunk.result_text is None:
        return _diff("dev", hunk.dev, hunk.dev_text, "main", hunk.main, hunk.main_text) + [
            DiffLine("@", "the result does not have this file")
        ]
    lines = _diff("dev", hunk.dev, hunk.dev_text, "result", hunk.result, hunk.result_text)
    if tuple(hunk.result_text) != tuple(hunk.main_text):
        lines += _diff("main", hunk.main, hunk.main_text, "result", hunk.result, hunk.result_text)
    return lines


MAX_QUOTED = 12
"""Lost lines quoted per side; the rest are counted."""


def lost_quotes(hunk: Hunk) -> list[tuple[str, str, list[str]]]:
    """Each side's lost lines (``hunk.lost_lines``) as (side, "lines 12-14, 20", quoted text)."""
    found = []
    for side, ranges, first, text in (
        ("dev", hunk.lost_lines.dev, hunk.dev.start, hunk.dev_text),
        ("main", hunk.lost_lines.main, hunk.main.start, hunk.main_text),
    ):
        numbers = [n for r in ranges for n in range(r.start, r.end + 1) if 0 <= n - first < len(text)]
        if not numbers:
            continue
        quoted = [_line(text[n - first]) for n in numbers[:MAX_QUOTED]]
        if len(numbers) > MAX_QUOTED:
            quoted.append(f"… {plural(len(numbers) - MAX_QUOTED, 'more line')}")
        where = ", ".join(str(r.start) if r.start == r.end else f"{r.start}-{r.end}" for r in ranges)
        found.append((side, f"{'line' if len(numbers) == 1 else 'lines'} {where}", quoted))
    return found


def _diff(
    old_name: str,
    old_range: LineRange,
    old: Sequence[bytes],
    new_name: str,
    new_range: LineRange | None,
    new: Sequence[bytes],
) -> list[DiffLine]:
    out = [DiffLine("@", f"{old_name} {_span(old_range)} -> {new_name} {_span(new_range)}")]
    body: list[DiffLine] = []
    pos_old = 0
    for change in diff_lines(old, new):
        body += [DiffLine(" ", _line(x)) for x in old[pos_old : change.i1]]
        body += [DiffLine("-", _line(x)) for x in old[change.i1 : change.i1 + change.chg1]]
        body += [DiffLine("+", _line(x)) for x in new[change.i2 : change.i2 + change.chg2]]
        pos_old = change.i1 + change.chg1
    body += [DiffLine(" ", _line(x)) for x in old[pos_old:]]
    if len(body) > MAX_LINES:
        body = body[:MAX_LINES] + [DiffLine("…", f"{plural(len(body) - MAX_LINES, 'more line')} not shown")]
    return out + body


def _span(value: LineRange | None) -> str:
    if value is None:
        return "(absent)"
    if value.empty:
        return f"(nothing, before line {value.start})"
    return f"line {value.start}" if value.count == 1 else f"lines {value.start}-{value.end}"


def _line(raw: bytes) -> str:
    text = decode(raw)
    if text.endswith("\r\n"):
        return text[:-2]
    return text[:-1] if text.endswith("\n") else text
