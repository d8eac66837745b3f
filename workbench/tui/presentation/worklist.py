"""What the worklist pane shows: one entry per item (level, kind, size, lost lines, why, files) and its heading."""

from __future__ import annotations

import textwrap

from rich.text import Text

from workbench.analysis.worklist.why import size_words
from workbench.services.worklist import FILTER_WORDS, ItemFilter, ItemRow, counts
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.glyphs import DECIDED, RISK_LETTER
from workbench.tui.palette import Palette
from workbench.tui.widgets.worklist import ItemEntry

WHY_LINES = 2
"""Lines of an item's sentence shown in the list (the Why pane has all of it)."""


def _cut(words: str, width: int) -> str:
    return words if len(words) <= width else words[:max(width - 1, 0)] + "…"


def why_lines(words: str, span: int) -> list[str]:
    """The item's sentence in at most ``WHY_LINES`` lines of ``span``, broken between words (a word longer than a
    line, a path, is broken inside), the last one cut with … when more follows."""
    lines = textwrap.wrap(words, span, break_long_words=True, break_on_hyphens=False) or [""]
    shown = lines[:WHY_LINES]
    if len(lines) > WHY_LINES:  # the next word did not fit on the last line: the cut always shows
        shown[-1] = _cut(f"{shown[-1]} {lines[WHY_LINES]}", span)
    return shown


def item_entry(ws: Workspace, row: ItemRow, width: int, palette: Palette) -> ItemEntry:
    """One item: ``H commit · 3 hunks in 2 files · −4 dev −0 main``, its sentence, its files."""
    item = row.item
    width = max(width, 20)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(DECIDED if not row.open else RISK_LETTER[item.level], style=palette.risk[item.level])
    text.append(f" {item.kind.value}", style="bold")
    waiting = len(row.undecided)
    state = "" if waiting == len(item.members) else " · decided" if not waiting else f" · {waiting} undecided"
    text.append(_cut(f" · {size_words(item)}{state}", width - 2 - len(item.kind.value)))
    text.append("\n")
    text.append(f"  −{item.lost_dev} dev  −{item.lost_main} main", style=palette.muted)
    if row.later:
        text.append("  · changed after the merge", style=palette.muted)
    span = width - 2
    for line in why_lines(visible(item.why), span):
        text.append("\n  " + line)
    files = ", ".join(p.rsplit("/", 1)[-1] + ("" if ws.analysis.file(p) is not None else " (merged cleanly)")
                      for p in item.paths)
    text.append("\n  " + _cut(visible(files), span), style=palette.muted)
    return ItemEntry(item.id, text)


def worklist_heading(ws: Workspace, only: ItemFilter, shown: int) -> Text:
    """``Items 9/11 open, 7 high`` over ``9 shown: still open (F)``."""
    still, high, total = counts(ws)
    heading = Text(no_wrap=True, overflow="ellipsis")
    heading.append("Items", style="bold")
    heading.append(f" {still}/{total} open, {high} high")
    heading.append(f"\n{shown} shown: {FILTER_WORDS[only]} (F)", style="dim")
    return heading


def items_counter(ws: Workspace) -> str:
    """The sync bar's counter: ``items 9/11 open`` (empty when there is no worklist)."""
    still, _high, total = counts(ws)
    return f"items {still}/{total} open" if total else ""
