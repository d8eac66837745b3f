"""The history panel: the file's commits on each side since the merge base.

Dev's commits, then main's, newest first, with PR numbers.  The commits
behind the current hunk's lines are marked (``●`` and the side's hue);
enter on a commit asks for its diff of this file.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move |
| enter | show the commit's change to this file |
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from workbench.analysis.model import Commit
from workbench.textsafe import visible
from workbench.tui.glyphs import short_sha
from workbench.tui.keymap import Scope, bindings
from workbench.tui.palette import Palette, theme_palette


class HistoryPanel(OptionList):
    """Commits of both sides for one file."""

    BINDINGS = bindings(Scope.LIST)

    DEFAULT_CSS = """
    HistoryPanel, HistoryPanel:focus { background: $surface; border: none; padding: 0; }
    HistoryPanel:focus { background-tint: $foreground 4%; }
    """

    class CommitChosen(Message):
        """The user asked for ``sha``'s diff of the file (``side`` "dev" or "main")."""

        def __init__(self, panel: HistoryPanel, sha: str, side: str) -> None:
            super().__init__()
            self.panel = panel
            self.sha = sha
            self.side = side

        @property
        def control(self) -> HistoryPanel:
            return self.panel

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[tuple[str, Commit] | None] = []
        self._marked: set[str] = set()

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._repaint_all())

    @property
    def _palette(self) -> Palette:
        return theme_palette(self.app.theme, dict(self.app.theme_variables), self.app.current_theme.dark)

    def show(self, dev: tuple[Commit, ...], main: tuple[Commit, ...], marked: set[str]) -> None:
        """A file's history; ``marked`` are the commits behind the current hunk."""
        self._marked = set(marked)
        self._rows = []
        options: list[Option] = []
        for side, commits in (("dev", dev), ("main", main)):
            self._rows.append(None)
            options.append(Option(self._heading(side, len(commits)), disabled=True))
            for commit in commits:
                self._rows.append((side, commit))
                options.append(Option(self._prompt(side, commit)))
        self.set_options(options)
        self._highlight_first_marked()

    def mark(self, marked: set[str]) -> None:
        """Another hunk: re-mark only the rows whose mark changed."""
        changed = self._marked ^ set(marked)
        self._marked = set(marked)
        for index, row in enumerate(self._rows):
            if row is not None and row[1].sha in changed:
                self.replace_option_prompt_at_index(index, self._prompt(*row))
        self._highlight_first_marked()

    def _highlight_first_marked(self) -> None:
        for index, row in enumerate(self._rows):
            if row is not None and row[1].sha in self._marked:
                self.highlighted = index
                self.scroll_to_highlight(top=True)
                return

    def _repaint_all(self) -> None:
        for index, row in enumerate(self._rows):
            if row is None:
                side = "dev" if index == 0 else "main"
                count = sum(1 for r in self._rows if r is not None and r[0] == side)
                self.replace_option_prompt_at_index(index, self._heading(side, count))
            else:
                self.replace_option_prompt_at_index(index, self._prompt(*row))

    def _heading(self, side: str, count: int) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{side}", style=self._palette.hue[side])
        text.append(f" · {count} commit{'s' if count != 1 else ''} since the merge base" if count else " · no commits since the merge base")
        return text

    def _prompt(self, side: str, commit: Commit) -> Text:
        palette = self._palette
        marked = commit.sha in self._marked
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("● " if marked else "  ", style=palette.hue[side])
        text.append(short_sha(commit.sha), style=palette.hue[side] if marked else Style(color=palette.muted.color))
        text.append(f" #{commit.pr}" if commit.pr is not None else "", style="bold")
        text.append(f" {visible(commit.subject)}", style="bold" if marked else "")
        text.append(f" · {visible(commit.author)}", style=Style(color=palette.muted.color))
        return text

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        row = self._rows[event.option_index] if 0 <= event.option_index < len(self._rows) else None
        if row is not None:
            self.post_message(self.CommitChosen(self, row[1].sha, row[0]))
