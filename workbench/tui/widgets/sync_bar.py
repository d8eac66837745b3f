"""The top line: which sync is open (mode, dev and main tips) and what is going on."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static


class SyncBar(Static):
    """One line of facts about the open sync, plus a busy note while work runs."""

    DEFAULT_CSS = """
    SyncBar { height: 1; background: $panel; color: $foreground; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text(" workbench  loading…"), id=id)
        self._title = Text(" workbench")
        self._busy = ""

    def set_title(self, title: Text) -> None:
        self._title = title
        self._paint()

    def set_busy(self, note: str) -> None:
        """A short note shown at the end of the line ("" when idle)."""
        self._busy = note
        self._paint()

    def _paint(self) -> None:
        text = self._title.copy()
        if self._busy:
            text.append(f"  ⋯ {self._busy}", style="italic")
        self.update(text)
