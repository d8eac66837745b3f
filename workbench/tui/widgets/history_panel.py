"""The history panel: the file's commits on each side since the merge base.

Dev's commits, then main's, newest first, with PR numbers; the sync's own
commits that changed the file (an earlier sync merge, a fix on its branch)
are listed on their side with ``⇄`` and why they are the sync's.  The commits
behind the current hunk's lines are marked (``●`` and the side's hue);
enter on a commit asks for its diff of this file.

| Key | Action |
| :- | :- |
| j / ↓, k / ↑ | move |
| enter | show the commit's change to this file |
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.message import Message

from workbench.analysis.model import Commit, SyncChange, Whose
from workbench.textsafe import visible
from workbench.tui.glyphs import short_sha
from workbench.tui.keymap import Scope, bindings
from workbench.tui.line_paint import label_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.widgets.line_view import LineView
from workbench.wording import plural

_BOLD = Style(bold=True)


def _fg(style: Style) -> Style:
    return Style(color=style.color)


@dataclass(frozen=True, slots=True)
class _Row:
    side: Whose
    commit: Commit | None
    """None: the side's heading."""
    count: int = 0
    unread: str | None = None
    """Why there is no history to list, where "no commits" would mislead: it was never looked up (git
    mergetool outside a merge), or it is still being read (a first look); None: it was read."""
    sync: str | None = None
    """A commit of the sync itself (an earlier sync's merge, a fix on its branch, the bot's): why it is."""
    sync_count: int = 0
    """On a heading: how many of the side's commits are the sync's own."""


def _sync_words(change: SyncChange) -> str:
    """``sync merge, 289 lines``: why a commit is the sync's own, and how much of the file it changed."""
    return change.reason.value + (f", {plural(change.lines, 'line')}" if change.lines else "")


class HistoryPanel(LineView):
    """Commits of both sides for one file."""

    BINDINGS = [*bindings(Scope.LIST), Binding("enter", "choose", "Show diff", show=False)]

    class CommitChosen(Message):
        """The user asked for ``sha``'s diff of the file (``side`` "dev" or "main")."""

        def __init__(self, panel: HistoryPanel, sha: str, side: Whose) -> None:
            super().__init__()
            self.panel = panel
            self.sha = sha
            self.side = side

        @property
        def control(self) -> HistoryPanel:
            return self.panel

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[_Row] = []
        self._marked: frozenset[str] = frozenset()

    def show(self, dev: tuple[Commit, ...], main: tuple[Commit, ...], marked: set[str], *,
             unread: str | None = None, sync: tuple[SyncChange, ...] = ()) -> None:
        """A file's history; ``marked`` are the commits behind the current hunk; ``sync`` the sync's own commits
        that changed it (listed with the side's, newest first, marked as the sync's)."""
        self._rows = []
        sides: tuple[tuple[Whose, tuple[Commit, ...]], ...] = (("dev", dev), ("main", main))
        for side, commits in sides:
            own = {change.commit.sha: change for change in sync if change.side == side}
            listed = {c.sha for c in commits}
            every = sorted([*commits, *(c.commit for sha, c in own.items() if sha not in listed)],
                           key=lambda c: c.date, reverse=True)
            self._rows.append(_Row(side, None, len(every), unread, sync_count=len(own)))
            self._rows.extend(_Row(side, commit, sync=_sync_words(own[commit.sha]) if commit.sha in own else None)
                              for commit in every)
        self.cursor = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self.mark(marked)

    @property
    def marked(self) -> frozenset[str]:
        """The commits of the current hunk (their rows are marked)."""
        return self._marked

    def mark(self, marked: set[str]) -> None:
        """Another hunk: mark its commits and bring the first into view."""
        self._marked = frozenset(marked)
        self.refresh_rows()
        first = next((i for i, row in enumerate(self._rows) if row.commit and row.commit.sha in self._marked), None)
        if first is not None:
            self.move_cursor(first, top_margin=1 if first else 0)

    @property
    def chosen(self) -> tuple[str, Whose] | None:
        """(sha, side) under the cursor."""
        if 0 <= self.cursor < len(self._rows):
            row = self._rows[self.cursor]
            if row.commit is not None:
                return row.commit.sha, row.side
        return None

    def action_choose(self) -> None:
        chosen = self.chosen
        if chosen is not None:
            self.post_message(self.CommitChosen(self, *chosen))

    def on_click(self, event: Click) -> None:
        super().on_click(event)
        if event.chain == 2:
            self.action_choose()

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def row_key(self, index: int) -> tuple[object, ...]:
        row = self._rows[index]
        return (row.commit is not None and row.commit.sha in self._marked,)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        row = self._rows[index]
        base = combine(palette.text, palette.cursor) if at_cursor else palette.text
        hue = combine(base, palette.hue[row.side])
        muted = combine(base, _fg(palette.muted))
        if row.commit is None:
            if row.unread is not None:
                words = f" · history {row.unread}"
            elif row.count:
                words = f" · {plural(row.count, 'commit')} since the merge base"
                if row.sync_count:
                    words += f", {row.sync_count} of the sync itself"
            else:
                words = " · no commits since the merge base"
            return label_segments([(row.side, hue), (words, muted)], width, base)
        commit = row.commit
        marked = commit.sha in self._marked
        bold = combine(base, _BOLD) if marked else base
        parts = [
            ("● " if marked else "  ", hue),
            (short_sha(commit.sha), hue if marked else muted),
            (f" #{commit.pr}" if commit.pr is not None else "", combine(base, _BOLD)),
            (f" ⇄ {row.sync}" if row.sync is not None else "", combine(base, _BOLD)),
            (f" {visible(commit.subject)}", bold),
            (f" · {visible(commit.author)}", muted),
        ]
        return label_segments(parts, width, base)
