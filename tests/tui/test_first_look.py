"""``git mergetool``'s first look: the hunks at once from the three versions, read-only, their risk pending.

The complete analysis (the merge's history, risk and audit for the path) is
held back by a gate, so the test decides how long the first look lasts;
everything else is real: a merge in progress, ``read_mergetool``'s input,
``start_first_look``'s thread and the app.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

from pilot_tools import ready, screen_text, settle, toasts
from textual.pilot import Pilot
from textual.theme import Theme

from workbench.analysis.xdiff import text_model
from workbench.resolve.journal import Journal
from workbench.sample import RepoBuilder
from workbench.services.mergetool_file import (
    FIRST_LOOK_PENDING,
    MergetoolInput,
    analyse_mergetool,
    first_look,
    mergetool_repo,
    read_mergetool,
)
from workbench.services.workspace import Workspace, situation_of
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.fileview import FirstLook, prepare_file
from workbench.tui.launch import start_first_look
from workbench.tui.loading import Report
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.why_panel import WhyPanel

SIZE = (160, 45)


def _three_conflicts(builder: RepoBuilder) -> MergetoolInput:
    """A merge in progress with three conflict hunks in x.py, and git mergetool's input for it."""
    base = "".join(f"v{i} = {i}\n" for i in range(40))
    dev, main = base, base
    for k in (3, 18, 33):
        dev = dev.replace(f"v{k} = {k}\n", f"v{k} = {k}0\nd{k} = 'dev'\n")
        main = main.replace(f"v{k} = {k}\n", f"v{k} = {k}00\n")
    builder.write("x.py", base).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", dev).commit("dev")
    builder.checkout("main").write("x.py", main).commit("main")
    builder.checkout("dev").merge("main")
    out = builder.git("checkout-index", "--stage=all", "--temp", "--", "x.py").decode()
    base_file, local, remote = (str(builder.path / name) for name in out.split("\t")[0].split())
    return read_mergetool(base_file, local, remote, str(builder.path / "x.py"))


def _app(themes: list[Theme], private_config: Path, given: MergetoolInput, gate: threading.Event,
         look: Future[FirstLook] | None = None) -> WorkbenchApp:
    def load(_report: Report) -> Workspace:
        if not gate.wait(30):
            raise TimeoutError("the test never opened the gate")
        return Workspace.load(mergetool_repo(given), analyse_mergetool(given))

    if look is None:
        look = start_first_look(lambda: Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING))
    return WorkbenchApp(load, Config(path=private_config), themes, first_look=look)


async def _first_look_shown(pilot: Pilot) -> MainScreen:
    deadline = time.monotonic() + 20
    while True:
        screen = pilot.app.screen
        if isinstance(screen, MainScreen) and screen.ws is not None and screen.view is not None \
                and screen.current_hunk_on_screen():
            await pilot.pause()
            return screen
        if time.monotonic() > deadline:
            raise TimeoutError("the first look never showed its hunk")
        await pilot.pause(0.02)


def _title_lines(app: WorkbenchApp) -> list[str]:
    """The hunk titles on screen ("hunk 2/3  H  68 high risk  ·  conflict  ·  undecided")."""
    return [line for line in screen_text(app) if "hunk " in line and "·  conflict" in line]


