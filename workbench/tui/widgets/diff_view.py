"""A unified diff, painted in the hues of its two sides.

Used for the result-vs-dev and result-vs-main diffs and for a commit's
change to a file.  Deleted lines carry the old side's hue, inserted lines
the new side's, so dev is the same colour here as in the hunk view.
"""

from __future__ import annotations

from rich.segment import Segment

from workbench.analysis.display.unified import DiffKind, DiffRow
from workbench.tui.keymap import Scope, bindings
from workbench.tui.line_paint import label_segments, number_segment, text_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.syntax import SyntaxSpans
from workbench.tui.widgets.line_view import LineView


class DiffView(LineView):
    """Rows of a unified diff (``workbench.analysis.display.unified.unified_rows``)."""

    BINDINGS = bindings(Scope.VIEW)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._rows: tuple[DiffRow, ...] = ()
        self._old_tone = "base"
        self._new_tone = "result"
        self._old_syntax: SyntaxSpans = {}
        self._new_syntax: SyntaxSpans = {}
        self._empty = ""
        self._gutter = 4
        self._title: list[tuple[str, str | None]] = []
        self.header_lines = 1

    @property
    def rows(self) -> tuple[DiffRow, ...]:
        """The diff's rows, top to bottom."""
        return self._rows

    def set_title(self, parts: list[tuple[str, str | None]]) -> None:
        """The fixed title line: text pieces, each in a tone's hue (None: plain)."""
        self._title = parts
        self.refresh()

    def render_header(self, y: int, width: int, palette: Palette) -> list[Segment]:
        parts = [(" " + text if i == 0 else text, combine(palette.header, palette.hue[tone]) if tone else palette.header)
                 for i, (text, tone) in enumerate(self._title)]
        return label_segments(parts, width, palette.header)

    def show(
        self,
        rows: tuple[DiffRow, ...],
        old_tone: str,
        new_tone: str,
        old_syntax: SyntaxSpans | None = None,
        new_syntax: SyntaxSpans | None = None,
        empty: str = "no differences",
    ) -> None:
        self._rows = rows
        self._old_tone, self._new_tone = old_tone, new_tone
        # Not ``or {}``: the truth of a file's spans is their length, and that captures the whole file.
        self._old_syntax = {} if old_syntax is None else old_syntax
        self._new_syntax = {} if new_syntax is None else new_syntax
        self._empty = empty
        self.x_offset = 0
        last = max((n for r in rows for n in (r.old, r.new) if n is not None), default=1)
        self._gutter = len(str(last)) + 1
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self.refresh_rows()

    @property
    def row_count(self) -> int:
        return len(self._rows) or 1

    def go_to_old_line(self, line: int) -> None:
        """Cursor on the first row at or after line ``line`` of the old text (where a hunk is), near the top."""
        for i, row in enumerate(self._rows):
            if row.old is not None and row.old >= line:
                self.move_cursor(i, top_margin=3)
                return

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        if not self._rows:
            return label_segments([(f"  {self._empty}", palette.muted)], width, palette.text)
        row = self._rows[index]
        marker = "▶" if at_cursor else " "
        if row.kind is DiffKind.HEADER:
            style = combine(palette.header, palette.cursor) if at_cursor else palette.header
            return label_segments([(marker + row.text, style)], width, style)
        tone = {DiffKind.DELETE: self._old_tone, DiffKind.INSERT: self._new_tone}.get(row.kind)
        style = combine(palette.text, palette.line[tone]) if tone else palette.text
        number_style = combine(palette.muted, palette.cursor) if at_cursor else combine(palette.muted, style)
        sign = {DiffKind.DELETE: "-", DiffKind.INSERT: "+"}.get(row.kind, " ")
        if row.kind is DiffKind.INSERT:
            syntax = self._new_syntax.get((row.new or 0) - 1, ())
        else:
            syntax = self._old_syntax.get((row.old or 0) - 1, ())
        gutter = self._gutter
        text_width = max(0, width - 1 - 2 * gutter - 1)
        return [
            Segment(marker, palette.text),
            number_segment(row.old, gutter, number_style),
            number_segment(row.new, gutter, number_style),
            Segment(sign, combine(style, palette.hue[tone]) if tone else style),
            *text_segments(row.text, text_width, palette, style, row.changed,
                           palette.word[tone] if tone else None, syntax, self.x_offset),
        ]
