"""`m` then `w` on the conflict text a user's git wrote, and what `w` says when git add cannot work (Pilot, issue 18.1, 18.6)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from tui.pilot_tools import drive, loaded, main_screen, settle, toasts

from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]
BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def _conflict(b: RepoBuilder, style: str) -> RepoBuilder:
    b.git("config", "merge.conflictStyle", style)
    lines = BASE.splitlines(keepends=True)
    dev, main = list(lines), list(lines)
    dev[2], main[2] = "DEV_A = 1\n", "MAIN_A = 1\n"
    dev[4], main[4] = "DEV_B = 1\n", "MAIN_B = 1\n"
    b.write("x.txt", BASE).commit("base")
    b.branch("dev").checkout("dev").write("x.txt", "".join(dev)).commit("dev (#2)")
    b.checkout("main").write("x.txt", "".join(main)).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def _unmerged(repo: Path) -> list[str]:
    out = subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"], cwd=repo, capture_output=True, check=True)
    return out.stdout.decode().split()


def test_m_then_w_on_diff3_blocks_writes_mains_side(builder: RepoBuilder, make_app: MakeApp) -> None:
    _conflict(builder, "zdiff3")
    assert b"|||||||" in builder.read("x.txt")
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file="x.txt")

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert len(loaded(screen).entry("x.txt").hunks) == 1, "git's two diff3 blocks are one hunk of the model"
        await pilot.press("m")
        await pilot.press("w")
        await settle(pilot)
        assert any("written and staged" in t for t in toasts(pilot)), toasts(pilot)

    drive(app, script)
    assert builder.read("x.txt") == BASE.replace("line_2 = 2\n", "MAIN_A = 1\n").replace("line_4 = 4\n", "MAIN_B = 1\n").encode()
    assert _unmerged(builder.path) == []


def test_w_with_the_index_locked_says_nothing_was_written(builder: RepoBuilder, make_app: MakeApp) -> None:
    _conflict(builder, "merge")
    before = builder.read("x.txt")
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file="x.txt")
    Path(builder.path, ".git", "index.lock").touch()

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("m")
        await pilot.press("w")
        await settle(pilot)
        said = toasts(pilot)
        assert any("x.txt not written" in t and "index lock" in t for t in said), said
        assert not any("written and staged" in t or "files written" in t for t in said), said

    drive(app, script)
    assert builder.read("x.txt") == before and _unmerged(builder.path) == ["x.txt"]


def test_w_on_a_file_with_a_name_near_name_max_writes_it(builder: RepoBuilder, make_app: MakeApp) -> None:
    name = "n" * 240 + ".txt"
    builder.write(name, BASE).commit("base")
    builder.branch("dev").checkout("dev").write(name, BASE.replace("line_5 = 5\n", "DEV = 1\n")).commit("dev (#2)")
    builder.checkout("main").write(name, BASE.replace("line_5 = 5\n", "MAIN = 1\n")).commit("main (#3)")
    builder.checkout("dev").merge("main")
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file=name)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("m")
        await pilot.press("w")
        await settle(pilot)
        assert any("written and staged" in t for t in toasts(pilot)), toasts(pilot)

    drive(app, script)
    assert builder.read(name) == BASE.replace("line_5 = 5\n", "MAIN = 1\n").encode()
    assert _unmerged(builder.path) == []


def test_blocks_that_do_not_match_the_hunks_are_said_and_only_a_whole_side_is_written(
    builder: RepoBuilder, make_app: MakeApp
) -> None:
    _conflict(builder, "merge")
    edited = builder.read("x.txt").replace(b"MAIN_A = 1\n", b"MAIN_A = 2\n")
    builder.write("x.txt", edited)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file="x.txt")

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert "does not match the hunks" in screen.query_one(WhyPanel).text.plain
        await pilot.press("b")
        await pilot.press("w")
        await settle(pilot)
        said = toasts(pilot)
        assert any("take main or dev for the whole file" in t for t in said), said
        assert builder.read("x.txt") == edited
        await pilot.press("M")
        await pilot.press("w")
        await settle(pilot)
        assert any("written and staged" in t for t in toasts(pilot)), toasts(pilot)

    drive(app, script)
    assert b"MAIN_A = 2\n" in builder.read("x.txt") and b"<<<<<<<" not in builder.read("x.txt")
    assert _unmerged(builder.path) == []


def test_once_decided_the_why_panel_tells_the_merges_evidence_as_the_past(builder: RepoBuilder, make_app: MakeApp) -> None:
    """A conflicted hunk says "nobody has chosen a side yet" until ``d``; then the decision comes first, and the
    merge's signals and lost lines are what was there before it (a user read them as current, even after ``w``)."""
    _conflict(builder, "merge")
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)), start_file="x.txt")

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        why = screen.query_one(WhyPanel)
        assert "nobody has chosen a side yet" in why.text.plain
        await pilot.press("d")
        await settle(pilot)
        for written in (False, True):
            plain = why.text.plain
            assert "nobody has chosen a side yet" not in plain
            assert "lost from" not in plain.replace("had lost from", ""), plain
            assert plain.index("Your decision: dev") < plain.index("Before your decision:")
            assert ("written to the work tree" in plain) is written
            if not written:
                await pilot.press("w")
                await settle(pilot)

    drive(app, script)
