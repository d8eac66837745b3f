"""The app lists files the resolution changed beyond git's merge, and says what each edit holds."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from tui.pilot_tools import drive, main_screen, settle, toasts

from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.why_panel import WhyPanel

CLEAN = "pkg/clean.py"
CONFLICT = "pkg/conflict.py"
BODY = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))


def test_a_clean_file_the_user_edited_mid_merge_is_listed_with_its_edit(
    builder: RepoBuilder, make_app: Callable[..., WorkbenchApp]
) -> None:
    builder.write(CLEAN, BODY).write(CONFLICT, "value = 0\n").commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(CLEAN, BODY.replace("return 1\n", "return dev_value(1)\n")).write(CONFLICT, "value = 1\n")
    builder.commit("[dev] Dev work (#11)")
    builder.checkout("main")
    builder.write(CLEAN, BODY.replace("return 4\n", "return main_value(4)\n")).write(CONFLICT, "value = 2\n")
    builder.commit("Main work (#21)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    builder.write(CLEAN, builder.read(CLEAN).decode().replace("return main_value(4)\n", "return 4\n"))
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file=CLEAN)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        row = files.options.row_text(files.shown_paths.index(CLEAN))
        assert row[1] == "V", row  # undoing main's only change leaves dev's file
        why = screen.query_one(WhyPanel).text.plain
        assert "edit outside git's conflicts" in why
        assert "put dev's text back over main's clean change" in why
        assert "resolution dropped a line" in why

    drive(app, script)


def _conflict_and_edit_in_one_file(builder: RepoBuilder) -> str:
    """A merge commit whose file holds a conflict (hunk 1) and, after it, main's clean change undone (an edit)."""
    builder.write(CLEAN, BODY).commit("Initial import")
    builder.branch("dev").checkout("dev")
    builder.write(CLEAN, BODY.replace("return 1\n", "return dev_value(1)\n")).commit("[dev] Dev work (#11)")
    builder.checkout("main")
    builder.write(CLEAN, BODY.replace("return 1\n", "return main_value(1)\n").replace("return 4\n", "return fused(4)\n"))
    builder.commit("Main work (#21)")
    builder.checkout("dev")
    assert builder.merge("main", no_commit=True) == 1
    builder.write(CLEAN, BODY.replace("return 1\n", "return dev_value(1)\n"))
    return builder.commit("Merge main into dev (bot resolution)")


def test_an_edit_hunk_is_listed_after_the_conflicts_and_reached_with_n(
    builder: RepoBuilder, make_app: Callable[..., WorkbenchApp]
) -> None:
    merge = _conflict_and_edit_in_one_file(builder)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path, rev=merge)), start_file=CLEAN)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.ws is not None
        entry = screen.ws.entry(CLEAN)
        assert len(entry.hunks) == 1 and [e.index for e in entry.edits] == [1]
        view = screen.query_one(HunkView)
        assert view.hunks_shown == (0, 1), "hunk 0 above hunk 1"
        second = view.header_line_of(1)
        assert second is not None
        header = "".join(s.text for s in view.render_row(second, 200, screen.palette, False))
        assert "hunk 2/2" in header and "edit outside git's conflicts" in header, header
        assert "put dev's text back over main's clean change" in header, header
        screen.set_current(0)
        await pilot.press("n")
        await settle(pilot)
        assert screen.current == 1
        assert "edit outside git's conflicts" in screen.query_one(WhyPanel).text.plain
        await pilot.press("m")
        await settle(pilot)
        assert screen.ws.session.decision(CLEAN, 1) == Decision(Choice.MAIN)
        await pilot.press("R")
        await settle(pilot)
        assert screen.ws.session.decision(CLEAN, 1) == Decision(Choice.RESULT)

    drive(app, script)


def test_restoring_gits_merge_in_an_edit_hunk_and_writing_it_on_the_checked_out_merge(
    builder: RepoBuilder, make_app: Callable[..., WorkbenchApp]
) -> None:
    """G restores main's clean change the resolution undid; w writes it (the merge is HEAD); R on a conflict
    says what R is for and decides nothing."""
    _conflict_and_edit_in_one_file(builder)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file=CLEAN)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.ws is not None
        screen.set_current(0)
        await pilot.press("R")
        await settle(pilot)
        assert screen.ws.session.decision(CLEAN, 0) is None
        assert any("one of git's conflicts" in t for t in toasts(pilot))
        await pilot.press("n", "G")
        await settle(pilot)
        assert screen.ws.session.decision(CLEAN, 1) == Decision(Choice.MERGED)
        view = screen.query_one(HunkView)
        line = view.header_line_of(1)
        assert line is not None
        header = "".join(s.text for s in view.render_row(line, 200, screen.palette, False))
        assert "git's merge restored" in header, header
        await pilot.press("w")
        await settle(pilot)
        assert builder.read(CLEAN) == BODY.replace("return 1\n", "return dev_value(1)\n").replace(
            "return 4\n", "return fused(4)\n").encode()
        assert screen.ws.session.undecided(CLEAN) == 1, "the conflict is still to be reviewed"

    drive(app, script)
