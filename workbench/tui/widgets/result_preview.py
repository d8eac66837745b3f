"""The current hunk as the file holds it now, or will once written.

Each line is tinted by where it came from (dev's hue, main's, or the
result's for an edit), so "both" reads as two coloured blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment

from workbench.tui.keymap import Scope, bindings
from workbench.tui.line_paint import label_segments, number_segment, text_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.widgets.line_view import LineView


@dataclass(frozen=True, slots=True)
class PreviewLine:
    """One result line: its number in the result (None: not placed yet), text and origin."""

    no: int | None
    text: str
    tone: str | None
    """"dev", "main", "result" or None (a conflict marker, or plain)."""


class ResultPreview(LineView):
    """A hunk's result lines."""

    BINDINGS = bindings(Scope.VIEW)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: tuple[PreviewLine, ...] = ()
        self._empty = ""
        self._caption = "Result"
        self._detail = ""
        self.header_lines = 1

    def show(self, lines: tuple[PreviewLine, ...], caption: str, empty: str = "", detail: str = "") -> None:
        """Lines of the hunk's result, a caption saying what they are, words for no lines, and a second fixed
        line under the caption when ``detail`` is given (what a previewed candidate keeps and drops)."""
        self._lines = lines
        self.x_offset = 0
        self._caption = caption
        self._detail = detail
        self.header_lines = 2 if detail else 1
        self._empty = empty
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh_rows()

    @property
    def lines(self) -> tuple[PreviewLine, ...]:
        """The result's lines as shown (empty: the hunk is empty in the result)."""
        return self._lines

    @property
    def caption(self) -> str:
        return self._caption

    @property
    def detail(self) -> str:
        return self._detail

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        if y == 1:
            return label_segments([(f" {self._detail}", palette.header)], width, palette.header)
        return label_segments([(f" {self._caption}", combine(palette.header, palette.hue["result"]))], width, palette.header)

    @property
    def row_count(self) -> int:
        return len(self._lines) or 1

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        if not self._lines:
            return label_segments([(f"  {self._empty}", palette.muted)], width, palette.text)
        line = self._lines[index]
        style = combine(palette.text, palette.line[line.tone]) if line.tone else palette.muted
        number_style = combine(palette.muted, palette.cursor) if at_cursor else combine(palette.muted, style)
        return [
            Segment("▶" if at_cursor else " ", palette.text),
            number_segment(line.no, 6, number_style),
            *text_segments(line.text, max(0, width - 7), palette, style, offset=self.x_offset),
        ]
