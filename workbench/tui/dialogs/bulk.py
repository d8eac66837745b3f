"""The bulk-decision question: which side, which risk levels, where; it says how many hunks and files first.

| Key | Action |
| :- | :- |
| m / d | take main / take dev |
| 1 / 2 | below medium (low risk) / below high (low and medium) |
| f / s | this file / the whole sync |
| enter | do it (one u undoes it all) |
| esc | cancel |
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.tui.moves import Bulk, Reach

Count = Callable[[Bulk], tuple[int, int]]
"""(hunks, files) a bulk move would decide."""


class BulkScreen(ModalScreen[Bulk | None]):
    """Adjust a bulk move with single keys, see its count, confirm with enter."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "confirm", "Do it"),
        Binding("m", "side('main')", "Main"),
        Binding("d", "side('dev')", "Dev"),
        Binding("1", "below('medium')", "Low"),
        Binding("2", "below('high')", "Low+medium"),
        Binding("f", "scope('file')", "This file"),
        Binding("s", "scope('sync')", "Whole sync"),
    ]

    DEFAULT_CSS = """
    BulkScreen { align: center middle; }
    BulkScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    """

    def __init__(self, start: Bulk, count: Count, file_label: str | None) -> None:
        super().__init__()
        self.bulk = start
        self._count = count
        self._file_label = file_label
        """The open file (None: no text file open, so only the whole sync)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._text(), id="bulk-question")

    def _text(self) -> Text:
        hunks, files = self._count(self.bulk)
        text = Text()
        text.append(self.bulk.words().capitalize(), style="bold")
        text.append("?\n\n")
        if hunks:
            text.append(f"{hunks} hunk{'s' if hunks != 1 else ''} in {files} file{'s' if files != 1 else ''}",
                        style="bold")
            text.append(" would be decided; u undoes them all in one step.\n\n")
        else:
            text.append("No undecided hunk matches.\n\n", style="bold")
        side, level, where = self.bulk.choice, self.bulk.below, self.bulk.reach
        text.append(f"  m main{' ●' if side is Choice.MAIN else ''}   d dev{' ●' if side is Choice.DEV else ''}\n")
        text.append(f"  1 low risk{' ●' if level is Level.MEDIUM else ''}   "
                    f"2 low and medium{' ●' if level is Level.HIGH else ''}\n")
        if self._file_label is not None:
            text.append(f"  f this file ({self._file_label}){' ●' if where is Reach.FILE else ''}   ")
        text.append(f"s whole sync{' ●' if where is Reach.SYNC else ''}\n\n")
        text.append("enter: do it    esc: cancel", style="dim")
        return text

    def _update(self, bulk: Bulk) -> None:
        self.bulk = bulk
        self.query_one("#bulk-question", Static).update(self._text())

    def action_side(self, side: str) -> None:
        self._update(Bulk(Choice(side), self.bulk.below, self.bulk.reach, self.bulk.path))

    def action_below(self, level: str) -> None:
        self._update(Bulk(self.bulk.choice, Level(level), self.bulk.reach, self.bulk.path))

    def action_scope(self, scope: str) -> None:
        if scope == Reach.FILE.value and self._file_label is None:
            return
        self._update(Bulk(self.bulk.choice, self.bulk.below, Reach(scope), self.bulk.path))

    def action_confirm(self) -> None:
        hunks, _files = self._count(self.bulk)
        self.dismiss(self.bulk if hunks else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