def _run(app: WorkbenchApp, script: Callable[[Pilot], object]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await script(pilot)  # type: ignore[misc]

    asyncio.run(main())


def test_the_first_look_shows_the_hunks_with_their_risk_pending_and_decides_nothing(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    async def script(pilot: Pilot) -> None:
        screen = await _first_look_shown(pilot)
        assert screen.ws is not None and screen.ws.pending == FIRST_LOOK_PENDING
        titles = _title_lines(pilot.app)
        assert len(titles) >= 2 and all("risk pending" in t and "low risk" not in t for t in titles), titles
        why = screen.query_one(WhyPanel).text.plain
        assert "Still reading this merge's history, risk and API audit for the file" in why, why
        assert "No risk signals" not in why and "low risk" not in why, why
        assert "dev · history still being read" in screen.query_one(HistoryPanel).render_line(0).text
        summary = str(screen.query_one("#file-summary").render())
        assert "risk pending" in summary and "high risk" not in summary, summary
        assert screen.query_one(FileList).options.row_text(0).startswith("·")
        await pilot.press("m", "d", "b", "A", "u", "w")
        await pilot.pause()
        assert screen.ws.session.decided("x.py") == 0
        assert any(t.startswith("Still reading this merge's history, risk and API audit for the file: deciding "
                                "starts when the analysis is complete") for t in toasts(pilot)), toasts(pilot)
        assert not Journal.for_situation(given.repo.gitdir, situation_of(given.repo, screen.ws.analysis),
                                         str(given.root)).load(), "a first look journals nothing"
        assert b"<<<<<<<" in (given.root / "x.py").read_bytes(), "nothing was written"
        seen = screen.view
        assert seen is not None and seen.layout is not None
        gate.set()
        await ready(pilot)
        await settle(pilot)
        assert screen.ws is not None and screen.ws.pending is None
        complete = screen.view
        assert complete is not None and complete is not seen
        assert complete.layout is seen.layout and complete.syntax is seen.syntax, "the same versions are not parsed again"
        assert not any("risk pending" in t for t in _title_lines(pilot.app)), _title_lines(pilot.app)
        assert "Still reading" not in screen.query_one(WhyPanel).text.plain
        assert "The analysis is complete: deciding works now." in toasts(pilot), "the refused key is answered"
        await pilot.press("m")
        await settle(pilot)
        assert screen.ws.session.decided("x.py") == 1

    _run(app, script)


def test_the_hunk_the_user_moved_to_on_the_first_look_stays_current(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    async def script(pilot: Pilot) -> None:
        screen = await _first_look_shown(pilot)
        assert screen.current == 0
        await pilot.press("n")
        await pilot.pause()
        assert screen.current == 1
        gate.set()
        deadline = time.monotonic() + 20
        while screen.ws is None or screen.ws.pending is not None or screen.view is None or screen.opening:
            assert time.monotonic() < deadline, "the complete analysis never replaced the first look"
            await pilot.pause(0.02)
        await settle(pilot)
        assert screen.current == 1 and screen.current_hunk_on_screen()

    _run(app, script)


def test_a_first_look_that_comes_after_the_complete_analysis_is_not_shown(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    gate.set()
    late: Future[FirstLook] = Future()
    app = _app(themes, private_config, given, gate, late)

    async def script(pilot: Pilot) -> None:
        screen = await ready(pilot)
        assert screen.ws is not None and screen.ws.pending is None
        late.set_result(FirstLook.of(Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING)))
        await settle(pilot)
        assert screen.ws.pending is None
        assert not any("risk pending" in t for t in _title_lines(pilot.app))

    _run(app, script)


def test_a_failed_first_look_leaves_the_complete_analysis_to_show(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    failed: Future[FirstLook] = Future()
    failed.set_exception(OSError("gone"))
    app = _app(themes, private_config, given, gate, failed)

    async def script(pilot: Pilot) -> None:
        await pilot.pause(0.1)
        assert isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.ws is None
        gate.set()
        screen = await ready(pilot)
        assert screen.ws is not None and screen.ws.pending is None

    _run(app, script)


def test_a_file_is_prepared_anew_when_its_versions_or_hunks_differ(builder: RepoBuilder) -> None:
    """``prepare_file``'s ``like`` is only a shortcut: another merge or other hunks are laid out and parsed again."""
    given = _three_conflicts(builder)
    look = Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING)
    seen = prepare_file(look, "x.py")
    again = prepare_file(look, "x.py", like=seen)
    assert again.layout is seen.layout and again.syntax is seen.syntax
    entry = look.entry("x.py")
    fewer = replace(look.analysis, files=(replace(entry, hunks=entry.hunks[:1],
                                                  merge=text_model(b"a\n", b"b\n", b"c\n", False)),))
    other = Workspace.first_look(look.repo, fewer, FIRST_LOOK_PENDING)
    fresh = prepare_file(other, "x.py", like=seen)
    assert fresh.layout is not seen.layout and fresh.syntax is not seen.syntax
    assert len(fresh.layout.rows) < len(seen.layout.rows)
