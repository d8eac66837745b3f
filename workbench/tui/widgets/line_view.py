"""A virtualised view of prepared rows: only the lines on screen are painted.

The base of the hunk view, the diff views and the result preview (Textual's
Line API over ``ScrollView``): subclasses say how many rows there are and
paint one row into a ``Strip``; this class keeps a cursor, scrolls it into
view, caches painted strips, and rebuilds its palette when the theme changes.
A 5,000-line file costs the same to move through as a 50-line one.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.cache import LRUCache
from textual.events import Click, Resize
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.theme import Theme

from workbench.tui.palette import Palette, theme_palette


class LineView(ScrollView, can_focus=True):
    """Rows painted on demand, with a row cursor."""

    DEFAULT_CSS = """
    LineView {
        background: $background;
        scrollbar-size-vertical: 1;
        overflow-x: hidden;
    }
    """

    cursor: reactive[int] = reactive(0, always_update=True, repaint=False)
    """The row under the cursor (an index into the rows)."""

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        self._palette: Palette | None = None
        self.show_cursor = True
        """Whether the cursor row is marked (off for read-only previews)."""
        self.header_lines = 0
        """Lines at the top that do not scroll (column titles), painted by ``render_header``."""
        self.x_offset = 0
        """How many characters of each text are scrolled off to the left (← →)."""

    # -- what subclasses provide ---------------------------------------------------

    @property
    def row_count(self) -> int:
        return 0

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        raise NotImplementedError

    def row_key(self, index: int) -> tuple[object, ...]:
        """Extra state a painted row depends on (beyond its index, width and the cursor)."""
        return ()

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        """A fixed line at the top (when ``header_lines`` > 0)."""
        return [Segment(" " * width, palette.text)]

    # -- palette -----------------------------------------------------------------------

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, self._theme_changed)
        self.refresh_rows()

    def _theme_changed(self, _theme: Theme) -> None:
        self._palette = None
        self.refresh_rows()

    @property
    def palette(self) -> Palette:
        if self._palette is None:
            self._palette = theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)
        return self._palette

    # -- rows ------------------------------------------------------------------------------

    def refresh_rows(self) -> None:
        """The rows changed: forget painted strips, resize the scroll area, repaint."""
        self._cache.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, self.row_count + self.header_lines)
        if self.cursor >= self.row_count:
            self.cursor = max(0, self.row_count - 1)
        self.refresh()

    def on_resize(self, _event: Resize) -> None:
        self.refresh_rows()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        palette = self.palette
        if y < self.header_lines:
            return Strip(self.render_header(y, width, palette), width)
        index = round(self.scroll_offset.y) + y - self.header_lines
        if index >= self.row_count or width <= 0:
            return Strip.blank(max(width, 0), palette.text)
        at_cursor = self.show_cursor and index == self.cursor and self.has_focus
        key = (index, width, at_cursor, self.x_offset, *self.row_key(index))
        strip = self._cache.get(key)
        if strip is None:
            strip = Strip(self.render_row(index, width, palette, at_cursor), width)
            self._cache[key] = strip
        return strip

    # -- the cursor ------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        self._refresh_row(old)
        self._refresh_row(new)
        self.scroll_cursor_visible()

    @property
    def page_height(self) -> int:
        """How many rows fit under the fixed header."""
        return max(0, self.scrollable_content_region.height - self.header_lines)

    def _refresh_row(self, index: int) -> None:
        y = index - round(self.scroll_offset.y) + self.header_lines
        if self.header_lines <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def scroll_cursor_visible(self) -> None:
        top = round(self.scroll_offset.y)
        height = self.page_height
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif height and self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def move_cursor(self, index: int, top_margin: int | None = None) -> None:
        """Put the cursor on ``index``; with ``top_margin``, scroll so it sits that far from the top."""
        index = max(0, min(index, self.row_count - 1))
        if top_margin is not None:
            self.scroll_to(y=max(0, index - top_margin), animate=False, immediate=True)
        self.cursor = index

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor - 1)

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor + max(1, self.page_height - 1))

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor - max(1, self.page_height - 1))

    def action_half_page_down(self) -> None:
        """``ctrl+d``: half a page, the view scrolled with the cursor (vim, less)."""
        self._half_page(+1)

    def action_half_page_up(self) -> None:
        self._half_page(-1)

    def _half_page(self, direction: int) -> None:
        step = direction * max(1, self.page_height // 2)
        top = round(self.scroll_offset.y)
        self.scroll_to(y=max(0, top + step), animate=False, immediate=True)
        self.move_cursor(self.cursor + step)

    def action_scroll_text(self, step: int) -> None:
        """Shift long lines sideways (never past their start)."""
        self.x_offset = max(0, self.x_offset + step)
        self.refresh()

    def on_click(self, event: Click) -> None:
        if event.y >= self.header_lines:
            self.move_cursor(round(self.scroll_offset.y) + event.y - self.header_lines)

    def on_focus(self) -> None:
        self._refresh_row(self.cursor)

    def on_blur(self) -> None:
        self._refresh_row(self.cursor)
