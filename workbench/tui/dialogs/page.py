"""A page of text over the app that scrolls with the keys of every other pane (j/k, PgDn/PgUp, ctrl+d/ctrl+u).

The keys come from the keymap (``Scope.PAGE``), so a key rebound for the
panes is rebound here too; the help screen and the training pages derive
from it.
"""

from __future__ import annotations

from textual.containers import VerticalScroll

from workbench.tui.dialogs.once import OnceModal
from workbench.tui.keymap import Scope, bindings

PAGE_BINDINGS = bindings(Scope.PAGE)


class ScrollingPage(OnceModal[None]):
    """A modal whose ``VerticalScroll`` scrolls by line, page and half page."""

    def _scroll(self) -> VerticalScroll:
        return self.query_one(VerticalScroll)

    def _by(self, rows: int) -> None:
        self._scroll().scroll_relative(y=rows, animate=False, immediate=True)

    def _page(self) -> int:
        return max(1, self._scroll().scrollable_content_region.height)

    def action_cursor_down(self) -> None:
        self._by(1)

    def action_cursor_up(self) -> None:
        self._by(-1)

    def action_page_down(self) -> None:
        self._by(self._page())

    def action_page_up(self) -> None:
        self._by(-self._page())

    def action_half_page_down(self) -> None:
        self._by(max(1, self._page() // 2))

    def action_half_page_up(self) -> None:
        self._by(-max(1, self._page() // 2))
