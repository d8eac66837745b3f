"""Getting through a long sync: zoom, inline and wrapped layouts, the path bar, bulk moves, next undecided,
advancing after a decision, resuming where the user stopped, and ``v`` following the current hunk."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from tui.pilot_tools import at, drive, loaded, main_screen, place, send_key, settle

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.services.cursor import next_undecided, positions
from workbench.services.workspace import Position
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.dialogs.bulk import BulkScreen
from workbench.tui.moves import Bulk, Reach, bulk_targets
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.file_rows import shorten_path
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.path_bar import PathBar

MakeApp = Callable[..., WorkbenchApp]
LAYER = "megatron/core/transformer/transformer_layer.py"


def test_zoom_hides_the_file_list_and_the_evidence_and_f_brings_them_back(
        sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        before = view.size.width
        await pilot.press("f")
        await pilot.pause()
        assert not screen.query_one(FileList).display and not screen.query_one("#evidence").display
        assert view.size.width > before + 30, "the hunk view takes the whole width"
        await pilot.press("f")
        await pilot.pause()
        assert screen.query_one(FileList).display and screen.query_one("#evidence").display

    drive(app, script)


def test_the_open_files_full_path_is_above_the_hunk_view(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert LAYER in str(screen.query_one(PathBar).render())

    drive(app, script, size=(80, 24))


def test_list_rows_keep_the_distinguishing_directory() -> None:
    a = "tests/functional_tests/test_cases/gpt/gpt3_tp2_pp2/golden_values_dev_dgx_gb200.json"
    b = "tests/functional_tests/test_cases/gpt/gpt3_tp1_pp4/golden_values_dev_dgx_gb200.json"
    assert shorten_path("megatron/core/transformer/transformer_layer.py", 32) == "transformer/transformer_layer.py"
    assert shorten_path("megatron/core/transformer/attention/transformer_layer.py", 32) == \
        "m…attention/transformer_layer.py", "the file name and its directory stay whole"
    assert shorten_path("megatron/core/transformer/attention_and_more/transformer_layer.py", 32) == \
        "atten…_more/transformer_layer.py", "the name stays whole while the directory keeps a fair part"
    assert shorten_path("megatron/core/transformer/transformer_layer.py", 31) == "tran…ormer/transformer_layer.py"
    for room in (70, 40, 30):
        short_a, short_b = shorten_path(a, room), shorten_path(b, room)
        assert len(short_a) == room and short_a != short_b, room
        assert "tp2_pp2" in short_a and "tp1_pp4" in short_b
    assert shorten_path("short.py", 20) == "short.py"


def test_the_layout_fits_the_width_and_i_switches_it(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        assert view.inline, "at 80 columns the sides are shown inline"
        await settle(pilot)
        header = view.render_line(0).text
        assert "d = dev" in header and "m = main" in header
        assert screen.current is not None
        lines = view.hunk_lines(screen.current)
        sides = [view.line_at(i).side for i in lines]
        first_main = sides.index("main")
        assert set(sides[:first_main]) <= {"dev", None} and "dev" in sides, "dev's lines, then main's"
        painted = "".join(s.text for s in view.render_row(lines[first_main], 54,
                                                         view.palette, False))
        assert painted[1:3] == "m "
        await pilot.press("i")
        assert not view.inline and "│" in view.render_line(0).text
        await pilot.press("i")
        assert view.inline

    drive(app, script, size=(80, 24))


def test_wide_terminals_open_side_by_side(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        view = main_screen(pilot).query_one(HunkView)
        assert not view.inline

    drive(app, script)


def test_wrap_shows_whole_lines_and_right_jumps_to_the_first_difference(
        sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        await pilot.press("i")  # side by side at 80 columns: lines are cut
        view.focus()
        cut = sum("›" in view.render_line(y).text for y in range(1, view.size.height))
        assert cut, "some lines are cut side by side at 80 columns"
        lines_before = view.row_count
        await pilot.press("l")
        assert view.row_count > lines_before, "wrapped lines take more screen lines"
        assert not any("›" in view.render_line(y).text for y in range(1, view.size.height))
        await pilot.press("l")
        assert view.row_count == lines_before
        # → on a row whose first difference is out of sight jumps there
        width = view.scrollable_content_region.width // 2 - 6
        for index in range(view.row_count):
            row = view.row_at(index)
            if row is not None:
                spans = [s for c in (row.dev, row.main) if c is not None for s in c.vs_other]
                if spans and min(a for a, _ in spans) > width + 8:
                    view.move_cursor(index)
                    first = min(a for a, _ in spans)
                    await pilot.press("right")
                    assert view.x_offset == max(0, first - 8)
                    break
        else:
            raise AssertionError("the sample has a long line differing far to the right")

    drive(app, script, size=(80, 24))


def test_bulk_takes_main_for_low_risk_hunks_and_one_undo_takes_it_back(
        sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        low = [(f.path, h.index) for f in ws.files for h in f.hunks if h.level is Level.LOW]
        assert low, "the sample has low-risk hunks"
        await pilot.press("A")
        await pilot.pause()
        modal = pilot.app.screen
        assert isinstance(modal, BulkScreen)
        files = len({p for p, _ in low})
        question = str(modal.query_one("#bulk-question").render())
        assert f"{len(low)} hunk" in question and f"in {files} file" in question
        await pilot.press("enter")
        await settle(pilot)
        assert all(ws.session.decision(p, i) == Decision(Choice.MAIN) for p, i in low)
        assert not any(ws.session.decision(f.path, h.index) for f in ws.files for h in f.hunks
                       if h.level is not Level.LOW), "higher risks are left for the user"
        await pilot.press("u")
        await settle(pilot)
        assert not any(ws.session.decision(p, i) for p, i in low), "one undo takes the whole move back"

    drive(app, script)


def test_bulk_choices_in_the_dialog_change_the_count(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        await pilot.press("A", "d", "2", "f")
        await pilot.pause()
        modal = pilot.app.screen
        assert isinstance(modal, BulkScreen)
        bulk = modal.bulk
        assert bulk == Bulk(Choice.DEV, Level.HIGH, Reach.FILE, LAYER)
        targets = bulk_targets(ws, bulk)
        assert {p for p, _ in targets} <= {LAYER}
        await pilot.press("escape")
        await settle(pilot)
        assert not any(ws.session.decision(p, i) for p, i in targets), "esc decides nothing"

    drive(app, script)


def test_o_goes_to_the_next_undecided_hunk_of_any_risk(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, worklist=False, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        order = list(positions(ws))
        here = place(screen)
        following = order[order.index(here) + 1]
        assert following.hunk is not None
        ws.decide(following.path, following.hunk, Decision(Choice.DEV))
        await pilot.press("o")
        await settle(pilot)
        expected = next_undecided(ws, here, +1)
        landed = place(screen)
        assert expected != following and landed == expected
        if landed.hunk is None:  # a file decided as a whole
            assert ws.session.file_choice(landed.path) is None
        else:
            assert ws.session.decision(landed.path, landed.hunk) is None
        await pilot.press("O")
        await settle(pilot)
        assert place(screen) == here

    drive(app, script)


def test_advance_moves_on_after_a_decision(sample_in_progress: SampleSync, make_app: MakeApp,
                                           private_config: Path) -> None:
    app = make_app(sample_in_progress, worklist=False, start_file=LAYER, config=Config(path=private_config, advance=True))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        path, index = at(screen)
        here = Position(path, index)
        await pilot.press("m")
        await settle(pilot)
        assert loaded(screen).session.decision(path, index) == Decision(Choice.MAIN)
        assert place(screen) == next_undecided(loaded(screen), here, +1)

    drive(app, script)


def test_reopening_resumes_where_the_user_stopped(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    first = make_app(sample_in_progress)
    stopped: list[Position] = []

    async def decide(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        riskiest = screen.path
        target = next(f for f in loaded(screen).files if f.path != riskiest and len(f.hunks) > 1)
        loaded(screen).decide(target.path, 1, Decision(Choice.DEV))
        stopped.append(Position(target.path, 1))

    drive(first, decide)
    second = make_app(sample_in_progress)

    async def check(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert place(screen) == stopped[0], "not the riskiest file: where the user was"

    drive(second, check)


def test_v_opens_the_diffs_at_the_current_hunk_and_follows_n(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        hunks = loaded(screen).entry(LAYER).hunks
        await pilot.press("v")
        await settle(pilot)
        dev = screen.query_one("#dev-diff", DiffView)
        row = dev.rows[dev.cursor]
        assert row.old is not None and row.old >= hunks[at(screen)[1]].dev.start
        assert dev.cursor > 0, "the riskiest hunk is not at the top of the file"
        await pilot.press("p", "p")
        await settle(pilot)
        assert screen.current == 0
        row = dev.rows[dev.cursor]
        assert row.old is not None and row.old >= hunks[0].dev.start
        earlier = [r for r in dev.rows[: dev.cursor] if r.old is not None and r.old >= hunks[0].dev.start]
        assert not earlier, "the first row of that hunk, not a later one"

    drive(app, script)


def test_a_decision_pressed_while_the_next_file_opens_is_not_lost(
        sample_in_progress: SampleSync, make_app: MakeApp, private_config: Path) -> None:
    app = make_app(sample_in_progress, worklist=False, config=Config(path=private_config, advance=True))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        last = len(ws.entry(at(screen)[0]).hunks) - 1
        screen.go(Position(at(screen)[0], last))
        await settle(pilot)
        first = place(screen)
        following = next_undecided(ws, first, +1)
        assert first.hunk == last and following is not None and following.path != first.path
        assert following.hunk is not None
        send_key(pilot, "d", "d")
        send_key(pilot, "d", "d")  # a fast second key: it waits for the next file, then decides there
        await settle(pilot)
        assert ws.session.decision(first.path, first.hunk) == Decision(Choice.DEV)
        assert ws.session.decision(following.path, following.hunk) == Decision(Choice.DEV)
        assert place(screen) == next_undecided(ws, following, +1), "and it advanced"

    drive(app, script)
