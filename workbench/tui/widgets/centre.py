"""The centre column: the hunk view on top, the result and the evidence below, sized by the room there is.

On a tall terminal the result pane and the Why/History panes get their full
heights; on a short one the hunk view keeps at least half the column (the
current hunk must stay readable), the result pane shrinks first (the hunk
view shows both sides already) and the Why/History panes next, and on the
smallest the result pane folds away.  It also joins the hunk view to the
search field under it (``/``: the view follows what is typed).
"""

from __future__ import annotations

from textual import on
from textual.containers import Vertical
from textual.events import Resize

from workbench.tui.widgets.search_bar import SearchBar
from workbench.tui.widgets.searching_view import SearchingView

RESULT_ROWS = 8
EVIDENCE_ROWS = 14
MIN_RESULT_ROWS = 4
"""A caption and three lines: any less and the result pane folds away."""
MIN_EVIDENCE_ROWS = 6


def pane_heights(height: int) -> tuple[int, int]:
    """Rows for the result pane and the evidence panes in a centre column ``height`` rows tall."""
    room = max(0, height - (height + 1) // 2)
    result = min(RESULT_ROWS, max(MIN_RESULT_ROWS, room - EVIDENCE_ROWS))
    if room - result < MIN_EVIDENCE_ROWS:
        return 0, min(room, EVIDENCE_ROWS)
    return result, min(room - result, EVIDENCE_ROWS)


class Centre(Vertical):
    """Lays out its ``#result`` and ``#evidence`` children by ``pane_heights`` whenever it is resized."""

    zoomed = False
    """The hunk view is zoomed: the Why/History panes are hidden."""

    def set_zoom(self, zoomed: bool) -> None:
        self.zoomed = zoomed
        self._lay_out(self.size.height)

    def on_resize(self, event: Resize) -> None:
        self._lay_out(event.size.height)

    def _lay_out(self, height: int) -> None:
        path_rows = 1 if self.query("#path") else 0  # the path bar above the hunk view
        result, evidence = pane_heights(height - path_rows)
        if self.zoomed:
            evidence = 0
        for selector, rows in (("#result", result), ("#evidence", evidence)):
            pane = self.query_one(selector)
            pane.display = rows > 0
            pane.styles.height = max(rows, 1)

    # -- the search field and the hunk view --------------------------------------------------------

    @on(SearchingView.SearchAsked)
    def _search_asked(self, message: SearchingView.SearchAsked) -> None:
        message.stop()
        self.query_one(SearchBar).open(self.query_one(SearchingView).last_pattern)

    # The view acts in its own turn (``call_next``): a message it posts while this container handles one would
    # count as this container's, and Textual stops such a message here (the fold a match opens, for the screen).

    @on(SearchBar.Typed)
    def _search_typed(self, message: SearchBar.Typed) -> None:
        message.stop()
        view = self.query_one(SearchingView)
        view.call_next(view.search, message.pattern)

    @on(SearchBar.Closed)
    def _search_closed(self, message: SearchBar.Closed) -> None:
        message.stop()
        view = self.query_one(SearchingView)
        view.call_next(view.keep_search if message.kept else view.cancel_search, message.pattern)
        view.call_next(lambda: self.query_one(SearchBar).show_where(view.found, closing=True))
        view.focus()

    @on(SearchingView.SearchMoved)
    def _search_moved(self, message: SearchingView.SearchMoved) -> None:
        message.stop()
        self.query_one(SearchBar).show_where(message.found)
