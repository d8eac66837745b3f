"""The Markdown report's worklist: each item once, most important first, its hunks under it.

An item says why (one sentence), what the result loses of each side and what
each choice would lose, the commits behind it, where it is and what deciding
it can do; then its riskiest hunks in the hunk format of ``markdown.py``.  A
capped list ends with the count of what it left out and the command that
lists everything.
"""

from __future__ import annotations

from collections.abc import Callable

from workbench.analysis.model import Commit, Level
from workbench.report.document import Report, RiskyHunk
from workbench.report.escape import code_span, md_prose, md_text
from workbench.report.item_words import (
    LIST_COMMAND,
    OPEN_FLAG,
    choice_words,
    decide_words,
    item_facts,
    lost_words,
    places,
    rest_words,
    taking_words,
)
from workbench.report.items import ReportItem

HUNKS_PER_ITEM = 3
"""Hunks shown under an item (its riskiest first); the rest are named in its places."""

_MARK = {Level.HIGH: "🔴", Level.MEDIUM: "🟠", Level.LOW: "⚪"}

HunkLines = Callable[[RiskyHunk, bool], list[str]]
"""Renders one hunk (with its text or not)."""
CommitLink = Callable[[Commit], str]


def worklist_lines(report: Report, diffs_for: tuple[Level, ...], cap: int | None, hunk: HunkLines,
                   commit: CommitLink) -> list[str]:
    """The section's lines: up to ``cap`` items (None: all), then the count of the rest."""
    shown = report.items if cap is None else report.items[:cap]
    risky = {(r.path, r.hunk.index): r for r in report.risky}
    out: list[str] = []
    for entry in shown:
        out += _item(entry, risky, diffs_for, hunk, commit)
    rest = report.items[len(shown):]
    if rest:
        out.append(f"- … {md_text(rest_words(rest))}: {code_span(LIST_COMMAND)} lists them all "
                   f"({code_span(OPEN_FLAG)} for what still waits for a decision)")
    return out


def _item(entry: ReportItem, risky: dict[tuple[str, int], RiskyHunk], diffs_for: tuple[Level, ...],
          hunk: HunkLines, commit: CommitLink) -> list[str]:
    item = entry.item
    lines = [f"{_MARK[item.level]} **{code_span(item.id)}** · {md_text(item_facts(entry))}", "", md_prose(item.why), ""]
    facts = [lost_words(entry), taking_words(entry)]
    lines.append("- " + md_text("; ".join(f for f in facts if f)))
    if entry.commits:
        lines.append("- commits: " + "; ".join(commit(c) for c in entry.commits))
    lines.append(f"- where: {md_text(places(item.members))}")
    lines.append(f"- {md_text(decide_words(entry))}")
    members = sorted((risky[(m.path, m.hunk)] for m in item.members if m.hunk is not None and (m.path, m.hunk) in risky),
                     key=lambda r: (-r.level.rank, -r.hunk.risk))
    if members:
        lines.append("")
    for found in members[:HUNKS_PER_ITEM]:
        shown = hunk(found, found.level in diffs_for)
        lines += [*shown[:2], f"- {md_text(choice_words(found.hunk))}", *shown[2:]]
    return lines + [""]
