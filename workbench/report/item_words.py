"""The words every format uses for a worklist item (plain strings, not yet escaped)."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import Hunk, Level, LineRange
from workbench.analysis.worklist import Member, why
from workbench.analysis.worklist.serialized import ItemState
from workbench.report.items import ReportItem
from workbench.wording import plural

MEMBERS_LISTED = 6
"""Places named per item; the rest are counted."""
LIST_COMMAND = "workbench report --format text"
"""The command that lists every item (``--open``: only what still waits for a decision)."""


def item_facts(entry: ReportItem) -> str:
    """``commit · 3 hunks in 2 files · open`` (the item's kind, size and state)."""
    state = state_words(entry)
    if entry.later:
        state += ", changed after the merge"
    return f"{entry.item.kind.value} · {why.size_words(entry.item)} · {state}"


def state_words(entry: ReportItem) -> str:
    """Whether the item still waits: ``open``, ``partly decided``, ``decided`` or ``nothing to decide``."""
    if entry.state is ItemState.DECIDED:
        return "decided"
    if entry.open:
        return "partly decided" if entry.state is ItemState.PARTLY else "open"
    return "nothing to decide"


def lost_words(entry: ReportItem) -> str:
    """What the result loses, both sides (``why.lost_words``)."""
    return why.lost_words(entry.item)


def taking_words(entry: ReportItem) -> str:
    """What each choice loses, both directions (nothing when neither loses anything)."""
    if not entry.take_dev and not entry.take_main:
        return ""
    return (f"taking dev's side loses {plural(entry.take_dev, 'line')} of main's; "
            f"taking main's loses {plural(entry.take_main, 'line')} of dev's")


def choice_words(hunk: Hunk) -> str:
    """What each choice loses in one hunk, both directions: ``taking dev loses main's lines 12-14; taking main
    loses nothing of dev's``."""
    def said(ranges: tuple[LineRange, ...], whose: str) -> str:
        if not ranges:
            return f"nothing of {whose}'s"
        where = ", ".join(str(r.start) if r.start == r.end else f"{r.start}-{r.end}" for r in ranges)
        return f"{whose}'s {'line' if len(ranges) == 1 and ranges[0].count == 1 else 'lines'} {where}"

    loss = hunk.choice_loss
    return f"taking dev loses {said(loss.take_dev, 'main')}; taking main loses {said(loss.take_main, 'dev')}"


def places(members: Sequence[Member], listed: int = MEMBERS_LISTED) -> str:
    """``a.py hunks 2, 5; b.py (file)`` for the first files, the rest counted."""
    by_path: dict[str, list[Member]] = {}
    for m in members:
        by_path.setdefault(m.path, []).append(m)
    shown = []
    for path, found in list(by_path.items())[:listed]:
        hunks = [str(m.hunk + 1) for m in found if m.hunk is not None]
        shown.append(f"{path} {'hunk' if len(hunks) == 1 else 'hunks'} {', '.join(hunks)}" if hunks else f"{path} (file)")
    rest = len(by_path) - len(shown)
    return "; ".join(shown) + (f"; and {plural(rest, 'more file')}" if rest > 0 else "")


def decide_words(entry: ReportItem) -> str:
    """``decide: main, both, result, custom; claims: judgement``."""
    item = entry.item
    words = "decide: " + ", ".join(d.value for d in item.decisions)
    return words + ("; claims: " + ", ".join(c.value for c in item.claims) if item.claims else "")


def rest_words(rest: Sequence[ReportItem]) -> str:
    """The line counting items a capped list leaves out, with the command that lists them."""
    levels = ", ".join(f"{n} {level.value}" for level in (Level.HIGH, Level.MEDIUM, Level.LOW)
                       if (n := sum(1 for r in rest if r.item.level is level)))
    still = sum(1 for r in rest if r.open)
    return f"{plural(len(rest), 'more item')} ({levels}; {still} open)"


OPEN_FLAG = "--open"
"""The text report's filter for what still waits for a decision."""


def count_words(items: Sequence[ReportItem]) -> str:
    """``21 items (12 high, 5 medium, 4 low), 17 open``."""
    levels = ", ".join(f"{sum(1 for i in items if i.item.level is level)} {level.value}"
                       for level in (Level.HIGH, Level.MEDIUM, Level.LOW))
    return f"{plural(len(items), 'item')} ({levels}), {sum(1 for i in items if i.open)} open"
