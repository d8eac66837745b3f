"""The whole-file choice for binary and modify/delete files: keep dev, take main, or delete.

| Key | Action |
| :- | :- |
| d | keep dev's file |
| m | take main's file |
| x | delete the file |
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static


class FileChoicePanel(VerticalScroll, can_focus=True):
    """Both sides' blob ids and sizes, and the choice made so far."""

    DEFAULT_CSS = """
    FileChoicePanel { background: $background; padding: 1 2; }
    FileChoicePanel:focus { background-tint: $primary 5%; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="choice-text")

    def show(self, text: Text) -> None:
        self.query_one("#choice-text", Static).update(text)
