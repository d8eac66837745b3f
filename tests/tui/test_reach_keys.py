"""Keys a meld, VS Code, vim or less user reaches for: / to search the file, n/N between matches, esc out of
it, ctrl+d/ctrl+u half pages in every long pane and page, ctrl+a to select all in the in-app editor; the
footer, ? and the command palette say so."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import TextArea
from tui.pilot_tools import Script, drive, main_screen, screen_text, send_key, settle

from workbench.analysis.display.folds import Fold
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.dialogs.text_page import TextScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_search import find, first_from
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.search_bar import SearchBar
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]
FILE = "long.py"
FAR = "x" * 150
"""Dev's first conflict line is long: its match is far to the right, out of sight until the view pans."""


def long_file_merge(b: RepoBuilder) -> Path:
    """A 200-line file, conflicts on lines 21 and 181, a folded line 101 between them; "needle" on all three."""
    lines = [f"line_{i} = {i}\n" for i in range(200)]
    lines[100] = "needle_in_the_fold = 100\n"
    base = "".join(lines)
    dev = base.replace("line_20 = 20\n", f"line_20 = 'dev {FAR} needle'\n").replace("line_180 = 180\n", "line_180 = 'd'\n")
    main = base.replace("line_20 = 20\n", "line_20 = 'main'\n").replace("line_180 = 180\n", "line_180 = 'main Needle'\n")
    b.write(FILE, base).commit("base")
    b.branch("dev").checkout("dev").write(FILE, dev).commit("dev (#2)")
    b.checkout("main").write(FILE, main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return Path(b.path)


def _app(builder: RepoBuilder, make_app: MakeApp) -> WorkbenchApp:
    path = long_file_merge(builder)
    return make_app(lambda: Workspace.open(SyncRequest(repo=path)))


async def _search(pilot: Pilot[int], pattern: str, enter: bool = True) -> None:
    await pilot.press("slash", *pattern, *(["enter"] if enter else []))
    await settle(pilot)


def _on_match(view: HunkView) -> tuple[int, str]:
    """The match the view is on (layout row, side), after checking the cursor is on its row."""
    assert view.found is not None and view.found.match is not None
    match = view.found.match
    assert view.cursor_row() == match.row, (view.cursor_row(), match)
    return match.row, match.side


def test_slash_searches_the_file_and_n_goes_from_match_to_match(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        await settle(pilot)
        await _search(pilot, "needle")
        assert view.found is not None and view.found.count == 3, "dev's line 21, the shared line 101, main's line 181"
        seen = [_on_match(view)]
        for _ in range(3):
            await pilot.press("n")
            await settle(pilot)
            seen.append(_on_match(view))
        assert sorted(set(seen)) == [(20, "dev"), (100, "dev"), (180, "main")]
        assert seen[3] == seen[0], "n wraps around the file"
        assert "Search wrapped to the top." in [n.message for n in pilot.app._notifications]
        await pilot.press("N")
        await settle(pilot)
        assert _on_match(view) == seen[2], "N goes back"
        assert "3 of 3" in str(screen.query_one("#search-where").render()), "the bar says which match"

    drive(app, script)


def test_a_match_in_a_fold_opens_it_and_a_far_one_pans_the_view(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        assert any(isinstance(e, Fold) and e.start <= 100 < e.end for e in view.entries), "line 101 starts folded"
        view.focus()
        await _search(pilot, "fold")
        assert _on_match(view) == (100, "dev")
        assert not any(isinstance(e, Fold) and e.start <= 100 < e.end for e in view.entries), "its fold opened"
        assert "needle_in_the_fold" in "\n".join(screen_text(pilot.app))
        await _search(pilot, f"{FAR[:3]} needle")
        assert _on_match(view) == (20, "dev")
        assert view.x_offset > 0, "the long line is panned to the match"
        assert f"{FAR[:3]} needle" in "\n".join(screen_text(pilot.app))

    drive(app, script)


def test_case_is_ignored_unless_the_pattern_has_a_capital(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        view = main_screen(pilot).query_one(HunkView)
        view.focus()
        await _search(pilot, "NEEDLE")
        assert view.found is None, "no match: the search does not stay on"
        assert any("No match for 'NEEDLE'" in n.message for n in pilot.app._notifications)
        await _search(pilot, "Needle")
        assert view.found is not None and view.found.count == 1 and _on_match(view) == (180, "main")
        await _search(pilot, "needle.(")
        assert view.found is None, "the pattern is text, not a regular expression"

    drive(app, script)


def test_esc_ends_the_search_and_n_moves_between_hunks_again(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        await _search(pilot, "needle")
        footer = screen_text(pilot.app)[-1]
        assert "n Next match" in footer and "N Prev match" in footer and "esc End search" in footer, footer
        assert screen.query_one(SearchBar).display, "the bar stays, saying where the search is"
        await pilot.press("escape")
        await settle(pilot)
        assert view.found is None and view.has_focus, "esc ends the search and stays in the hunk view"
        assert not screen.query_one(SearchBar).display
        footer = screen_text(pilot.app)[-1]
        assert "n Next " in footer and "Next match" not in footer, footer
        before = screen.current
        await pilot.press("n")
        await settle(pilot)
        assert screen.current != before, "n is next hunk again"
        await pilot.press("escape")
        await settle(pilot)
        assert screen.query_one(FileList).options.has_focus, "esc with no search goes to the file list, as before"

    drive(app, script)


def test_esc_in_the_field_goes_back_to_where_the_search_started(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        await settle(pilot)
        start = (view.cursor, view.scroll_offset.y, view.x_offset)
        await _search(pilot, "fold", enter=False)
        assert view.found is not None and view.cursor_row() == 100, "the view follows as the pattern is typed"
        await pilot.press("escape")
        await settle(pilot)
        assert (view.cursor, view.scroll_offset.y, view.x_offset) == start
        assert view.found is None and view.has_focus and not screen.query_one(SearchBar).display
        await pilot.press("slash")
        await settle(pilot)
        field = screen.query_one("#search-field")
        assert field.has_focus and getattr(field, "value", None) == "fold", "the field offers the last pattern"

    drive(app, script)


def test_a_search_typed_in_one_burst_acts_in_order(builder: RepoBuilder, make_app: MakeApp) -> None:
    """``/needle`` enter ``n`` ``n`` sent faster than the app handles them (the key gate orders them): the third
    match from where the search started, as typed slowly, and no letter of the pattern lands anywhere else."""
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        await settle(pilot)
        layout, _entries, _lines, show_base = view.search_rows()
        found = find(layout, "needle", show_base)
        first = first_from(found, view.cursor_row() or 0)
        assert first is not None
        for key in ["slash", *"needle", "enter", "n", "n"]:
            send_key(pilot, key, "/" if key == "slash" else key if len(key) == 1 else None)
        await settle(pilot)
        assert view.found is not None and view.found.pattern == "needle"
        assert view.found.current == (first + 2) % found.count and _on_match(view)
        assert screen.ws is not None and not screen.ws.session.can_undo, "no letter decided anything"
        assert screen.query_one(FileList).filter_text == "", "no letter went to the file filter"

    drive(app, script)


def test_slash_in_the_file_list_still_filters(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        screen.query_one(FileList).options.focus()
        await pilot.press("slash", *"layer", "enter")
        await settle(pilot)
        assert screen.query_one(FileList).filter_text == "layer"
        assert screen.query_one(HunkView).found is None

    drive(app, script)


def test_ctrl_d_and_ctrl_u_move_half_a_page_in_the_hunk_view_and_the_file_list(builder: RepoBuilder,
                                                                               make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        await pilot.press("z")  # every fold open: 200 lines to page through
        await settle(pilot)
        view.move_cursor(0, top_margin=0)
        await settle(pilot)
        half = view.page_height // 2
        await pilot.press("ctrl+d")
        await settle(pilot)
        assert (view.cursor, round(view.scroll_offset.y)) == (half, half), "half a page, the view with the cursor"
        await pilot.press("ctrl+d", "ctrl+u")
        await settle(pilot)
        assert (view.cursor, round(view.scroll_offset.y)) == (half, half)
        await pilot.press("pagedown")
        await settle(pilot)
        assert view.cursor == half + view.page_height - 1, "PgDn still moves a whole page"

    drive(app, script, size=(100, 30))


def test_ctrl_d_pages_the_file_list_and_the_why_panel(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        options = screen.query_one(FileList).options
        options.focus()
        await settle(pilot)
        start = options.cursor
        await pilot.press("ctrl+d")
        await settle(pilot)
        assert options.cursor == min(start + options.page_height // 2, options.row_count - 1) > start
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert options.cursor == start
        why = screen.query_one(WhyPanel)
        why.show(Text("\n".join(f"line {i}" for i in range(80))))
        why.focus()
        await settle(pilot)
        await pilot.press("ctrl+d")
        await settle(pilot)
        assert round(why.scroll_offset.y) == why.page_height // 2 > 0

    drive(app, script, size=(100, 30))


def _scroll_after(app: WorkbenchApp, keys: list[str]) -> Script:
    async def script(pilot: Pilot[int]) -> None:
        box = pilot.app.screen.query_one(VerticalScroll)
        height = box.scrollable_content_region.height
        for key in keys:
            await pilot.press(key)
        await settle(pilot)
        assert round(box.scroll_offset.y) == height // 2, (box.scroll_offset.y, height)
        await pilot.press("ctrl+u")
        await settle(pilot)
        assert round(box.scroll_offset.y) == 0

    return script


def test_ctrl_d_and_ctrl_u_page_the_help(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(pilot.app.screen, HelpScreen)
        await _scroll_after(app, ["ctrl+d"])(pilot)
        assert "ctrl+d" in str(pilot.app.screen.query_one(VerticalScroll).border_subtitle)

    drive(app, script, size=(100, 30))


def test_ctrl_d_and_ctrl_u_page_a_text_page(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.app.push_screen(TextScreen("Score", Text("\n".join(f"miss {i}" for i in range(100)))))
        await settle(pilot)
        await _scroll_after(app, ["ctrl+d"])(pilot)

    drive(app, script, size=(100, 30))


def test_ctrl_a_selects_all_in_the_in_app_editor(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file="megatron/core/transformer/transformer_layer.py")

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("e")
        await settle(pilot)
        area = pilot.app.screen.query_one("#edit-area", TextArea)
        assert area.text.count("\n") > 2
        await pilot.press("ctrl+a")
        assert area.selected_text == area.text, "ctrl+a selects the whole text, as in meld and VS Code"
        await pilot.press(*"ok")
        assert area.text == "ok", "typing replaces the selection"
        await pilot.press("escape")
        await settle(pilot)

    drive(app, script)


def test_help_and_palette_name_the_new_keys(builder: RepoBuilder, make_app: MakeApp) -> None:
    app = _app(builder, make_app)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        screen.query_one(HunkView).focus()
        await settle(pilot)
        titles = {c.title: str(c.help) for c in pilot.app.get_system_commands(screen)}
        assert {"Search", "Half page down", "Half page up"} <= set(titles)
        assert "/" in Text.from_markup(titles["Search"]).plain and "ctrl+d" in titles["Half page down"]
        assert "Next match" not in titles, "offered only while a search is on"
        await _search(pilot, "needle")
        commands = {c.title: c for c in pilot.app.get_system_commands(screen)}
        assert {"Next match", "Prev match", "End search"} <= set(commands)
        await commands["Next match"].callback()
        await settle(pilot)
        found = screen.query_one(HunkView).found
        assert found is not None and found.current == 1
        await commands["End search"].callback()
        await settle(pilot)
        assert screen.query_one(HunkView).found is None
        await pilot.press("question_mark")
        await settle(pilot)
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(help_screen.table())
        text = console.export_text()
        for words in ("Search the file's text", "ctrl+d", "ctrl+u", "the next match", "ctrl+a", "Select all"):
            assert words in text, words

    drive(app, script)
