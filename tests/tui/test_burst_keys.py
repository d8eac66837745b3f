"""Keys typed in one burst act in order, each on the hunk the keys before it left on screen.

A hurried user types ``N m N d`` at the end of a file faster than the next
file is prepared (in a worker thread).  Each key must act as if typed slowly:
never on another hunk, never dropped.  ``burst`` hands the keys to the
terminal driver at once; ``prepare_file`` is slowed down so the next file is
still being prepared when the keys behind the move arrive.  The soak sends
random bursts (moves across files, decisions, the file list, notes, dialogs
opened and closed, undo) and checks the app against ``burst_model.Model``.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui.burst_model import Model, random_step, state
from tui.pilot_tools import ready, send_key, settle, toasts

from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Position, Workspace
from workbench.tui import keygate
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.fileview import PreparedFile, prepare_file
from workbench.tui.screens import main as main_module
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList

MakeApp = Callable[..., WorkbenchApp]
BASE = "".join(f"line_{i} = {i}\n" for i in range(14))
FILES = ("a.py", "b.py", "c.py")


def three_files(b: RepoBuilder) -> Path:
    """A merge in progress stopped on three files with two conflicting hunks each (every hunk high risk)."""
    for path in FILES:
        b.write(path, BASE)
    b.commit("base")
    b.branch("dev").checkout("dev")
    for path in FILES:
        b.write(path, BASE.replace("line_2 = 2\n", "DEV_A = 1\n").replace("line_11 = 11\n", "DEV_B = 1\n"))
    b.commit("dev (#2)")
    b.checkout("main")
    for path in FILES:
        b.write(path, BASE.replace("line_2 = 2\n", "MAIN_A = 1\n").replace("line_11 = 11\n", "MAIN_B = 1\n"))
    b.commit("main (#3)")
    b.checkout("dev").merge("main")
    return b.path


def slow_files(monkeypatch: pytest.MonkeyPatch, seconds: Callable[[], float]) -> None:
    """Preparing a file takes ``seconds()`` (a big file on Megatron-LM takes a good part of a second)."""
    prepare = prepare_file

    def slow(ws: Workspace, path: str) -> PreparedFile:
        time.sleep(seconds())
        return prepare(ws, path)

    monkeypatch.setattr(main_module, "prepare_file", slow)


async def burst(pilot: Pilot[int], keys: list[str] | str, gap: float = 0.0) -> None:
    """Hand ``keys`` to the driver ``gap`` apart (as a terminal delivers a burst), then wait until all acted."""
    for key in keys:
        send_key(pilot, key, key if len(key) == 1 else " " if key == "space" else None)
        if gap:
            await asyncio.sleep(gap)
    await settle(pilot)


def _decisions(ws: Workspace, path: str) -> list[Choice | None]:
    found = [ws.session.decision(path, h.index) for h in ws.entry(path).all_hunks]
    return [d.choice if isinstance(d, Decision) else None for d in found]


def test_n_m_n_d_at_the_end_of_a_file_decides_the_next_files_two_hunks(
        builder: RepoBuilder, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to decide dev on a.py's first hunk: the second n, typed while b.py opened, went back to the top,
    and m was overwritten by d in a one-key queue."""
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 0.3)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)), worklist=False)  # hunk by hunk

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            await pilot.press("n" if screen.current == 0 else "p")
            await settle(pilot)
            assert (screen.path, screen.current) == ("a.py", 1)
            await burst(pilot, "nmnd")
            assert (screen.path, screen.current) == ("b.py", 1)
            ws = screen.ws
            assert ws is not None
            assert _decisions(ws, "a.py") == [None, None]
            assert _decisions(ws, "b.py") == [Choice.MAIN, Choice.DEV]
            await burst(pilot, "NmNd")  # the same with the risky-hunk moves, on to c.py
            assert _decisions(ws, "c.py") == [Choice.MAIN, Choice.DEV]

    asyncio.run(main())


def test_d_shift_n_ten_times_records_ten_decisions(builder: RepoBuilder, make_app: MakeApp,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """It used to record 5 and silently drop the rest (an N typed while a file opened lost its place)."""
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 0.15)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)), worklist=False)  # hunk by hunk

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            ws = screen.ws
            assert ws is not None
            await burst(pilot, "dN" * 6)
            assert sum(c is not None for path in FILES for c in _decisions(ws, path)) == 6
            await burst(pilot, "ud" * 2)  # undo shows the undone hunk: d decides it again
            assert sum(c is not None for path in FILES for c in _decisions(ws, path)) == 6

    asyncio.run(main())


