"""One workflow annotation per worklist item (``github.py`` writes them as commands).

An item the gate fails on (``--fail-on``, or high when no gate was asked)
is an ``error``; another item still waiting for a decision a ``warning``
(a ``notice`` when low); a decided item, or one with nothing to decide, a
``notice``, so the PR still shows it.  The annotation sits on the first
place of the item in the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from workbench.analysis.model import Hunk, Level
from workbench.analysis.suggest.phrases import suggestion_words
from workbench.analysis.worklist.items import Member
from workbench.report.document import Report
from workbench.report.item_words import decide_words, item_facts, lost_words, places, taking_words
from workbench.report.items import ReportItem
from workbench.report.phrases import commit_label

Annotation = Literal["error", "warning", "notice"]


@dataclass(frozen=True, slots=True)
class ItemAnnotation:
    kind: Annotation
    message: str
    title: str
    file: str | None
    line: int | None
    end_line: int | None


def item_annotations(report: Report) -> list[ItemAnnotation]:
    level = report.gate.level if report.gate is not None else Level.HIGH
    hunks = {(f.path, h.index): h for f in report.analysis.files for h in f.all_hunks}
    return [_annotation(entry, level, hunks) for entry in report.items]


def _annotation(entry: ReportItem, level: Level, hunks: dict[tuple[str, int], Hunk]) -> ItemAnnotation:
    item = entry.item
    kind: Annotation
    if entry.blocks(level):
        kind = "error"
    elif entry.open and item.level is not Level.LOW:
        kind = "warning"
    else:
        kind = "notice"
    lines = [item.why, *_reasons(item.members, hunks), *_suggested(entry, hunks)]
    lines.append("; ".join(f for f in (lost_words(entry), taking_words(entry)) if f))
    lines += [f"commit: {commit_label(c)}" for c in entry.commits]
    lines += [f"where: {places(item.members)}", decide_words(entry)]
    first = item.members[0] if item.members else None
    hunk = hunks.get((first.path, first.hunk)) if first is not None and first.hunk is not None else None
    line = end = None
    if hunk is not None and hunk.result is not None:
        line = max(hunk.result.start if not hunk.result.empty else hunk.result.start - 1, 1)
        end = max(hunk.result.end, line)
    return ItemAnnotation(
        kind, "\n".join(lines), f"{item.level.value} {item_facts(entry)} ({item.id})",
        first.path if first is not None else None, line, end,
    )


REASONS = 3
"""How many of the riskiest member's reasons an annotation quotes."""


def _reasons(members: Sequence[Member], hunks: dict[tuple[str, int], Hunk]) -> list[str]:
    """The reasons of the item's riskiest hunk, strongest first: why it matters, in the evidence's own words."""
    found = [hunks[(m.path, m.hunk)] for m in members if m.hunk is not None and (m.path, m.hunk) in hunks]
    if not found:
        return []
    riskiest = max(found, key=lambda h: h.risk)
    raising = sorted((s for s in riskiest.signals if s.weight > 0), key=lambda s: -s.weight)
    return [s.message for s in raising[:REASONS]]


def _suggested(entry: ReportItem, hunks: dict[tuple[str, int], Hunk]) -> list[str]:
    """The item's suggestion, when its members have one: the riskiest's in words, and how many share one."""
    members = [hunks[(m.path, m.hunk)] for m in entry.item.members if m.hunk is not None and (m.path, m.hunk) in hunks]
    suggested = [h for h in members if h.suggestion is not None]
    if not suggested:
        return []
    riskiest = max(suggested, key=lambda h: h.risk)
    assert riskiest.suggestion is not None
    words = "suggested: " + suggestion_words(riskiest.suggestion, {c.sha: c.pr for c in entry.commits})
    if len(members) > 1:
        words += f" ({len(suggested)} of {len(members)} hunks have a suggestion)"
    return [words]
