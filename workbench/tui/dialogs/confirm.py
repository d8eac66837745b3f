"""A question with a few answers, each on a key: returns the answer's value.

| Key | Action |
| :- | :- |
| the key shown beside each answer | choose it |
| esc | cancel (returns the cancel value) |
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.widgets import Button, Static

from workbench.tui.dialogs.once import OnceModal

UNASKED_GRACE = 0.6
"""Seconds a question that comes up by itself ignores keys (they were typed for the screen below)."""


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

    def __init__(self, question: Text, answers: list[Answer], cancel: str = "cancel", *, unasked: bool = False) -> None:
        super().__init__()
        self.question = question
        """The question, as text (repository text already made visible)."""
        self.answers = answers
        """The answers offered, in order (a key, a label, the value returned)."""
        self._cancel = cancel
        self._unasked = unasked
        self._shown_at: float | None = None
        self._told = False

    def on_mount(self) -> None:
        self._shown_at = time.monotonic()

    def _too_soon(self) -> bool:
        """A question the user did not ask for (``unasked``) takes no key until it can have been seen.

        Keys typed for the screen below (``n n p``: next, next, previous)
        would otherwise answer it: ``p`` re-ran the analysis with a preset.
        A question the user asked for (``q``, then ``c``) takes keys at once.
        """
        return self._unasked and (self._shown_at is None or time.monotonic() - self._shown_at < UNASKED_GRACE)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="question")
            with Horizontal():
                for i, answer in enumerate(self.answers):
                    yield Button(Text(f"{answer.label} ({answer.key})"), id=f"answer-{i}",
                                 variant="primary" if i == 0 else "default")

    def on_key(self, event: Key) -> None:
        if self._too_soon():
            event.stop()
            self._tell_ignored(event)
            return
        for answer in self.answers:
            if event.character == answer.key or event.key == answer.key:
                event.stop()
                self.dismiss(answer.value)
                return

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if self._too_soon():
            return
        index = int((event.button.id or "answer-0").split("-")[1])
        self.dismiss(self.answers[index].value)

    def _tell_ignored(self, event: Key) -> None:
        """Say once that keys typed as the question came up answer nothing (never dropped without a word)."""
        if self._told:
            return
        self._told = True
        name = event.character if event.character and event.character.isprintable() else event.key
        self.notify(f"A question came up as you typed: {name!r} and the keys with it answer nothing. "
                    "Read it, then choose.", severity="warning")

    def action_cancel(self) -> None:
        self.dismiss(self._cancel)
