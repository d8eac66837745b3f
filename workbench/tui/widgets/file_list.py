"""The file list: every file that needs a look, riskiest first, with a filter and the sync's counters.

Each row reads ``risk status path decided/total``: the risk as a letter in
its colour (never colour alone), the status as a letter (see ``?``), the
path shortened from the left so the file name stays, and ``●`` while
decisions are not written yet.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move |
| / | filter (esc leaves the filter) |
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Resize
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from workbench.analysis.model import Level
from workbench.textsafe import visible
from workbench.tui.glyphs import DECIDED, RISK_LETTER, UNWRITTEN
from workbench.tui.keymap import Scope, bindings
from workbench.tui.palette import theme_palette


@dataclass(frozen=True, slots=True)
class FileRow:
    """One file as the list shows it (prepared by the screen from the session)."""

    path: str
    level: Level
    status: str
    """Status letters, e.g. "T " or "CP"."""
    decided: int
    total: int
    unwritten: bool


@dataclass(frozen=True, slots=True)
class Totals:
    """The whole sync's counters."""

    files: int
    undecided: int
    high: int
    unwritten: int


class FileOptions(OptionList):
    """The list itself (j/k move, like everywhere)."""

    BINDINGS = bindings(Scope.LIST)


class FileList(Vertical):
    """Files riskiest first, a filter, and the counters for the whole sync."""

    DEFAULT_CSS = """
    FileList { height: 1fr; }
    FileList #file-summary { height: 2; padding: 0 1; background: $panel; }
    FileList #file-summary.done { background: $success 30%; }
    FileList #file-filter { display: none; height: 3; }
    FileList #file-filter.active { display: block; }
    FileList FileOptions, FileList FileOptions:focus { height: 1fr; border: none; padding: 0; background: $surface; }
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
        self._query = ""
        self._styles: dict[str, Style] = {}

    def on_mount(self) -> None:
        self._theme_changed()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._theme_changed())

    def _theme_changed(self) -> None:
        palette = theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)
        self._styles = {
            **{level.value: palette.risk[level] for level in Level},
            "status": Style(color=palette.muted.color),
            "counts": Style(color=palette.muted.color),
            "done": Style(color=palette.hue["result"].color),
            "high": palette.risk[Level.HIGH],
        }
        if self._rows:
            self._rebuild()

    def compose(self) -> ComposeResult:
        yield Static(Text("Analysing the sync…"), id="file-summary")
        yield Input(placeholder="filter paths", id="file-filter")
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
            if row.path in self._shown:
                options.replace_option_prompt_at_index(self._shown.index(row.path), self._prompt(row))

    def set_totals(self, totals: Totals, mode: str) -> None:
        summary = self.query_one("#file-summary", Static)
        text = Text()
        done = totals.undecided == 0
        if done:
            text.append(f"{DECIDED} all decided", style="bold")
            text.append(f" · {totals.unwritten} to write (w)" if totals.unwritten else " · all written")
        else:
            text.append(f"{totals.undecided} undecided", style="bold")
            text.append(" · ")
            text.append(f"{totals.high} high risk", style=self._styles.get("high", Style()))
        text.append(f"\n{totals.files} files · {mode}")
        summary.update(text)
        summary.set_class(done, "done")

    def highlight(self, path: str) -> None:
        if path in self._shown:
            self.options.highlighted = self._shown.index(path)

    @property
    def highlighted_path(self) -> str | None:
        index = self.options.highlighted
        return self._shown[index] if index is not None and 0 <= index < len(self._shown) else None

    @property
    def shown_paths(self) -> tuple[str, ...]:
        """The files the filter lets through, in order (what n/p walk)."""
        return tuple(self._shown)

    # -- the filter -------------------------------------------------------------------------

    def open_filter(self) -> None:
        field = self.query_one("#file-filter", Input)
        field.add_class("active")
        field.focus()

    def close_filter(self) -> None:
        field = self.query_one("#file-filter", Input)
        if not field.value:
            field.remove_class("active")
        self.options.focus()

    @property
    def filtering(self) -> bool:
        return self.query_one("#file-filter", Input).has_focus

    @on(Input.Changed, "#file-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self._query = event.value.strip().lower()
        self._rebuild()

    @on(Input.Submitted, "#file-filter")
    def _filter_done(self) -> None:
        self.close_filter()

    # -- building rows --------------------------------------------------------------------

    def _rebuild(self) -> None:
        keep = self.highlighted_path
        self._shown = [p for p in self._order if _matches(self._query, p)]
        options = self.options
        options.set_options(Option(self._prompt(self._rows[p]), id=None) for p in self._shown)
        if self._shown:
            options.highlighted = self._shown.index(keep) if keep in self._shown else 0

    def _prompt(self, row: FileRow) -> Text:
        width = max(20, self.options.scrollable_content_region.width or 40)
        total = row.total or 1  # a file without hunks is one whole-file choice
        counts = f"{row.decided}/{total}"
        done = row.decided == total
        tail = f" {DECIDED if done else ' '}{counts}{UNWRITTEN if row.unwritten else ' '}"
        room = max(4, width - 4 - len(tail))
        path = visible(row.path)
        if len(path) > room:
            path = "…" + path[-(room - 1):]
        text = Text(no_wrap=True, overflow="crop")
        text.append(RISK_LETTER[row.level], style=self._styles.get(row.level.value, Style()))
        text.append(row.status, style=self._styles.get("status", Style()))
        text.append(" ")
        text.append(path.ljust(room))
        text.append(tail, style=self._styles.get("done" if done else "counts", Style()))
        return text

    def on_resize(self, _event: Resize) -> None:
        if self._rows:
            self._rebuild()

    @on(OptionList.OptionHighlighted, "#file-options")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        path = self.highlighted_path
        if path is not None:
            self.post_message(self.FileHighlighted(self, path))

    @on(OptionList.OptionSelected, "#file-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        path = self.highlighted_path
        if path is not None:
            self.post_message(self.FileChosen(self, path))


def _matches(query: str, path: str) -> bool:
    """Every word of the query appears in the path (case-insensitive)."""
    lowered = path.lower()
    return all(word in lowered for word in query.split())
