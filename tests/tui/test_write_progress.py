"""Writing many files shows how far it got; "Write N, then quit" quits; an unchecked file is said (Pilot)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui.pilot_tools import Script, main_screen, ready, settle, toasts

import workbench.resolve.atomic as atomic
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.confirm import ConfirmScreen
from workbench.tui.widgets.sync_bar import SyncBar

MakeApp = Callable[..., WorkbenchApp]
BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def _merge(b: RepoBuilder, files: int, hunks: int = 1) -> list[str]:
    """A merge in progress stopped on ``files`` conflicted files of ``hunks`` conflicts each."""
    paths = [f"f{n}.py" for n in range(files)]
    for path in paths:
        b.write(path, BASE)
    b.commit("base")
    for side in ("dev", "main"):
        if side == "dev":
            b.branch("dev").checkout("dev")
        else:
            b.checkout("main")
        for path in paths:
            text = BASE.replace("line_2 = 2\n", f"{side.upper()}_A = 1\n")
            b.write(path, text.replace("line_9 = 9\n", f"{side.upper()}_B = 1\n") if hunks > 1 else text)
        b.commit(f"{side} (#{2 if side == 'dev' else 3})")
    b.checkout("dev")
    assert b.merge("main") == 1
    return paths


def _run(app: WorkbenchApp, script: Script) -> None:
    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await ready(pilot)
            await script(pilot)

    asyncio.run(main())


def test_write_n_then_quit_writes_them_and_quits(builder: RepoBuilder, make_app: MakeApp) -> None:
    """One file decided, one half decided: the answer "Write 1, then quit" used to write and stay, the dialog
    gone and the app on, because the other file could not be written."""
    _merge(builder, 2, hunks=2)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)))

    async def script(pilot: Pilot[int]) -> None:
        ws = main_screen(pilot).ws
        assert ws is not None
        ws.decide_file("f0.py", Choice.MAIN)
        ws.decide("f1.py", 0, Decision(Choice.DEV))
        await pilot.press("q")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert [a.label for a in dialog.answers][0] == "Write 1, then quit"
        await pilot.press("w")
        for _ in range(200):
            if app.return_code is not None:
                break
            await asyncio.sleep(0.05)

    _run(app, script)
    assert app.return_code == 0
    assert b"MAIN_A = 1" in builder.read("f0.py") and b"<<<<<<<" in builder.read("f1.py")
    unmerged = builder.git("diff", "--name-only", "--diff-filter=U").decode().split()
    assert unmerged == ["f1.py"], "the file written is staged, the other left conflicted"


def test_writing_many_files_counts_them_on_the_top_line(builder: RepoBuilder, make_app: MakeApp,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _merge(builder, 5)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = screen.ws
        assert ws is not None
        for path in paths:
            ws.decide_file(path, Choice.DEV)
        third, release = threading.Event(), threading.Event()
        write = atomic.atomic_write
        written: list[Path] = []

        def held(target: Path, data: bytes, executable: bool) -> None:
            written.append(target)
            if len(written) == 3:
                third.set()
                release.wait(10)
            write(target, data, executable)

        monkeypatch.setattr("workbench.resolve.writer.atomic_write", held)
        await pilot.press("w")
        for _ in range(200):
            if third.is_set():
                break
            await asyncio.sleep(0.02)
        await pilot.pause()
        bar = screen.query_one(SyncBar)
        assert "writing 3 of 5 files" in str(bar.render()), bar.render()
        release.set()
        await settle(pilot)
        assert "writing" not in str(bar.render())
        assert any("5 files written and staged" in t for t in toasts(pilot)), toasts(pilot)

    _run(app, script)
    assert builder.git("diff", "--name-only", "--diff-filter=U") == b""


def test_a_file_written_without_a_syntax_check_is_said(builder: RepoBuilder, make_app: MakeApp) -> None:
    """The toast used to say only "1 file written and staged"."""
    _merge(builder, 1)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=builder.path)))
    deep = ("DEEP = " + " + ".join(["1"] * 3000) + "\n").encode()

    async def script(pilot: Pilot[int]) -> None:
        ws = main_screen(pilot).ws
        assert ws is not None
        ws.decide("f0.py", 0, Decision(Choice.CUSTOM, deep))
        await pilot.press("w")
        await settle(pilot)
        said = toasts(pilot)
        assert any("f0.py" in t and "too deeply nested" in t for t in said), said

    _run(app, script)
    assert deep in Path(builder.path, "f0.py").read_bytes()
