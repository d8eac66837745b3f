"""The bulk-accept question: whose suggestions (this file or the whole sync, one rung or every rung); it says
how many hunks and files first.

| Key | Action |
| :- | :- |
| f / s | this file / the whole sync |
| 0 | every rung |
| 1-9 | one rung (as listed) |
| enter | accept them (one u undoes it all) |
| esc | cancel |
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from workbench.analysis.suggest.phrases import RUNG_WORDS
from workbench.services.suggestions import Accepting, accepted, rungs_here
from workbench.services.workspace import Workspace

_RUNG_WORDS = {rung.value: words.format(pr="") for rung, words in RUNG_WORDS.items()}


class AcceptScreen(ModalScreen[Accepting | None]):
    """Choose which suggestions to accept with single keys, see the count, confirm with enter."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("enter", "confirm", "Accept"),
        Binding("f", "scope('file')", "This file"),
        Binding("s", "scope('sync')", "Whole sync"),
        *(Binding(str(k), f"rung({k})", "Rung", show=False) for k in range(10)),
    ]

    DEFAULT_CSS = """
    AcceptScreen { align: center middle; }
    AcceptScreen > Vertical {
        width: 80; max-width: 100%; height: auto; max-height: 90%;
        border: thick $primary; background: $surface; padding: 1 2; overflow-y: auto;
    }
    """

    def __init__(self, ws: Workspace, start: Accepting, file: str | None, file_label: str | None) -> None:
        super().__init__()
        self.ws = ws
        self.accepting = start
        self._file = file
        self._file_label = file_label
        """The open file as shown (None: no file open, so only the whole sync)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._text(), id="accept-question")

    def _rungs(self) -> list[tuple[str, int]]:
        return sorted(rungs_here(self.ws, self.accepting.path).items(), key=lambda item: -item[1])

    def _text(self) -> Text:
        taken = accepted(self.ws, self.accepting)
        text = Text(no_wrap=True, overflow="ellipsis")  # one row per line: the keys stay in view on a small screen
        text.append(f"{self.accepting.words().capitalize()}?\n\n", style="bold")
        if taken.hunks or taken.files:
            text.append(f"{taken.words()}", style="bold")
            text.append(" decided as suggested (one u undoes it all).\n\n")
        else:
            text.append("No undecided suggestion matches.\n\n", style="bold")
        rung = self.accepting.rung
        text.append(f"  0 every rung{' ●' if rung is None else ''}\n")
        for k, (name, count) in enumerate(self._rungs()[:9], start=1):
            text.append(f"  {k} {name} ({count}){' ●' if rung == name else ''}")
            text.append(f"  {_RUNG_WORDS.get(name, '')}\n", style="dim")
        text.append("\n")
        if self._file_label is not None:
            text.append(f"  f this file{' ●' if self.accepting.path is not None else ''} ({self._file_label})\n")
        text.append(f"  s whole sync{' ●' if self.accepting.path is None else ''}\n\n")
        text.append("enter: accept them    esc: cancel", style="dim")
        return text

    def _update(self, accepting: Accepting) -> None:
        self.accepting = accepting
        self.query_one("#accept-question", Static).update(self._text())

    def action_scope(self, scope: str) -> None:
        if scope == "file" and self._file is None:
            return
        path = self._file if scope == "file" else None
        rung = self.accepting.rung if self.accepting.rung in rungs_here(self.ws, path) else None
        self._update(Accepting(path, rung))

    def action_rung(self, number: int) -> None:
        rungs = self._rungs()
        if number == 0:
            self._update(Accepting(self.accepting.path, None))
        elif number <= len(rungs):
            self._update(Accepting(self.accepting.path, rungs[number - 1][0]))

    def action_confirm(self) -> None:
        taken = accepted(self.ws, self.accepting)
        self.dismiss(self.accepting if taken.hunks or taken.files else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
