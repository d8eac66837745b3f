"""The file list's filter: enter keeps it, esc clears it, and the count says how many files it shows."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import Input
from tui.pilot_tools import drive, settle

from workbench.sample import SampleSync
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList

MakeApp = Callable[..., WorkbenchApp]


def _files(pilot: Pilot[int]) -> FileList:
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    return screen.query_one(FileList)


def _summary(files: FileList) -> str:
    return str(files.query_one("#file-summary").render())


def test_escape_clears_the_filter_and_enter_keeps_it(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        files = _files(pilot)
        every = files.shown_paths
        total = len(every)
        await pilot.press("slash", "u", "v")
        await settle(pilot)
        matches = files.shown_paths
        assert 0 < len(matches) < total and all("uv" in p for p in matches)
        assert f"{len(matches)} of {total} files" in _summary(files), _summary(files)
        await pilot.press("escape")
        await settle(pilot)
        assert files.shown_paths == every, "esc clears the filter"
        assert files.options.has_focus and not files.query_one("#file-filter", Input).display
        assert f"\n{total} files ·" in _summary(files), _summary(files)
        await pilot.press("slash", "u", "v", "enter")
        await settle(pilot)
        assert files.shown_paths == matches and files.options.has_focus, "enter keeps the filter, focus on the list"
        assert files.query_one("#file-filter", Input).value == "uv"
        await pilot.press("j", "k", "escape")
        await settle(pilot)
        assert files.shown_paths == every, "esc on a filtered list clears it too"

    drive(app, script)
