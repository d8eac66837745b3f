"""The search field under the hunk view: ``/`` opens it, the view follows as you type.

| Key | Action |
| :- | :- |
| enter | keep the search: ``n`` / ``N`` go on from match to match |
| esc | go back to where the search started, no search on |

While a search is on the bar stays, out of the way of the keys, saying the
pattern and which match the view is on (``3 of 12``); it goes when the
search ends.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Static

from workbench.tui.widgets.hunk_search import Found


class SearchBar(Horizontal):
    """``/`` and a one-line field, and how far the search got."""

    DEFAULT_CSS = """
    SearchBar { height: 1; display: none; background: $panel; }
    SearchBar.active { display: block; }
    SearchBar #search-label { width: auto; padding: 0 0 0 1; text-style: bold; }
    SearchBar Input { width: 1fr; }
    SearchBar #search-where { width: auto; padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Back", show=False)]

    class Typed(Message):
        """The pattern changed."""

        def __init__(self, pattern: str) -> None:
            super().__init__()
            self.pattern = pattern

    class Closed(Message):
        """Enter (``kept``) or esc in the field."""

        def __init__(self, pattern: str, kept: bool) -> None:
            super().__init__()
            self.pattern = pattern
            self.kept = kept

    def compose(self) -> ComposeResult:
        yield Static("/", id="search-label")
        field = Input(placeholder="search this file's text (enter keeps it, esc goes back)", id="search-field",
                      compact=True, select_on_focus=True)
        field.can_focus = False  # only ``/`` opens it: keys typed ahead must never land in a hidden field
        yield field
        yield Static(id="search-where", markup=False)

    @property
    def field(self) -> Input:
        return self.query_one("#search-field", Input)

    @property
    def typing(self) -> bool:
        """The field has focus (keys type into it)."""
        return self.field.has_focus

    def open(self, pattern: str) -> None:
        """Show the field with ``pattern`` in it (selected: typing replaces it, enter searches it again)."""
        field = self.field
        with field.prevent(Input.Changed):
            field.value = pattern
        self.query_one("#search-where", Static).update("")
        self.add_class("active")
        field.can_focus = True
        field.focus()
        if pattern:
            self.post_message(self.Typed(pattern))

    def show_where(self, found: Found | None, closing: bool = False) -> None:
        """Which match the view is on; the bar goes when no search is on and nobody types in it (or the field
        is ``closing``)."""
        if found is None and (closing or not self.typing):
            self.remove_class("active")
            self.field.can_focus = False
            return
        self.query_one("#search-where", Static).update(Text(found.where() if found is not None else ""))

    def _close(self, kept: bool) -> None:
        field = self.field
        field.can_focus = False
        self.post_message(self.Closed(field.value, kept))

    @on(Input.Changed, "#search-field")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Typed(event.value))

    @on(Input.Submitted, "#search-field")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._close(kept=True)

    def action_cancel(self) -> None:
        self._close(kept=False)
