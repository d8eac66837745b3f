"""Small terminals: the hunk view keeps at least half the centre, nothing at the top is cut, help fits."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from tui.pilot_tools import drive, screen_text, settle

from workbench.sample import SampleSync
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.centre import EVIDENCE_ROWS, MIN_RESULT_ROWS, RESULT_ROWS, pane_heights
from workbench.tui.widgets.hunk_view import HunkView

MakeApp = Callable[..., WorkbenchApp]
SIZES = [(80, 24), (100, 30), (160, 45)]


def test_pane_heights_leave_the_hunk_view_at_least_half() -> None:
    for height in range(0, 120):
        result, evidence = pane_heights(height)
        assert result + evidence <= height // 2, height
        assert result == 0 or MIN_RESULT_ROWS <= result <= RESULT_ROWS
        assert 0 <= evidence <= EVIDENCE_ROWS
    assert pane_heights(60) == (RESULT_ROWS, EVIDENCE_ROWS), "a tall terminal gets the full panes"
    assert pane_heights(38) == (5, EVIDENCE_ROWS), "the result pane shrinks first"
    assert pane_heights(28) == (4, 10)
    assert pane_heights(16) == (0, 8), "a tiny one folds the result pane away"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_current_hunk_is_readable_at_every_size(sample_in_progress: SampleSync, make_app: MakeApp,
                                                     size: tuple[int, int]) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        await settle(pilot)
        view = screen.query_one(HunkView)
        centre = screen.query_one("#center")
        assert view.size.height >= centre.size.height // 2, (view.size.height, centre.size.height)
        assert screen.current is not None
        assert view.hunk_on_screen(screen.current), "the hunk's header and its first lines are on screen"
        rows = screen_text(pilot.app)
        width, _height = size
        assert "20 " in rows[0] and "from main" in rows[0], f"the top line is whole: {rows[0]!r}"
        summary = "\n".join(rows[1:6])
        assert "16 files ·" in summary and "merge in progress" in summary, summary  # broken between pieces only
        assert "13 high" in summary and "risk" in summary, summary

    drive(app, script, size=size)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_help_fits_the_terminal(sample_in_progress: SampleSync, make_app: MakeApp, size: tuple[int, int]) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(pilot.app.screen, HelpScreen)
        box = pilot.app.screen.query_one(VerticalScroll)
        width, height = size
        assert box.region.right <= width and box.region.bottom <= height
        assert box.styles.scrollbar_size_vertical == 1, "a thin scrollbar, like every other pane's"
        before = box.scroll_offset.y
        await pilot.press("j")
        assert box.scroll_offset.y > before, "j scrolls the help"

    drive(app, script, size=size)
