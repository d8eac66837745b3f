"""One line of text asked for in a dialog (a note, an acknowledgement's reason).

| Key | Action |
| :- | :- |
| enter | keep the text |
| esc | cancel (returns None) |
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Static

from workbench.tui.dialogs.once import OnceModal


class PromptScreen(OnceModal[str | None]):
    """Ask for a line of text; dismiss with it (enter) or None (esc)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", priority=True)]
    AUTO_FOCUS = "#prompt-input"

    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical {
        width: 90; max-width: 100%; height: auto; border: thick $primary; background: $surface; padding: 1 2;
    }
    PromptScreen #prompt-question { width: 1fr; margin-bottom: 1; }
    PromptScreen #prompt-help { color: $text-muted; margin-top: 1; }
    """

    def __init__(self, question: Text, value: str = "", placeholder: str = "", required: bool = False) -> None:
        super().__init__()
        self._question = question
        """The question (repository text already made visible)."""
        self._value = value
        self._placeholder = placeholder
        self._required = required

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._question, id="prompt-question")
            yield Input(self._value, placeholder=self._placeholder, id="prompt-input")
            words = "enter keeps it · esc cancels" + ("" if self._required else " · an empty note removes it")
            yield Static(Text(words), id="prompt-help")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = " ".join(event.value.split())
        if self._required and not text:
            self.notify("Say why: the reason is what reviewers and CI read.", severity="warning")
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
