"""The top line: which sync is open (mode, dev and main tips) and what is going on.

A narrow terminal gets the compact form of the line (shorter words and
commit ids) rather than the long one cut off before its end.
"""

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
        self._compact: Text | None = None
        self._busy = ""
        self._counter = ""

    def set_title(self, title: Text, compact: Text | None = None) -> None:
        """The line, and a shorter one for when it does not fit."""
        self._title = title
        self._compact = compact
        self._paint()

    def on_resize(self) -> None:
        self._paint()

    def set_busy(self, note: str) -> None:
        """A short note shown at the end of the line ("" when idle)."""
        self._busy = note
        self._paint()

    def set_counter(self, words: str) -> None:
        """The sync's items still open (``items 9/11 open``), after the title where it fits."""
        self._counter = words
        self._paint()

    def _paint(self) -> None:
        width = self.size.width
        extra = len(self._counter) + 3 if self._counter else 0
        fits = not width or self._compact is None or self._title.cell_len + extra <= width
        if fits:
            text = self._title.copy()
            if self._counter:
                text.append(f" · {self._counter}", style="bold")
        else:  # narrow: the compact title, and the counter when it fits too (the worklist's heading has it)
            text = (self._compact or self._title).copy()
            if self._counter and text.cell_len + extra <= width:
                text.append(f" · {self._counter}", style="bold")
        if self._busy:
            text.append(f"  ⋯ {self._busy}", style="italic")
        self.update(text)
