"""The file list's rows: a virtualised list, so 10,000 files cost what 40 do.

Only the rows on screen are painted (``LineView``'s Line API); filtering or
refreshing counts touches data, never widgets.  A row reads
``risk status path decided/total``: the risk as a letter in its colour
(never colour alone), the path shortened so what tells the row apart stays:
the directory for a name several files have, else the name, on a narrow list
behind a leading ``…`` (``shorten_path``), ``●`` while decisions are not written yet,
and ``!`` when an edited
hunk still holds conflict markers.  Rows of a sync still
loading show ``·`` for the risk and ``⋯`` for the counts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.message import Message

from workbench.analysis.model import Level
from workbench.textsafe import visible
from workbench.tui.glyphs import DECIDED, MARKED, PENDING_RISK, RISK_LETTER, UNWRITTEN
from workbench.tui.keymap import Scope, bindings
from workbench.tui.line_paint import label_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.widgets.line_view import LineView

PENDING_COUNTS = "⋯"


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
    marked: bool = False
    """An edited hunk still holds conflict markers."""
    loading: bool = False
    """From the sync's outline: hunks, risk and counts are still being computed."""
    risk_pending: bool = False
    """Hunks and counts are known, the risk is still being computed (a first look)."""


LIST_MOVES = frozenset({"cursor_down", "cursor_up", "first", "last", "page_down", "page_up", "half_page_down",
                        "half_page_up"})
"""The file list's actions that only move its cursor (the file under it opens)."""


class FileOptions(LineView):
    """The rows themselves, with a cursor (j/k move, enter opens, like everywhere)."""

    BINDINGS = [
        *bindings(Scope.LIST),
        Binding("enter", "select", "Open", show=False),
        Binding("home", "first", show=False),
        Binding("end", "last", show=False),
    ]

    DEFAULT_CSS = """
    FileOptions { background: $surface; }
    """

    class Highlighted(Message):
        """The cursor moved to row ``index``, showing ``path`` (rows may be replaced before it is read)."""

        def __init__(self, index: int, path: str) -> None:
            super().__init__()
            self.index = index
            self.path = path

    class Selected(Message):
        """Enter (or a click) on row ``index``, showing ``path``."""

        def __init__(self, index: int, path: str) -> None:
            super().__init__()
            self.index = index
            self.path = path

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[FileRow] = []
        self._generation = 0
        """Bumped when rows change, so painted strips of old rows are not reused."""
        self._shared_names: frozenset[str] = frozenset()
        """File names more than one row has: their directory tells them apart (``shorten_path``)."""

    # -- data in -------------------------------------------------------------------------

    def set_rows(self, rows: list[FileRow], highlighted: int | None) -> None:
        """Replace every row; the cursor goes to ``highlighted`` (announced when it moves)."""
        self._rows = rows
        self._generation += 1
        names = Counter(row.path.rsplit("/", 1)[-1] for row in rows)
        self._shared_names = frozenset(name for name, count in names.items() if count > 1)
        self.refresh_rows()
        if rows:
            self.move_cursor(highlighted or 0)

    def replace_row(self, index: int, row: FileRow) -> None:
        """One row's counts changed: repaint just that line."""
        self._rows[index] = row
        self._generation += 1
        self._refresh_row(index)

    def row_text(self, index: int) -> str:
        """Row ``index`` as it reads on screen (for tests and screen readers)."""
        width = max(20, self.scrollable_content_region.width)
        return "".join(seg.text for seg in self.render_row(index, width, self.palette, False))

    @property
    def highlighted(self) -> int | None:
        return self.cursor if self._rows else None

    @highlighted.setter
    def highlighted(self, index: int) -> None:
        self.move_cursor(index)

    # -- LineView ------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def row_key(self, index: int) -> tuple[object, ...]:
        return (self._generation, index == self.cursor)

    def render_row(self, index: int, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
        row = self._rows[index]
        base = palette.text
        if at_cursor:
            base = combine(base, palette.cursor)
        elif index == self.cursor:  # the list is not focused: the row stays plain to see (panel colour, bold)
            base = combine(base, Style(bgcolor=palette.header.bgcolor, bold=True))
        total = row.total or 1  # a file without hunks is one whole-file choice
        done = not row.loading and row.decided == total
        counts = PENDING_COUNTS if row.loading else f"{row.decided}/{total}"
        flag = MARKED if row.marked else DECIDED if done else " "
        tail = f" {flag}{counts}{UNWRITTEN if row.unwritten else ' '}"
        room = max(4, width - 4 - len(tail))
        path = shorten_path(visible(row.path), room, row.path.rsplit("/", 1)[-1] in self._shared_names)
        muted = combine(base, Style(color=palette.muted.color))
        letter = ((PENDING_RISK, muted) if row.loading or row.risk_pending
                  else (RISK_LETTER[row.level], combine(base, palette.risk[row.level])))
        parts = [
            letter,
            (row.status, muted),
            (" ", base),
            (path.ljust(room), base),
            (tail, combine(base, palette.risk[Level.HIGH]) if row.marked
             else combine(base, Style(color=palette.hue["result"].color)) if done else muted),
        ]
        return label_segments(parts, width, base)

    # -- keys and mouse ------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        super().watch_cursor(old, new)
        if 0 <= new < len(self._rows):
            self.post_message(self.Highlighted(new, self._rows[new].path))

    def action_select(self) -> None:
        if 0 <= self.cursor < len(self._rows):
            self.post_message(self.Selected(self.cursor, self._rows[self.cursor].path))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(self.row_count - 1)

    def on_click(self, event: Click) -> None:
        index = round(self.scroll_offset.y) + event.y
        if 0 <= index < self.row_count:
            self.move_cursor(index)
            self.action_select()


def shorten_path(path: str, room: int, shared_name: bool = True) -> str:
    """``path`` in ``room`` characters, keeping what tells the row apart from the others.

    The file name and its directory stay, and the start of the path fills
    what room is left.  When even ``parent/name`` does not fit, the name stays
    whole if the directory keeps a fair part (its middle goes).  Past that it
    depends on the name.  Syncs hold dozens of files with one name in
    different directories (``…/gpt3_tp2/golden_values.json``): for those
    (``shared_name``) the directory is what matters, so it stays whole and the
    name loses its middle, and narrower still the middle of both goes.  A name
    no other file has is what the reader looks for: the path's end is kept
    behind a leading ``…``, the name whole when it fits, else its end with the
    extension (a list 25 columns wide left ``unit_t…zers.py``, neither the
    directory nor the name).
    """
    if len(path) <= room:
        return path
    if room <= 1:
        return path[:room]
    parts = path.rsplit("/", 2)
    if len(parts) == 1:
        return "…" + path[len(path) - room + 1:]
    parent, name = parts[-2], parts[-1]
    tail = f"{parent}/{name}"
    if len(tail) < room:
        return path[: room - len(tail) - 1] + "…" + tail
    if len(tail) == room:
        return tail
    budget = room - len(name) - 1
    if budget >= min(len(parent), 8):
        return f"{_middle(parent, budget)}/{name}"
    if not shared_name:
        return "…" + tail[len(tail) - room + 1:]
    if len(parent) + 8 <= room:
        return f"{parent}/{_middle(name, room - len(parent) - 1)}"
    return _middle(tail, room)


def _middle(text: str, room: int) -> str:
    """``text`` in ``room`` characters with its middle replaced by ``…``."""
    if len(text) <= room:
        return text
    left = (room - 1) // 2
    return text[:left] + "…" + text[len(text) - (room - 1 - left):]
