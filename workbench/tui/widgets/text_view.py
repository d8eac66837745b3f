"""Prepared rich text, wrapped once per width and painted line by line.

For panels whose text changes on every hunk move (the why panel): a
``Static`` would re-layout the whole screen on each update, this repaints
only itself.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text

from workbench.tui.keymap import Scope, bindings
from workbench.tui.palette import Palette
from workbench.tui.widgets.line_view import LineView


class TextView(LineView):
    """A read-only, scrollable, wrapped ``Text``."""

    BINDINGS = bindings(Scope.VIEW)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.show_cursor = False
        self._text = Text()
        self._lines: list[list[Segment]] = []
        self._wrapped_at = -1

    def show(self, text: Text) -> None:
        self._text = text
        self._wrapped_at = -1
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self._wrap()
        self.refresh_rows()

    @property
    def text(self) -> Text:
        """What the view shows (tests and the screen read it)."""
        return self._text

    def _wrap(self) -> None:
        width = self.scrollable_content_region.width
        if width <= 0 or width == self._wrapped_at:
            return
        console = self.app.console
        self._lines = [list(line.render(console)) for line in self._text.wrap(console, width)]
        self._wrapped_at = width

    def refresh_rows(self) -> None:
        self._wrap()
        super().refresh_rows()

    @property
    def row_count(self) -> int:
        return len(self._lines)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        segments = list(Segment.apply_style(self._lines[index], palette.text))
        used = Segment.get_line_length(segments)
        if used < width:
            segments.append(Segment(" " * (width - used), palette.text))
        return segments
