"""``v``: the result as it would be written, against dev and against main, side by side."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal

from workbench.analysis.model import Hunk
from workbench.tui.fileview import BothDiffs
from workbench.tui.widgets.diff_view import DiffView


class DiffPair(Horizontal):
    """Two ``DiffView``s (``#dev-diff``, ``#main-diff``) that open, scroll and follow a hunk together."""

    def compose(self) -> ComposeResult:
        yield DiffView(id="dev-diff")
        yield DiffView(id="main-diff")

    def show(self, diffs: BothDiffs) -> None:
        result = "result (deleted)" if diffs.deleted else "result as written now"
        for side, rows in (("dev", diffs.dev), ("main", diffs.main)):
            view = self.query_one(f"#{side}-diff", DiffView)
            view.set_title([(side, side), (" → ", None), (result, "result")])
            view.show(rows, side, "result", diffs.syntax.get(side), diffs.syntax.get("result"),
                      empty=f"the result is identical to {side}")

    def go_to_hunk(self, hunk: Hunk) -> None:
        """Each diff opens where the hunk's lines of its side are."""
        self.query_one("#dev-diff", DiffView).go_to_old_line(hunk.dev.start)
        self.query_one("#main-diff", DiffView).go_to_old_line(hunk.main.start)

    def scroll_text(self, step: int) -> None:
        """← →: shift the long lines of both diffs."""
        for view in self.query(DiffView):
            view.action_scroll_text(step)
