"""The in-app editor for a hunk's result, used when no external editor is set.

| Key | Action |
| :- | :- |
| ctrl+s | keep the text as this hunk's result |
| ctrl+a | select all (as in meld and VS Code; home goes to the line's start) |
| esc | cancel |

Textual's ``TextArea`` binds ctrl+a to the line's start (emacs) and select-all
to f7; an editor user reaches for ctrl+a, so the screen takes it first.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, TextArea

from workbench.tui.dialogs.once import OnceModal


class EditScreen(OnceModal[str | None]):
    """Edit text; dismiss with it (ctrl+s) or with None (esc)."""

    BINDINGS = [Binding("ctrl+s", "save", "Keep", priority=True), Binding("escape", "cancel", "Cancel", priority=True),
                Binding("ctrl+a", "select_all", "Select all", priority=True)]
    AUTO_FOCUS = "#edit-area"

    DEFAULT_CSS = """
    EditScreen { align: center middle; }
    EditScreen > Vertical { width: 90%; height: 80%; border: thick $primary; background: $surface; }
    EditScreen #edit-help { height: 1; padding: 0 1; background: $panel; }
    EditScreen TextArea { height: 1fr; }
    """

    def __init__(self, text: str, title: str, language: str | None) -> None:
        super().__init__()
        self._text = text
        self._title = title
        self._language = language

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self._title} · ctrl+s keeps it · esc cancels · ctrl+a selects all", id="edit-help",
                         markup=False)
            area = TextArea(self._text, id="edit-area", show_line_numbers=True, tab_behavior="indent")
            if self._language and self._language in area.available_languages:
                area.language = self._language
            yield area

    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text)

    def action_select_all(self) -> None:
        self.query_one(TextArea).select_all()

    def action_cancel(self) -> None:
        self.dismiss(None)
