"""The terminal report's worklist: every item (or only those still open, or changed after the merge), its hunks
under it in the hunk format of ``text.py``."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from rich.text import Text

from workbench.report.document import Report, RiskyHunk
from workbench.report.item_words import choice_words, decide_words, item_facts, lost_words, places, taking_words
from workbench.report.items import ReportItem
from workbench.report.styles import LEVEL_STYLE
from workbench.textsafe import visible


class ItemFilter(str, Enum):
    """Which items the text report lists (``report --open``, ``--changed``)."""

    ALL = "all"
    OPEN = "open"
    """Items that still wait for a decision."""
    CHANGED = "changed"
    """Items a commit after the merge changed (``--result`` later than the merge)."""

    def keeps(self, entry: ReportItem) -> bool:
        if self is ItemFilter.OPEN:
            return entry.open
        if self is ItemFilter.CHANGED:
            return entry.later
        return True


HunkText = Callable[[RiskyHunk], list[Text]]


def worklist_text(report: Report, only: ItemFilter, hunk: HunkText) -> list[Text]:
    """The section's lines: a line saying what is shown, then each item kept by ``only``."""
    kept = [e for e in report.items if only.keeps(e)]
    out: list[Text] = []
    if only is not ItemFilter.ALL:
        what = "still open" if only is ItemFilter.OPEN else "changed after the merge"
        out.append(Text(f"{len(kept)} of {len(report.items)} items, those {what}", style="dim"))
    risky = {(r.path, r.hunk.index): r for r in report.risky}
    for entry in kept:
        out += _item(entry, risky, hunk)
    return out


def _item(entry: ReportItem, risky: dict[tuple[str, int], RiskyHunk], hunk: HunkText) -> list[Text]:
    item = entry.item
    head = Text()
    head.append(f"{item.level.value.upper():6} ", style=LEVEL_STYLE[item.level])
    head.append(visible(item.id), style="bold")
    head.append("  " + visible(item_facts(entry)))
    out = [head, Text("  " + visible(item.why))]
    facts = [lost_words(entry), taking_words(entry)]
    out.append(Text("  " + "; ".join(f for f in facts if f)))
    out += [Text("  commit: " + visible(f"{c.short} {c.subject}"), style="dim") for c in entry.commits]
    out.append(Text("  where: " + visible(places(item.members)), style="dim"))
    out.append(Text("  " + decide_words(entry), style="dim"))
    for member in item.members:
        found = risky.get((member.path, member.hunk)) if member.hunk is not None else None
        if found is not None:
            lines = hunk(found)
            out += [*lines[:1], Text("  " + choice_words(found.hunk), style="dim"), *lines[1:]]
    out.append(Text())
    return out