def test_a_note_typed_in_the_same_burst_as_the_move_lands_on_the_next_files_hunk(
        builder: RepoBuilder, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """``n c text enter`` at the end of a file: the prompt opens once b.py is shown, the text goes into it."""
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 0.2)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)))

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            await burst(pilot, ["o", "o", "c", "o", "k", "enter", "m"])
            ws = screen.ws
            assert ws is not None and screen.path == "b.py"
            assert ws.session.note("b.py", screen.current) == "ok"
            assert _decisions(ws, "b.py")[screen.current or 0] is Choice.MAIN
            assert isinstance(pilot.app.screen, MainScreen)

    asyncio.run(main())


def test_a_files_earlier_preparation_arriving_late_does_not_move_the_user_back(
        builder: RepoBuilder, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """The soak's `esc j k k N p`: a file opened, left and opened again is prepared twice; the first
    preparation, slower, used to arrive after the user had moved in the file and show it again on its opening
    hunk."""
    repo = three_files(builder)
    delays: list[float] = []
    prepared: list[str] = []
    prepare = prepare_file

    def slow(ws: Workspace, path: str) -> PreparedFile:
        time.sleep(delays.pop(0) if delays else 0.0)
        done = prepare(ws, path)
        prepared.append(path)
        return done

    monkeypatch.setattr(main_module, "prepare_file", slow)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)), worklist=False)  # hunk by hunk

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            assert (screen.path, screen.current) == ("a.py", 0)
            await burst(pilot, ["escape", "j"])
            assert screen.path == "b.py"
            before = len(prepared)
            delays.extend([0.6, 0.0, 0.0])  # a.py slowly, b.py, then a.py again at once
            await burst(pilot, ["k", "j", "k", "n"])
            while len(prepared) < before + 3:  # the slow preparation has arrived too
                await asyncio.sleep(0.05)
            await settle(pilot)
            assert (screen.path, screen.current) == ("a.py", 1)

    asyncio.run(main())


def test_keys_wait_while_a_command_asks_and_then_act(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    """``A`` opens its dialog in a worker: ``escape`` typed with it closes the dialog (it used to reach the main
    screen first and be lost), and ``m`` after it decides the hunk on screen."""
    app = make_app(sample_in_progress)

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            here = Position(screen.path or "", screen.current)
            await burst(pilot, ["A", "escape", "m"])
            ws = screen.ws
            assert ws is not None and isinstance(pilot.app.screen, MainScreen)
            decision = ws.session.decision(here.path, here.hunk or 0)
            assert decision is not None and decision.choice is Choice.MAIN

    asyncio.run(main())


def test_a_key_that_waits_long_is_explained(builder: RepoBuilder, make_app: MakeApp,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 1.2)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)))

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await ready(pilot)
            await burst(pilot, "oom")
            assert any(t.startswith("Opening b.py: the key you typed acts once") for t in toasts(pilot)), toasts(pilot)

    asyncio.run(main())


def test_a_busy_screens_notice_is_followed_by_the_cause_it_turns_into(builder: RepoBuilder, make_app: MakeApp,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """On a loaded machine the screen may still be handling messages past the notice's delay: "catching up" is said
    first, and the file being opened, which the user waits for, must still be said once it is the cause."""
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 1.5)
    real = keygate.settling
    busy_until: list[float] = []

    def busy(screen: object) -> bool:
        return bool(busy_until) and time.monotonic() < busy_until[0] or real(screen)

    monkeypatch.setattr(keygate, "settling", busy)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)))

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await ready(pilot)
            busy_until.append(time.monotonic() + keygate.TELL_AFTER + 0.3)
            await burst(pilot, "oom")
            said = toasts(pilot)
            assert any(t.startswith("The screen is catching up") for t in said), said
            assert any(t.startswith("Opening b.py: the key you typed acts once") for t in said), said

    asyncio.run(main())


