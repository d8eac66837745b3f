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

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.theme import Theme
from tui.pilot_tools import Script, at, loaded, ready, screen_text, settle, toasts

from workbench.analysis.display.folds import Fold
from workbench.analysis.xdiff import text_model
from workbench.errors import WorkbenchError
from workbench.resolve.journal import Journal
from workbench.resolve.splice import Choice, Decision
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
from workbench.tui.fileview import FirstLook, PreparedFile, prepare_file, reprepared
from workbench.tui.launch import start_first_look
from workbench.tui.loading import Report
from workbench.tui.messages import WorkspaceLoaded
from workbench.tui.screens import main as main_module
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView
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


async def _until(pilot: Pilot[int], done: Callable[[], bool], what: str) -> None:
    """Wait (at most 20 s) until ``done()``; ``what`` names it when it never is."""
    deadline = time.monotonic() + 20
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"never: {what}")
        await pilot.pause(0.02)
    await pilot.pause()


async def _first_look_shown(pilot: Pilot[int]) -> MainScreen:
    def shown() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, MainScreen) and screen.ws is not None and screen.view is not None \
            and (screen.view.layout is None or screen.current_hunk_on_screen())

    await _until(pilot, shown, "the first look showed its hunk")
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def _replaced(pilot: Pilot[int], screen: MainScreen, gate: threading.Event) -> None:
    """Let the complete analysis in, and wait until it has replaced the first look with its file laid out."""
    gate.set()
    await _until(pilot, lambda: screen.ws is not None and screen.ws.pending is None and screen.view is not None
                 and not screen.opening, "the complete analysis replaced the first look")
    await settle(pilot)


def _title_lines(app: App[int]) -> list[str]:
    """The hunk titles on screen ("hunk 2/3  H  68 high risk  ·  conflict  ·  undecided")."""
    return [line for line in screen_text(app) if "hunk " in line and "·  conflict" in line]


def _run(app: WorkbenchApp, script: Script) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await script(pilot)

    asyncio.run(main())


