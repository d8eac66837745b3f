"""The worklist pane: the sync's items, most important first, the way into a review.

Moving onto an item (while the pane has the focus) shows its first
undecided member hunk; enter goes there with the hunk view focused.  ``F``
(a screen key) switches what it lists: what is still open, every item, or
what a commit after the merge changed.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move (shows the item's first open hunk) |
| enter | go to the item's first open hunk |
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.tui.keymap import Scope, bindings


@dataclass(frozen=True, slots=True)
class ItemEntry:
    """One item as listed: its id and its painted lines."""

    id: str
    text: Text


Paint = Callable[[int], list[ItemEntry]]
"""The items laid out for a width (the pane's, in cells)."""


class ItemOptions(OptionList):
    """The items themselves (j/k move, enter goes)."""

    BINDINGS = [*bindings(Scope.LIST), Binding("enter", "select", "Go", show=False)]

    def action_half_page_down(self) -> None:
        self._half_page(+1)

    def action_half_page_up(self) -> None:
        self._half_page(-1)

    def _half_page(self, direction: int) -> None:
        if self.option_count:
            step = max(1, self.size.height // 8)  # an item takes about four lines
            self.highlighted = max(0, min(self.option_count - 1, (self.highlighted or 0) + direction * step))


class WorklistPanel(Vertical):
    """A heading (counts and the filter) over the items."""

    DEFAULT_CSS = """
    WorklistPanel { height: 1fr; }
    WorklistPanel #worklist-summary { height: auto; min-height: 2; padding: 0 1; background: $panel; }
    WorklistPanel ItemOptions, WorklistPanel ItemOptions:focus { height: 1fr; background: $surface; border: none;
        padding: 0; }
    WorklistPanel ItemOptions:focus { background-tint: $foreground 4%; }
    """

    class ItemHighlighted(Message):
        """The user moved onto an item (the pane has the focus)."""

        def __init__(self, item_id: str) -> None:
            super().__init__()
            self.item_id = item_id

    class ItemChosen(Message):
        """Enter (or a click) on an item."""

        def __init__(self, item_id: str) -> None:
            super().__init__()
            self.item_id = item_id

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ids: list[str] = []
        self._shown: str | None = None
        """The item last highlighted by the app itself (a move onto it from there is no news)."""
        self._paint: Paint | None = None
        self._heading = Text()

    def compose(self) -> ComposeResult:
        yield Static(Text("Items"), id="worklist-summary")
        yield ItemOptions(id="worklist-items")

    @property
    def options(self) -> ItemOptions:
        return self.query_one(ItemOptions)

    @property
    def ids(self) -> tuple[str, ...]:
        """The items listed, in order."""
        return tuple(self._ids)

    @property
    def highlighted_id(self) -> str | None:
        index = self.options.highlighted
        return self._ids[index] if index is not None and 0 <= index < len(self._ids) else None

    def set_items(self, paint: Paint, heading: Text, keep: str | None = None) -> None:
        """Replace the items (``paint`` lays them out for a width, again when the pane is resized); the highlight
        stays on ``keep`` (else the one it was on, else the first)."""
        self._paint = paint
        self._heading = heading
        self._fill(keep or self.highlighted_id)

    def on_resize(self) -> None:
        if self._paint is not None:
            self._fill(self.highlighted_id)

    def _fill(self, keep: str | None) -> None:
        assert self._paint is not None
        entries = self._paint(max(self.size.width - 3, 20))  # the list's scrollbar takes two cells
        self._ids = [e.id for e in entries]
        self.query_one("#worklist-summary", Static).update(self._heading)
        options = self.options
        options.set_options([Option(e.text, id=e.id) for e in entries])
        if entries:
            options.highlighted = self._ids.index(keep) if keep in self._ids else 0
            self._shown = self._ids[options.highlighted]

    def show_item(self, item_id: str | None) -> None:
        """Highlight the item the cursor is in (without moving the cursor)."""
        if item_id is None or item_id not in self._ids or item_id == self.highlighted_id:
            return
        self._shown = item_id
        self.options.highlighted = self._ids.index(item_id)

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        found = event.option.id
        if found is not None and found != self._shown and self.options.has_focus:
            self._shown = found
            self.post_message(self.ItemHighlighted(found))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.ItemChosen(event.option.id))
