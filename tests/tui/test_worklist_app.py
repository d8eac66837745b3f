"""The worklist in the app: it opens on the items, N/P and o/O move by item, I decides an item once, the Why pane
says what each choice loses and which item a hunk is in, and History shows an earlier sync merge."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from tui.pilot_tools import ready, screen_text, settle, toasts

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder, SampleSync
from workbench.services import worklist
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Position, Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config, StartPane
from workbench.tui.dialogs.confirm import ConfirmScreen
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.tui.widgets.why_panel import WhyPanel
from workbench.tui.widgets.worklist import WorklistPanel

MakeApp = Callable[..., WorkbenchApp]


def _items_app(make_app: MakeApp, sample: SampleSync, private_config: Path) -> WorkbenchApp:
    return make_app(sample, config=Config(path=private_config, start=StartPane.ITEMS))


async def _the_app_opens_on_the_worklist_at_the_first_items_first_open_hunk(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    app = _items_app(make_app, sample_in_progress, private_config)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws = screen.ws
        assert ws is not None
        panel = screen.query_one(WorklistPanel)
        rows = worklist.item_rows(ws, worklist.ItemFilter.OPEN)
        assert panel.display and panel.options.has_focus
        assert panel.ids == tuple(r.item.id for r in rows) and len(rows) > 3
        first = rows[0].item
        assert worklist.item_at(ws, screen.cursor.here() if screen.cursor else None) is first
        text = "\n".join(screen_text(app))
        assert f"items {len(rows)}/{len(rows)} open" in str(screen.query_one(SyncBar).render())
        assert first.kind.value in text and f"−{first.lost_dev} dev" in text
        # moving onto the next item shows its first open hunk, the focus stays in the list
        await pilot.press("j")
        await settle(pilot)
        second = rows[1].item
        assert screen.cursor is not None and worklist.item_at(ws, screen.cursor.here()) is second
        assert panel.options.has_focus
        # L: the file list, one key away, and back
        await pilot.press("L")
        await settle(pilot)
        assert not panel.display and screen.left_showing == "files"
        await pilot.press("L")
        await settle(pilot)
        assert panel.display and panel.highlighted_id == second.id


async def _N_and_o_move_by_item_and_n_hunk_by_hunk(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    app = _items_app(make_app, sample_in_progress, private_config)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws, cursor = screen.ws, screen.cursor
        assert ws is not None and cursor is not None
        items = worklist.items(ws)
        high = [i for i in items if i.level is Level.HIGH]
        seen = [worklist.item_at(ws, cursor.here())]
        for _ in range(len(high) - 1):
            await pilot.press("N")
            await settle(pilot)
            seen.append(worklist.item_at(ws, cursor.here()))
        assert seen == high, "N visits each open high item once, in the worklist's order"
        await pilot.press("P")
        await settle(pilot)
        assert worklist.item_at(ws, cursor.here()) is high[-2]
        await pilot.press("o")
        await settle(pilot)
        assert worklist.item_at(ws, cursor.here()) is high[-1]
        await pilot.press("o")
        await settle(pilot)
        low = worklist.item_at(ws, cursor.here())
        assert low is not None and low.level is not Level.HIGH, "o goes on to items of any level"
        # within a multi-hunk item, n steps hunk by hunk
        multi = next(i for i in items if len(i.members) > 1 and all(m.hunk is not None for m in i.members))
        target = cursor.to_item(multi)
        assert target is not None
        screen.go(target)
        await settle(pilot)
        before = cursor.here()
        await pilot.press("n")
        await settle(pilot)
        assert cursor.here() != before and cursor.here() is not None


async def _I_decides_every_member_of_an_item_across_files_as_one_undo(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    app = _items_app(make_app, sample_in_progress, private_config)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws = screen.ws
        assert ws is not None
        item = next(i for i in worklist.items(ws) if len(i.paths) > 1)
        assert screen.cursor is not None
        target = screen.cursor.to_item(item)
        assert target is not None
        screen.go(target)
        await settle(pilot)
        await pilot.press("I")
        await settle(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen)
        asked = dialog.question.plain
        hunks = sum(1 for m in item.members if m.hunk is not None)
        assert f"{hunks} hunks in {len(item.paths)} files" in asked and item.id in asked
        await pilot.press("d")
        await settle(pilot)
        assert not worklist.undecided_members(ws, item)
        assert any(item.id in t and "u undoes it all" in t for t in toasts(pilot))
        assert item.id not in screen.query_one(WorklistPanel).ids, "the open filter drops a decided item"
        await pilot.press("u")
        await settle(pilot)
        assert len(worklist.undecided_members(ws, item)) == len(item.members), "one u undoes it all"
        # a member can still be decided on its own
        first = item.members[0]
        assert first.hunk is not None
        screen.go(Position(first.path, first.hunk))
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert worklist.undecided_members(ws, item) == item.members[1:]


async def _the_why_pane_says_the_item_and_what_each_choice_loses(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    app = _items_app(make_app, sample_in_progress, private_config)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws, cursor = screen.ws, screen.cursor
        assert ws is not None and cursor is not None
        item = worklist.item_at(ws, cursor.here())
        assert item is not None
        why = screen.query_one(WhyPanel).text.plain
        assert f"Item {item.id}" in why and item.why in why
        assert "Taking dev loses" in why and "taking main loses" in why


async def _F_lists_open_all_and_changed_after_the_merge(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    app = _items_app(make_app, sample_in_progress, private_config)
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws = screen.ws
        assert ws is not None
        panel = screen.query_one(WorklistPanel)
        item = worklist.items(ws)[0]
        worklist.decide_item(ws, item, Choice.DEV)
        screen.refresh_state()
        await settle(pilot)
        assert item.id not in panel.ids
        await pilot.press("F")
        await settle(pilot)
        assert panel.ids == tuple(i.id for i in worklist.items(ws)), "all"
        await pilot.press("F")
        await settle(pilot)
        assert panel.ids == (), "a merge in progress has no commit after the merge"


def _earlier_sync(b: RepoBuilder) -> None:
    """Dev's file was rewritten by an earlier sync merge of main into dev; main changed it again since."""
    b.write("pkg/core.py", "".join(f"V{k} = {k}\n" for k in range(20)))
    b.commit("Initial import")
    b.branch("dev")
    b.write("pkg/core.py", "".join(f"V{k} = {k * 2}\n" for k in range(20)))
    b.commit("Main's doubling (#21)")
    b.checkout("dev")
    b.branch("sync1").checkout("sync1")
    assert b.merge("main", check=True) == 0
    b.checkout("dev")
    b.git("merge", "-q", "--no-ff", "-m", "Merge the sync (#30)", "sync1")
    b.write("pkg/core.py", b.read("pkg/core.py").decode().replace("V3 = 6", "V3 = 'dev'"))
    b.commit("[dev] three (#12)")
    b.checkout("main")
    b.write("pkg/core.py", b.read("pkg/core.py").decode().replace("V3 = 6", "V3 = 'main'"))
    b.commit("Main's three (#22)")
    b.checkout("dev")
    b.merge("main")