def test_the_first_look_shows_the_hunks_with_their_risk_pending_and_decides_nothing(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    async def script(pilot: Pilot[int]) -> None:
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

    async def script(pilot: Pilot[int]) -> None:
        screen = await _first_look_shown(pilot)
        assert screen.current == 0
        await pilot.press("n")
        await pilot.pause()
        assert screen.current == 1
        await _replaced(pilot, screen, gate)
        assert screen.current == 1 and screen.current_hunk_on_screen()

    _run(app, script)


def test_a_fold_opened_on_the_first_look_stays_open(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    def folds(screen: MainScreen) -> list[int]:
        return [entry.start for entry in screen.entries() if isinstance(entry, Fold)]

    async def script(pilot: Pilot[int]) -> None:
        screen = await _first_look_shown(pilot)
        closed = folds(screen)
        assert len(closed) >= 2  # the context between the three hunks
        screen.post_message(HunkView.FoldToggled(screen.query_one(HunkView), closed[0]))
        await pilot.pause()
        assert folds(screen) == closed[1:]
        await _replaced(pilot, screen, gate)
        assert folds(screen) == closed[1:]  # still open; the others still closed

    _run(app, script)


def test_a_first_look_that_comes_after_the_complete_analysis_is_not_shown(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    given = _three_conflicts(builder)
    gate = threading.Event()
    gate.set()
    late: Future[FirstLook] = Future()
    app = _app(themes, private_config, given, gate, late)

    async def script(pilot: Pilot[int]) -> None:
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

    async def script(pilot: Pilot[int]) -> None:
        await pilot.pause(0.1)
        assert isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.ws is None
        gate.set()
        screen = await ready(pilot)
        assert screen.ws is not None and screen.ws.pending is None

    _run(app, script)


def test_a_file_is_prepared_anew_when_its_versions_or_hunks_differ(builder: RepoBuilder) -> None:
    """``reprepared`` is only a shortcut: another merge or other hunks are laid out and parsed again."""
    given = _three_conflicts(builder)
    look = Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING)
    seen = prepare_file(look, "x.py")
    again = reprepared(look, "x.py", seen)
    assert again is not None and again.layout is seen.layout and again.syntax is seen.syntax
    assert reprepared(look, "x.py", None) is None
    entry = look.entry("x.py")
    fewer = replace(look.analysis, files=(replace(entry, hunks=entry.hunks[:1],
                                                  merge=text_model(b"a\n", b"b\n", b"c\n", False)),))
    other = Workspace.first_look(look.repo, fewer, FIRST_LOOK_PENDING)
    assert reprepared(other, "x.py", seen) is None
    fresh = prepare_file(other, "x.py")
    assert fresh.layout is not None and seen.layout is not None and len(fresh.layout.rows) < len(seen.layout.rows)


def _binary_conflict(builder: RepoBuilder) -> MergetoolInput:
    builder.write("blob.bin", b"\x00base\x00").commit("base")
    builder.branch("dev").checkout("dev").write("blob.bin", b"\x00dev\x00").commit("dev")
    builder.checkout("main").write("blob.bin", b"\x00main\x00").commit("main")
    builder.checkout("dev").merge("main")
    out = builder.git("checkout-index", "--stage=all", "--temp", "--", "blob.bin").decode()
    base_file, local, remote = (str(builder.path / name) for name in out.split("\t")[0].split())
    return read_mergetool(base_file, local, remote, str(builder.path / "blob.bin"))


def test_a_binary_file_first_look_takes_no_side(builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    """A whole-file choice (m/d on a binary file) is a decision like any other: it waits for the analysis."""
    given = _binary_conflict(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    async def script(pilot: Pilot[int]) -> None:
        screen = await _first_look_shown(pilot)
        assert screen.ws is not None and screen.ws.pending is not None and screen.cursor is not None
        assert screen.cursor.whole_file
        await pilot.press("m", "d", "x")
        await pilot.pause()
        assert screen.ws.session.file_choice("blob.bin") is None
        assert not Journal.for_situation(given.repo.gitdir, situation_of(given.repo, screen.ws.analysis),
                                         str(given.root)).load()
        gate.set()
        await ready(pilot)
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert screen.ws.session.file_choice("blob.bin") is not None

    _run(app, script)


def test_keys_that_need_the_risk_say_it_is_still_being_read(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    """N/P (high-risk hunks) and g (lost lines) would answer "none" from a first look, which knows neither."""
    given = _three_conflicts(builder)
    gate = threading.Event()
    app = _app(themes, private_config, given, gate)

    async def script(pilot: Pilot[int]) -> None:
        screen = await _first_look_shown(pilot)
        await pilot.press("N", "g")
        await pilot.pause()
        said = toasts(pilot)
        assert "The risk is still being read: N and P move between high-risk hunks once it is in." in said, said
        assert any(t.startswith("Which lines the result loses is still being read") for t in said), said
        assert not any("No other undecided high-risk hunk" in t or "lost no lines" in t for t in said), said
        assert screen.current == 0
        gate.set()

    _run(app, script)


def test_the_workspace_of_a_first_look_refuses_every_change(builder: RepoBuilder) -> None:
    """The guard behind the screen's: a first look's session is never changed, nor its journal written."""
    given = _three_conflicts(builder)
    look = Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING)
    attempts: list[Callable[[], object]] = [
        lambda: look.decide("x.py", 0, Decision(Choice.MAIN)),
        lambda: look.decide_file("x.py", Choice.DEV),
        lambda: look.decide_many([("x.py", 0), ("x.py", 1)], Choice.MAIN, "bulk"),
        lambda: look.set_note("x.py", 0, "later"),
        look.undo,
        look.redo,
        lambda: look.write("x.py"),
    ]
    for attempt in attempts:
        with pytest.raises(WorkbenchError, match="the analysis is not complete yet"):
            attempt()
    assert look.session.decided("x.py") == 0 and not look.session.note("x.py", 0)
    assert look.write_blocker() == f"the analysis is not complete yet ({FIRST_LOOK_PENDING} still being read)"
    assert b"<<<<<<<" in (given.root / "x.py").read_bytes()


def test_a_key_waits_while_the_complete_analysis_lays_the_file_out_anew(
        builder: RepoBuilder, themes: list[Theme], private_config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the complete analysis's hunks differ from the first look's, the file is prepared again: a decision
    key meanwhile would act on a hunk the user has not seen, so it waits for the file, then acts."""
    given = _three_conflicts(builder)
    gate, laid_out = threading.Event(), threading.Event()
    original = prepare_file

    def held(ws: Workspace, path: str) -> PreparedFile:
        if ws.pending is None:
            assert laid_out.wait(30)
        return original(ws, path)

    monkeypatch.setattr(main_module, "prepare_file", held)

    def load(_report: Report) -> Workspace:
        assert gate.wait(30)
        complete = analyse_mergetool(given)
        (entry,) = complete.files
        fewer = replace(entry, hunks=entry.hunks[:2], merge=None)  # another basis: laid out anew
        return Workspace.load(mergetool_repo(given), replace(complete, files=(fewer,)))

    look = start_first_look(lambda: Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING))
    app = WorkbenchApp(load, Config(path=private_config), themes, first_look=look)

    async def script(pilot: Pilot[int]) -> None:
        screen = await _first_look_shown(pilot)
        gate.set()
        await _until(pilot, lambda: screen.ws is not None and screen.ws.pending is None,
                     "the complete analysis came")
        await pilot.press("m")
        await pilot.pause()
        assert loaded(screen).session.decided("x.py") == 0 and app.keys.held == 1, "m waits for the file"
        laid_out.set()
        await ready(pilot)
        await settle(pilot)
        assert loaded(screen).session.decided("x.py") == 1, "then it decides the hunk the file opened on"
        decision = loaded(screen).session.decision("x.py", at(screen)[1])
        assert decision is not None and decision.choice is Choice.MAIN

    _run(app, script)


def test_a_first_look_arriving_while_the_sync_is_analysed_again_is_not_shown(
        builder: RepoBuilder, themes: list[Theme], private_config: Path) -> None:
    """After the complete analysis was on screen (a reanalysis with another preset sets it aside), a late
    first look would replace it with one that decides nothing."""
    given = _three_conflicts(builder)
    gate = threading.Event()
    gate.set()
    late: Future[FirstLook] = Future()
    app = _app(themes, private_config, given, gate, late)

    async def script(pilot: Pilot[int]) -> None:
        screen = await ready(pilot)
        late.set_exception(OSError("never needed"))  # the screen's own first-look worker ends
        complete = loaded(screen)
        screen.ws = None  # as _reopen leaves it while the sync is analysed again
        screen.post_message(WorkspaceLoaded(Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING), 0.0))
        await settle(pilot)
        assert screen.ws is None
        screen.ws = complete

    _run(app, script)
