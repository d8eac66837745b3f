"""The ``?`` screen: every action with the keys in force, and what the letters mean."""

from __future__ import annotations

from itertools import groupby

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.analysis.model import FileStatus, Level
from workbench.tui.dialogs.page import PAGE_BINDINGS, ScrollingPage
from workbench.tui.glyphs import APP_LETTER, PENDING_LETTER, POLICY_LETTER, RISK_LETTER, RISK_WORD, STATUS_LETTER, STATUS_WORD
from workbench.tui.keymap import ACTIONS, FIXED_KEYS, display_keys


class HelpScreen(ScrollingPage):
    """Keys by group, then the legend of the file list."""

    BINDINGS = [Binding("escape,q,question_mark", "close", "Close"), *PAGE_BINDINGS]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 96; max-width: 100%; height: 90%; border: thick $primary; background: $surface; padding: 0 1 0 2;
        scrollbar-size-vertical: 1; border-subtitle-color: $text-muted;
    }
    """

    def __init__(self, keys: dict[str, str]) -> None:
        super().__init__()
        self._keys = keys
        """Action id -> keys in force."""

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll()
        scroll.border_subtitle = "j/k ctrl+d/u PgDn/PgUp scroll · esc closes"
        with scroll:
            yield Static(self.table())
            yield Static(self._legend())

    def table(self) -> Table:
        """Every action with its keys in force, by group, then the keys that are not actions."""
        table = Table(show_edge=False, box=None, pad_edge=False, expand=True, title="Keys", title_style="bold")
        table.add_column("keys", style="bold", no_wrap=True, min_width=12)
        table.add_column("what it does")
        table.add_column(Text("id (for [keys] in config.toml)"), style="dim", no_wrap=True)
        for group, specs in groupby(ACTIONS, key=lambda spec: spec.group):
            table.add_row(Text(group, style="bold underline"), "", "")
            for spec in specs:
                table.add_row(self._keys_of(spec.id, spec.keys), spec.help, spec.id)
        table.add_row(Text("Other keys", style="bold underline"), "", "")
        for keys, words in FIXED_KEYS:
            table.add_row(keys, words, "(fixed)")
        return table

    def key_rows(self) -> list[tuple[str, str]]:
        """(keys, id) for every row of the table that names an action or a fixed key (what the user reads)."""
        rows = [(self._keys_of(spec.id, spec.keys), spec.id) for spec in ACTIONS]
        return rows + [(keys, "(fixed)") for keys, _words in FIXED_KEYS]

    def _keys_of(self, action: str, default: str) -> str:
        return display_keys(self._keys.get(action, default))

    def _legend(self) -> Text:
        text = Text("\nFile list: risk letter, status letter, path, hunks decided/total\n", style="bold")
        for level in (Level.HIGH, Level.MEDIUM, Level.LOW):
            text.append(f"  {RISK_LETTER[level]}  {RISK_WORD[level]}\n")
        for status in (s for s in FileStatus if s is not FileStatus.APP_RESOLVED):  # the W line below says it
            text.append(f"  {STATUS_LETTER[status]}  {STATUS_WORD[status]}\n")
        text.append(f"  {APP_LETTER}  written from your decisions in the app (evidence as it was when you decided)\n")
        text.append(f"  {PENDING_LETTER}  still loading: status not known yet\n")
        text.append(f"  {POLICY_LETTER}  a sync-policy rule applies (keep dev / override from main)\n")
        text.append("  ✓  every hunk decided      ●  decisions not written to the work tree yet\n")
        text.append("  !  an edited hunk still holds conflict markers: the file cannot be written until they go\n")
        text.append("\nDecisions are saved as you go (under .git/workbench/); reopening resumes them.\n")
        return text

    def action_close(self) -> None:
        self.dismiss(None)