async def _history_shows_the_earlier_sync_merge_that_rewrote_devs_file(
        make_app: MakeApp, builder: RepoBuilder, private_config: Path) -> None:
    _earlier_sync(builder)
    path = builder.path

    def load() -> Workspace:
        return Workspace.open(SyncRequest(repo=path))

    app = make_app(load, config=Config(path=private_config, start=StartPane.FILES))
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await ready(pilot)
        ws = screen.ws
        assert ws is not None and screen.path == "pkg/core.py"
        history = screen.query_one(HistoryPanel)
        rows = ["".join(seg.text for seg in history.render_row(i, 120, history.palette, False))
                for i in range(history.row_count)]
        assert any("Merge the sync (#30)" in r and "⇄ sync merge" in r for r in rows), rows
        assert "of the sync itself" in rows[0]



def test_the_app_opens_on_the_worklist_at_the_first_items_first_open_hunk(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    asyncio.run(_the_app_opens_on_the_worklist_at_the_first_items_first_open_hunk(make_app, sample_in_progress, private_config))


def test_N_and_o_move_by_item_and_n_hunk_by_hunk(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    asyncio.run(_N_and_o_move_by_item_and_n_hunk_by_hunk(make_app, sample_in_progress, private_config))


def test_I_decides_every_member_of_an_item_across_files_as_one_undo(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    asyncio.run(_I_decides_every_member_of_an_item_across_files_as_one_undo(make_app, sample_in_progress, private_config))


def test_the_why_pane_says_the_item_and_what_each_choice_loses(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    asyncio.run(_the_why_pane_says_the_item_and_what_each_choice_loses(make_app, sample_in_progress, private_config))


def test_F_lists_open_all_and_changed_after_the_merge(
        make_app: MakeApp, sample_in_progress: SampleSync, private_config: Path) -> None:
    asyncio.run(_F_lists_open_all_and_changed_after_the_merge(make_app, sample_in_progress, private_config))


def test_history_shows_the_earlier_sync_merge_that_rewrote_devs_file(
        make_app: MakeApp, builder: RepoBuilder, private_config: Path) -> None:
    asyncio.run(_history_shows_the_earlier_sync_merge_that_rewrote_devs_file(make_app, builder, private_config))