def test_keys_typed_far_ahead_are_refused_with_a_notice(builder: RepoBuilder, make_app: MakeApp,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    repo = three_files(builder)
    slow_files(monkeypatch, lambda: 0.5)
    monkeypatch.setattr(keygate, "MOST_AHEAD", 3)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=repo)))

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            await burst(pilot, "oozzm")  # o opens b.py; o z z wait; m is the fourth: refused
            assert any("3 keys are already waiting: m was ignored" in t for t in toasts(pilot)), toasts(pilot)
            assert screen.ws is not None and not screen.ws.session.can_undo

    asyncio.run(main())


# -- the soak ----------------------------------------------------------------------------------


BURSTS = int(os.environ.get("WORKBENCH_BURSTS", "24"))
SEED = int(os.environ.get("WORKBENCH_SOAK_SEED", "2026"))


def _soak(sample: SampleSync, tmp_path: Path, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch,
          seed: int, bursts: int | None, seconds: float | None) -> int:
    """Random bursts against the model; returns how many keys were sent."""
    rng = random.Random(seed)
    copy = tmp_path / "model"
    shutil.copytree(sample.path, copy, symlinks=True)
    model_ws = Workspace.open(SyncRequest(repo=copy))
    model_ws.analysis = replace(model_ws.analysis, worklist=None)
    slow_files(monkeypatch, lambda: rng.choice((0.0, 0.01, 0.05, 0.12)))
    advance = rng.random() < 0.5
    config = Config(path=tmp_path / "config.toml", advance=advance)
    app = make_app(sample, config=config, worklist=False)  # the model moves hunk by hunk (no worklist)
    sent: list[str] = []
    steps: list[str] = []

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            screen = await ready(pilot)
            ws = screen.ws
            assert ws is not None and screen.path is not None
            files = screen.query_one(FileList).shown_paths
            model = Model(model_ws, config, files, Position(screen.path, screen.current))
            deadline = time.monotonic() + seconds if seconds else None
            done = 0
            while (deadline is None and done < (bursts or 0)) or (deadline is not None and time.monotonic() < deadline):
                done += 1
                keys: list[str] = []
                for _ in range(rng.randint(2, 7)):
                    step = random_step(rng)
                    steps.append(step.name)
                    keys.extend(step.keys)
                    step.act(model)
                sent.extend(keys)
                await burst(pilot, keys, gap=rng.choice((0.0, 0.0, 0.005, 0.02)))
                assert isinstance(pilot.app.screen, MainScreen), f"a dialog was left open after {keys}"
                where = (screen.path, screen.current if screen.cursor and screen.cursor.whole_file is False else None)
                assert where == model.here(), f"after {steps[-8:]}: app at {where}, model at {model.here()}"
                assert state(ws) == state(model_ws), f"after {steps[-8:]}: the decisions differ"
            assert not any("still opening" in t or "was ignored" in t for t in toasts(pilot)), toasts(pilot)

    try:
        asyncio.run(main())
    except BaseException:
        print(f"burst soak failed (seed {seed}, advance {advance}) after {len(sent)} keys; last steps {steps[-12:]}")
        raise
    return len(sent)


# The second seed is a soak of its own: slow, beside ``test_random_bursts_for_longer`` (the fast loop keeps the first).
@pytest.mark.parametrize("seed", [SEED, pytest.param(SEED + 1, marks=pytest.mark.slow)])
def test_random_bursts_act_as_the_model_says(sample_in_progress: SampleSync, tmp_path: Path, make_app: MakeApp,
                                             monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    sent = _soak(sample_in_progress, tmp_path, make_app, monkeypatch, seed, BURSTS, None)
    assert sent > BURSTS * 2


@pytest.mark.slow
def test_random_bursts_for_longer(sample_in_progress: SampleSync, tmp_path: Path, make_app: MakeApp,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``WORKBENCH_SOAK_SECONDS`` (default 60) of bursts; ``WORKBENCH_SOAK_SEED`` picks them."""
    seconds = float(os.environ.get("WORKBENCH_SOAK_SECONDS", "60"))
    sent = _soak(sample_in_progress, tmp_path, make_app, monkeypatch, SEED + 7, None, seconds)
    print(f"\nburst soak: {sent} keys in {seconds:.0f} s (seed {SEED + 7}), every burst as the model said")
