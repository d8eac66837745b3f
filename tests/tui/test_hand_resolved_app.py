"""A conflict resolved by hand in an editor can be kept (``R``) and edited from what the file holds (``e``): Pilot."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot
from textual.widgets import TextArea
from tui.pilot_tools import drive, loaded, main_screen, settle, toasts

from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp

MakeApp = Callable[..., WorkbenchApp]
PATH = "x.txt"
BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def _hand_resolved_first_block(b: RepoBuilder) -> None:
    """Two conflicts; the first one's block replaced in an editor by the user's own line."""
    lines = BASE.splitlines(keepends=True)
    dev, main = list(lines), list(lines)
    dev[2], main[2] = "DEV_A = 1\n", "MAIN_A = 1\n"
    dev[9], main[9] = "DEV_B = 1\n", "MAIN_B = 1\n"
    b.write(PATH, BASE).commit("base")
    b.branch("dev").checkout("dev").write(PATH, "".join(dev)).commit("dev (#2)")
    b.checkout("main").write(PATH, "".join(main)).commit("main (#3)")
    b.checkout("dev").merge("main")
    text = b.read(PATH).decode()
    start, end = text.index("<<<<<<<"), text.index(">>>>>>> main\n") + len(">>>>>>> main\n")
    b.write(PATH, text[:start] + "HAND_A = 1  # both, by hand\n" + text[end:])


def test_r_keeps_a_conflict_resolved_by_hand_and_w_writes_it(builder: RepoBuilder, make_app: MakeApp) -> None:
    _hand_resolved_first_block(builder)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file=PATH)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.current == 0
        await pilot.press("R")
        await settle(pilot)
        decision = loaded(screen).session.decision(PATH, 0)
        assert decision is not None and decision.choice is Choice.RESULT, toasts(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert screen.current == 1
        await pilot.press("R")  # still git's markers: refused, with a word
        await settle(pilot)
        assert loaded(screen).session.decision(PATH, 1) is None
        assert any("still holds git's conflict markers" in t for t in toasts(pilot)), toasts(pilot)
        await pilot.press("d")
        await pilot.press("w")
        await settle(pilot)
        assert any("written and staged" in t for t in toasts(pilot)), toasts(pilot)

    drive(app, script)
    expected = BASE.replace("line_2 = 2\n", "HAND_A = 1  # both, by hand\n").replace("line_9 = 9\n", "DEV_B = 1\n")
    assert builder.read(PATH) == expected.encode()
    assert builder.git("diff", "--cached", "--name-only", "--diff-filter=U") == b""


def test_e_opens_what_the_file_holds_for_a_conflict_resolved_by_hand(builder: RepoBuilder, make_app: MakeApp) -> None:
    _hand_resolved_first_block(builder)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file=PATH)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.current == 0
        await pilot.press("e")
        await settle(pilot)
        area = pilot.app.screen.query_one("#edit-area", TextArea)
        assert area.text == "HAND_A = 1  # both, by hand\n", area.text
        area.text = "HAND_A = 2\n"
        await pilot.press("ctrl+s")
        await settle(pilot)
        decision = loaded(screen).session.decision(PATH, 0)
        assert decision is not None and decision.choice is Choice.CUSTOM and decision.text == b"HAND_A = 2\n"

    drive(app, script)
