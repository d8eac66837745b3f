"""One line above the hunk view: the open file's full path (list rows may be shortened; this is only when the
path is wider than the whole centre, and then it keeps the end: the file name, behind a leading ``…``)."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from workbench.textsafe import visible


class PathBar(Widget):
    """The open file's path, shown literally (repository text is never markup)."""

    DEFAULT_CSS = """
    PathBar { height: 1; background: $panel; color: $foreground; text-style: bold; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._path = ""
        self._note = ""

    def show(self, path: str | None, note: str = "") -> None:
        self._path = visible(path) if path else ""
        self._note = note
        self.refresh()

    def render(self) -> Text:
        path, width = self._path, self.content_region.width
        if 0 < width < len(path):
            path = "…" + path[len(path) - width + 1:]
        text = Text(path, no_wrap=True, overflow="ellipsis")
        if self._note:
            text.append(f"  {self._note}", style="dim")
        return text
