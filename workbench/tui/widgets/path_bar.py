"""One line above the hunk view: the open file's full path (list rows may be shortened; this never is)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from workbench.textsafe import visible


class PathBar(Static):
    """The open file's path, shown literally (repository text is never markup)."""

    DEFAULT_CSS = """
    PathBar { height: 1; background: $panel; color: $foreground; text-style: bold; padding: 0 1; }
    """

    def show(self, path: str | None, note: str = "") -> None:
        text = Text(visible(path) if path else "", no_wrap=True, overflow="ellipsis")
        if note:
            text.append(f"  {note}", style="dim")
        self.update(text)
