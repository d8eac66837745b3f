"""Small things that read wrong: ctrl+c's message, the palette's keys and theme picker, the counter's colour
after a theme switch, the current file row when the list is not focused, the counts' wording."""

from __future__ import annotations

from collections.abc import Callable

from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Static
from tui.pilot_tools import drive, loaded, main_screen, notifications, settle

from workbench.analysis.model import Level
from workbench.sample import SampleSync
from workbench.tui.app import WorkbenchApp
from workbench.tui.palette import theme_palette
from workbench.tui.widgets.file_list import FileList

MakeApp = Callable[..., WorkbenchApp]


def test_ctrl_c_says_how_to_quit_in_plain_words(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+c")
        await pilot.pause(0.2)
        notes = [n for n in notifications(pilot) if "quit" in n.message]
        assert notes and notes[-1].message == "Press q to quit the workbench." and not notes[-1].markup

    drive(app, script)


def test_the_palette_shows_every_key_and_no_second_theme_picker(sample_in_progress: SampleSync,
                                                               make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        listed = list(pilot.app.get_system_commands(screen))
        commands = {c.title: Content.from_markup(c.help).plain for c in listed}
        assert commands["Both (main first)"].endswith("[B]")
        assert commands["File: main"].endswith("[M]") and commands["File: dev"].endswith("[D]")
        assert commands["Filter"].endswith("[/]")
        assert commands["Bulk"].endswith("[A]")
        themes = [c for c in listed if c.title == "Theme"]
        assert len(themes) == 1 and commands["Theme"].endswith("[t]"), "only t's theme switch, which remembers"

    drive(app, script)


def test_the_high_risk_counter_takes_the_new_themes_colour(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        summary = pilot.app.screen.query_one("#file-summary", Static)

        def high_colour() -> Color | None:
            text = summary.render()
            assert isinstance(text, Text | Content), type(text)
            spans = [s for s in text.spans if "high risk" in text.plain[s.start:s.end]]
            return Style.parse(str(spans[0].style)).color if spans else None

        before = high_colour()
        await pilot.press("t")
        await settle(pilot)
        after = high_colour()
        palette = theme_palette(pilot.app.theme, dict(pilot.app.theme_variables), pilot.app.current_theme.dark)
        high = palette.risk[Level.HIGH].color
        assert after is not None and before is not None and high is not None
        assert after.triplet == high.triplet and after.triplet != before.triplet

    drive(app, script)


def test_the_current_row_stands_out_when_the_list_is_not_focused(sample_in_progress: SampleSync,
                                                                 make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        options = screen.query_one(FileList).options
        await pilot.press("tab")
        await settle(pilot)
        assert not options.has_focus
        palette = options.palette
        current = options.render_row(options.cursor, 40, palette, False)[2].style
        other = options.render_row(options.cursor + 1, 40, palette, False)[2].style
        assert current is not None and other is not None
        assert current.bgcolor != other.bgcolor and current.bold and not other.bold

    drive(app, script)


def test_the_app_and_demo_print_count_the_same_decisions(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    from rich.console import Console

    from workbench.report.listing import print_analysis

    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        hunks = sum(len(f.hunks) for f in ws.files)
        whole = sum(1 for f in ws.files if not f.hunks)
        assert whole, "the sample has binary and modify/delete files"
        summary = str(screen.query_one("#file-summary").render())
        assert f"{hunks + whole} undecided" in summary
        console = Console(record=True, width=200, file=open("/dev/null", "w"))  # noqa: SIM115
        print_analysis(ws.analysis, console=console)
        printed = console.export_text()
        assert f"{hunks} hunks and {whole} files decided whole ({hunks + whole} decisions)" in printed

    drive(app, script)
