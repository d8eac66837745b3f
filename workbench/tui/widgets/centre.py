"""The centre column: the hunk view on top, the result and the evidence below, sized by the room there is.

On a tall terminal the result pane and the Why/History panes get their full
heights; on a short one the hunk view keeps at least half the column (the
current hunk must stay readable), the result pane shrinks first (the hunk
view shows both sides already) and the Why/History panes next, and on the
smallest the result pane folds away.
"""

from __future__ import annotations

from textual.containers import Vertical
from textual.events import Resize

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
