"""The why panel: the current hunk's risk signals as sentences, with their commits."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class WhyPanel(VerticalScroll):
    """Prepared sentences (``workbench.tui.present.why_text``), scrollable."""

    DEFAULT_CSS = """
    WhyPanel { background: $surface; padding: 0 1; }
    WhyPanel > Static { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="why-text")

    def show(self, text: Text) -> None:
        self.query_one("#why-text", Static).update(text)
        self.scroll_home(animate=False)
