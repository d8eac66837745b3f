"""A scrollable page of text over the app: what a training reveal (r) and score (s) show."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.tui.dialogs.page import PAGE_BINDINGS, ScrollingPage


class TextScreen(ScrollingPage):
    """A scrollable page of text over the app (esc, q or enter closes it)."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close"), *PAGE_BINDINGS]

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 100; height: 85%; border: thick $primary; background: $surface; padding: 1 2;
        border-title-style: bold;
    }
    """

    def __init__(self, title: str, body: Text) -> None:
        super().__init__()
        self._title = title
        self.body = body
        """What the page says (tests read it)."""

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll()
        scroll.border_title = self._title
        with scroll:
            yield Static(self.body)

    def action_close(self) -> None:
        self.dismiss(None)


class RevealScreen(TextScreen):
    """What shipped for one hunk."""


class ScoreScreen(TextScreen):
    """The score and every miss."""
