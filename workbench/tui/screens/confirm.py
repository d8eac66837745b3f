"""A question with a few answers, each on a key: returns the answer's value.

| Key | Action |
| :- | :- |
| the key shown beside each answer | choose it |
| esc | cancel (returns the cancel value) |
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Button, Static

from workbench.tui.screens.once import OnceModal


@dataclass(frozen=True, slots=True)
class Answer:
    key: str
    label: str
    value: str


class ConfirmScreen(OnceModal[str]):
    """Ask, and dismiss with the chosen answer's value."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 76; height: auto; max-height: 80%;
        border: thick $primary; background: $surface; padding: 1 2;
    }
    ConfirmScreen #question { width: 1fr; margin-bottom: 1; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: right; }
    ConfirmScreen Button { margin-left: 1; min-width: 12; }
    """

    def __init__(self, question: Text, answers: list[Answer], cancel: str = "cancel") -> None:
        super().__init__()
        self.question = question
        """The question, as text (repository text already made visible)."""
        self.answers = answers
        """The answers offered, in order (a key, a label, the value returned)."""
        self._cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            with Horizontal():
                for i, answer in enumerate(self.answers):
                    yield Button(Text(f"{answer.label} ({answer.key})"), id=f"answer-{i}",
                                 variant="primary" if i == 0 else "default")

    def on_key(self, event: Key) -> None:
        for answer in self.answers:
            if event.character == answer.key or event.key == answer.key:
                event.stop()
                self.dismiss(answer.value)
                return

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        index = int((event.button.id or "answer-0").split("-")[1])
        self.dismiss(self.answers[index].value)

    def action_cancel(self) -> None:
        self.dismiss(self._cancel)
