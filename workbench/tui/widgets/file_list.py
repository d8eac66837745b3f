"""The file list: every file that needs a look, riskiest first, with a filter and the sync's counters.

The rows are painted by ``FileOptions`` (virtualised, see ``file_rows.py``);
this widget keeps the data: every row, the filter, the counters, and while
the sync loads a note of how far it got.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move |
| / | filter: enter keeps it and goes to the list, esc clears it |
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Static

from workbench.analysis.model import Level
from workbench.tui.glyphs import DECIDED, MARKED, PENDING_RISK_WORD
from workbench.tui.palette import theme_palette
from workbench.tui.widgets.file_rows import FileOptions, FileRow
from workbench.wording import plural

__all__ = ["FileList", "FileOptions", "FileRow", "Totals"]


@dataclass(frozen=True, slots=True)
class Totals:
    """The whole sync's counters (the file count is the list's own)."""

    undecided: int
    high: int | None
    """Undecided high-risk hunks; None: the risk is still being computed (a first look)."""
    unwritten: int
    marked: int = 0
    """Edited hunks that still hold conflict markers."""
    writes: bool = True
    """Decisions can be written here (not in a preview or a training quiz)."""


class FileList(Vertical):
    """Files riskiest first, a filter, and the counters for the whole sync."""

    DEFAULT_CSS = """
    FileList { height: 1fr; }
    FileList #file-summary { height: auto; min-height: 2; padding: 0 1; background: $panel; }
    FileList #file-summary.done { background: $success 30%; }
    FileList #file-filter { display: none; height: 3; }
    FileList #file-filter.active { display: block; }
    FileList FileOptions { height: 1fr; }
    FileList FileOptions:focus { background-tint: $foreground 4%; }
    """

    class FileHighlighted(Message):
        """The user moved to another file."""

        def __init__(self, file_list: FileList, path: str) -> None:
            super().__init__()
            self.file_list = file_list
            self.path = path

        @property
        def control(self) -> FileList:
            return self.file_list

    class FileChosen(Message):
        """The user pressed enter on a file: go to its first hunk."""

        def __init__(self, file_list: FileList, path: str) -> None:
            super().__init__()
            self.file_list = file_list
            self.path = path

        @property
        def control(self) -> FileList:
            return self.file_list

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: dict[str, FileRow] = {}
        self._order: list[str] = []
        self._shown: list[str] = []
        self._index: dict[str, int] = {}
        """Path -> its row among the shown ones."""
        self._query = ""
        self._styles: dict[str, Style] = {}
        self._totals: tuple[Totals, str] | None = None
        """The counters last shown (repainted when the theme changes)."""
        self._head = Text()
        """The summary's first line (counters, or how far loading got)."""
        self._mode = ""
        self._done = False

    def on_mount(self) -> None:
        self._theme_changed()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    def _theme_changed(self) -> None:
        palette = theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)
        self._styles = {"high": palette.risk[Level.HIGH], "muted": Style(color=palette.muted.color, italic=True)}
        if self._totals is not None:  # the counters were painted in the old theme's colour
            self.set_totals(*self._totals)

    def compose(self) -> ComposeResult:
        yield Static(Text("Analysing the sync…"), id="file-summary")
        field = Input(placeholder="filter paths", id="file-filter")
        field.can_focus = False  # only ``/`` opens it: keys typed ahead must never land in a hidden field
        yield field
        yield FileOptions(id="file-options")

    @property
    def options(self) -> FileOptions:
        return self.query_one(FileOptions)

    # -- data in --------------------------------------------------------------------------

    def set_files(self, rows: list[FileRow]) -> None:
        """All files, in review order."""
        self._rows = {row.path: row for row in rows}
        self._order = [row.path for row in rows]
        self._rebuild()

    def update_rows(self, rows: list[FileRow]) -> None:
        """Counts changed for some files: repaint just their rows."""
        options = self.options
        for row in rows:
            self._rows[row.path] = row
            index = self._index.get(row.path)
            if index is not None:
                options.replace_row(index, row)

    def show_loading_note(self, note: str, mode: str) -> None:
        """The counters are pending while the sync loads: say how far loading got instead."""
        text = Text()
        text.append("loading", style="bold italic")
        text.append(f" · {note}")
        self._totals = None
        self._paint_summary(text, mode, done=False)

    def set_totals(self, totals: Totals, mode: str) -> None:
        self._totals = (totals, mode)
        text = Text()
        done = totals.undecided == 0 and not totals.marked
        high = self._styles.get("high", Style())
        if done:
            text.append(f"{DECIDED} all decided", style="bold")
            if not totals.writes:
                text.append(" · saved")
            else:
                text.append(f" · {totals.unwritten} to write (w)" if totals.unwritten else " · all written")
        elif totals.undecided == 0:
            text.append(f"{MARKED} {plural(totals.marked, 'edited hunk')} still with markers", style=high)
        else:
            text.append(f"{totals.undecided} undecided", style="bold")
            text.append(" · ")
            if totals.high is None:
                text.append(PENDING_RISK_WORD, style=self._styles.get("muted", Style()))
            else:
                text.append(f"{totals.high} high risk", style=high)
            if totals.marked:
                text.append(f" · {MARKED} {totals.marked} with markers", style=high)
        self._paint_summary(text, mode, done)

    def _paint_summary(self, head: Text, mode: str, done: bool) -> None:
        """The counters, then how many files there are (and how many the filter shows)."""
        self._head, self._mode, self._done = head, mode, done
        files = plural(len(self._order), "file")
        shown = f"{len(self._shown)} of {files}" if self._query else files
        summary = self.query_one("#file-summary", Static)
        width = summary.content_region.width
        summary.update(Text("\n").join([by_pieces(head, width), by_pieces(Text(f"{shown} · {mode}"), width)]))
        summary.set_class(done, "done")

    def on_resize(self) -> None:
        if self._mode:
            self._paint_summary(self._head, self._mode, self._done)

    def highlight(self, path: str) -> None:
        index = self._index.get(path)
        if index is not None:
            self.options.highlighted = index

    @property
    def highlighted_path(self) -> str | None:
        index = self.options.highlighted
        return self._shown[index] if index is not None and 0 <= index < len(self._shown) else None

    @property
    def paths(self) -> tuple[str, ...]:
        """Every file, in review order (whatever the filter hides)."""
        return tuple(self._order)

    @property
    def filter_text(self) -> str:
        """What the filter matches (lowered and stripped); "" when every file is shown."""
        return self._query

    @property
    def shown_paths(self) -> tuple[str, ...]:
        """The files the filter lets through, in order (what n/p walk)."""
        return tuple(self._shown)

    # -- the filter -------------------------------------------------------------------------

    def open_filter(self) -> None:
        field = self.query_one("#file-filter", Input)
        field.can_focus = True
        field.add_class("active")
        field.focus()

    def close_filter(self) -> None:
        field = self.query_one("#file-filter", Input)
        if not field.value:
            field.remove_class("active")
            field.can_focus = False
        self.options.focus()

    def clear_filter(self) -> None:
        """Show every file again (the highlighted one stays highlighted)."""
        field = self.query_one("#file-filter", Input)
        field.value = ""
        field.remove_class("active")
        field.can_focus = False
        if self._query:
            self._query = ""
            self._rebuild()

    def back_to_list(self) -> None:
        """``esc``: focus the list; in the filter (or on a filtered list), clear the filter first."""
        if self.filtering or (self.filtered and self.options.has_focus):
            self.clear_filter()
        self.options.focus()

    @property
    def filtering(self) -> bool:
        """The filter field has focus (keys type into it)."""
        return self.query_one("#file-filter", Input).has_focus

    @property
    def filtered(self) -> bool:
        """A filter hides some files."""
        return bool(self._query)

    @on(Input.Changed, "#file-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._query = event.value.strip().lower()
        if self._query:  # a filter that hides files is always on screen
            event.input.add_class("active")
        self._rebuild()

    @on(Input.Submitted, "#file-filter")
    def _filter_done(self) -> None:
        self.close_filter()

    # -- building rows --------------------------------------------------------------------

    def _rebuild(self) -> None:
        keep = self.highlighted_path
        self._shown = [p for p in self._order if _matches(self._query, p)]
        self._index = {path: i for i, path in enumerate(self._shown)}
        self.options.set_rows([self._rows[p] for p in self._shown], self._index.get(keep or "", 0))
        if self._mode:
            self._paint_summary(self._head, self._mode, self._done)

    @on(FileOptions.Highlighted)
    def _highlighted(self, event: FileOptions.Highlighted) -> None:
        event.stop()
        if event.path == self.highlighted_path:  # else stale: the rows were replaced since
            self.post_message(self.FileHighlighted(self, event.path))

    @on(FileOptions.Selected)
    def _selected(self, event: FileOptions.Selected) -> None:
        event.stop()
        if event.path == self.highlighted_path:
            self.post_message(self.FileChosen(self, event.path))


def by_pieces(text: Text, width: int) -> Text:
    """``text`` broken into lines between its `` · `` pieces where it is wider than ``width`` (a narrow list read
    "38 high / risk" and "merge in / progress"); a piece wider than the line still wraps."""
    if width <= 0 or text.cell_len <= width:
        return text
    lines: list[Text] = []
    for piece in text.split(SEPARATOR, allow_blank=True):
        if lines and lines[-1].cell_len + len(SEPARATOR) + piece.cell_len <= width:
            lines[-1] = Text.assemble(lines[-1], SEPARATOR, piece)
        else:
            if lines:
                lines[-1].append(SEPARATOR.rstrip())
            lines.append(piece)
    return Text("\n").join(lines)


SEPARATOR = " · "


def _matches(query: str, path: str) -> bool:
    """Every word of the query appears in the path (case-insensitive)."""
    lowered = path.lower()
    return all(word in lowered for word in query.split())
