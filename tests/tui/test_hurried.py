"""A hurried user: keys faster than the screens change, and double answers in every dialog.

Pilot's ``press`` waits for the app to go idle after every key; a person
typing ``qcc`` does not.  ``burst`` hands the keys to the driver at once,
the way a terminal delivers them, so each key lands on whatever screen is
on top when it is processed.
"""

from __future__ import annotations

import asyncio
import io
import os
import random
import threading
import time
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input
from tui.pilot_tools import Script, loaded, main_screen, place, ready, screen_text, send_key, settle, toasts

from workbench.resolve.acks import matched, worktree_acks
from workbench.resolve.writer import WriteCheck, WriteOutcome
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.base_rows import BothDeleted
from workbench.tui.dialogs.confirm import ConfirmScreen
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.dialogs.prompt import PromptScreen
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]


async def burst(pilot: Pilot[int], keys: str | list[str], gap: float = 0.03) -> None:
    """Send ``keys`` (characters, or key names) ``gap`` seconds apart, never waiting for the app to go idle."""
    for key in keys:
        send_key(pilot, key, key if len(key) == 1 else None)
        await asyncio.sleep(gap)
    await asyncio.sleep(0.3)
    await pilot.pause()


def _run(app: WorkbenchApp, script: Script, size: tuple[int, int] = (160, 45)) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot)
            await script(pilot)

    asyncio.run(main())


def _closed_once(app: WorkbenchApp) -> None:
    """The quit dialog took one answer and closed, the app runs on the main screen. A second ``c`` that
    reached the screen after the dialog closed is the note key there (its prompt opens over the main
    screen): no dialog is left half-closed and nothing raised."""
    assert app.is_running
    assert not any(isinstance(s, ConfirmScreen) for s in app.screen_stack), app.screen_stack
    assert isinstance(app.screen_stack[1], MainScreen), app.screen_stack
    assert isinstance(app.screen, (MainScreen, PromptScreen)), app.screen_stack


def test_d_q_cc_cancels_once_and_keeps_the_main_screen(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_merge_commit)

    async def script(pilot: Pilot[int]) -> None:
        await burst(pilot, "dqcc")
        await settle(pilot)
        _closed_once(app)

    _run(app, script)


def test_qcc_during_a_merge_in_progress_cancels_once(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("d")
        await burst(pilot, "qcc")
        await settle(pilot)
        _closed_once(app)

    _run(app, script)


def test_ww_in_the_quit_dialog_writes_once_and_quits(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("d")
        await burst(pilot, "qww")
        for _ in range(100):
            if app.return_code is not None:
                break
            await asyncio.sleep(0.05)

    _run(app, script)
    assert app.return_code == 0


BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def conflicted_merge(b: RepoBuilder, path: str = "x.py") -> RepoBuilder:
    """A plain merge in progress stopped on one file with two conflicting hunks."""
    dev = BASE.replace("line_2 = 2\n", "DEV_A = 1\n").replace("line_9 = 9\n", "DEV_B = 1\n")
    main = BASE.replace("line_2 = 2\n", "MAIN_A = 1\n").replace("line_9 = 9\n", "MAIN_B = 1\n")
    b.write(path, BASE).commit("base")
    b.branch("dev").checkout("dev").write(path, dev).commit("dev (#2)")
    b.checkout("main").write(path, main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def loader(path: Path) -> Callable[[], Workspace]:
    return lambda: Workspace.open(SyncRequest(repo=path))


def test_quit_offers_write_only_when_something_can_be_written(builder: RepoBuilder, make_app: MakeApp) -> None:
    """One decided hunk of a conflicted file with two: the file cannot be written yet, so no "Write" answer."""
    app = make_app(loader(conflicted_merge(builder).path))

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("d")
        await pilot.press("q")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert [a.value for a in dialog.answers] == ["quit", "cancel"]
        assert "Nothing can be written yet" in str(dialog.question)
        assert "x.py is still conflicted" in str(dialog.question)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen), "w is not an answer here"
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)

    _run(app, script)


def test_a_read_only_repository_says_decisions_are_not_saved_and_keeps_working(
    builder: RepoBuilder, make_app: MakeApp
) -> None:
    """``.git/workbench`` cannot be created: the first decision used to crash the app (Journal.append)."""
    repo = conflicted_merge(builder).path
    Path(repo, ".git", "workbench").write_text("in the way\n")
    app = make_app(loader(repo))

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("d")
        await settle(pilot)
        assert any("Working read-only" in t and "cannot be saved" in t for t in toasts(pilot))
        await pilot.press("j")
        await pilot.press("m")
        await settle(pilot)
        screen = main_screen(pilot)
        assert screen.ws is not None and screen.ws.session.decided("x.py") >= 1
        await pilot.press("w")
        await settle(pilot)
        assert any("read-only" in t for t in toasts(pilot)[1:])
        assert "<<<<<<<" in Path(repo, "x.py").read_text()

    _run(app, script)


def test_keys_typed_while_loading_neither_filter_nor_decide(sample_merge_commit: SampleSync,
                                                            make_app: MakeApp) -> None:
    """``m j j d`` while the sync loads: a notice that deciding waits, no hidden filter, every file listed after."""
    gate = threading.Event()

    def slow() -> Workspace:
        gate.wait(20)
        return Workspace.open(SyncRequest(repo=sample_merge_commit.path))

    app = make_app(slow)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        field = screen.query_one("#file-filter", Input)
        assert not field.can_focus, "only / opens the filter"
        await burst(pilot, "mjjd")
        assert any("Still analysing the sync" in t for t in toasts(pilot))
        assert field.value == "" and not screen.query_one(FileList).filtered
        gate.set()
        await ready(pilot)
        ws = main_screen(pilot).ws
        assert ws is not None and not ws.session.can_undo, "nothing was decided"
        assert len(screen.query_one(FileList).shown_paths) == len(ws.files)

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def test_a_filter_that_hides_every_file_is_shown_and_explained(sample_merge_commit: SampleSync,
                                                               make_app: MakeApp) -> None:
    gate = threading.Event()

    def slow() -> Workspace:
        gate.wait(20)
        return Workspace.open(SyncRequest(repo=sample_merge_commit.path))

    app = make_app(slow)

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await pilot.pause()
            await pilot.press("slash", "z", "q", "z")
            gate.set()
            screen = main_screen(pilot)
            for _ in range(200):
                if screen.ws is not None:
                    break
                await asyncio.sleep(0.05)
            await settle(pilot)
            text = "\n".join(screen_text(app))
            assert "zqz" in text, "the filter is on screen"
            assert "the filter hides every file: esc clears it" in text
            assert "Computing" not in text
            await pilot.press("escape")
            await settle(pilot)
            assert screen.view is not None, "clearing the filter opens a file"

    asyncio.run(main())


def test_the_why_panel_follows_the_decision(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_merge_commit)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.ws is not None and screen.path is not None and screen.current is not None
        hunk = screen.ws.hunk(screen.path, screen.current)
        assert hunk.taken.value == "main", "the opening hunk took main"
        why = screen.query_one(WhyPanel)
        assert "the result holds main's side" in why.text.plain
        await pilot.press("d")
        await settle(pilot)
        assert "the result holds main's side" not in why.text.plain
        assert "Your decision: dev" in why.text.plain and "Not written yet" in why.text.plain

    _run(app, script)


def test_a_note_and_an_acknowledgement_from_the_app(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    """``c`` notes the hunk (journaled, in the Why panel); ``K`` acknowledges it in acks.toml, which the gate reads."""
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert screen.ws is not None and screen.path is not None and screen.current is not None
        path, index = screen.path, screen.current
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"caller fixed", "enter")
        await settle(pilot)
        assert screen.ws.session.note(path, index) == "caller fixed"
        assert "Note: caller fixed" in screen.query_one(WhyPanel).text.plain
        await pilot.press("K")
        await settle(pilot)
        await pilot.press("enter")  # an empty reason is refused
        await settle(pilot)
        assert isinstance(app.screen, PromptScreen)
        await pilot.press(*"keep main", "enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        acks = worktree_acks(Path(sample_in_progress.path))
        assert [(a.path, a.reason, a.decision) for a in acks] == [(path, "keep main", "main")]
        assert "Acknowledged for CI (keep main)" in screen.query_one(WhyPanel).text.plain
        assert (path, index) in matched(acks, screen.ws.analysis)

    _run(app, script)


def test_the_note_key_is_in_the_footer_help_and_palette(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_merge_commit)

    async def script(pilot: Pilot[int]) -> None:
        assert "c Note" in "\n".join(screen_text(app)[-2:])
        commands = [c.help for c in app.get_system_commands(app.screen)]
        assert any("Write a note on this hunk" in str(h) for h in commands)
        await pilot.press("question_mark")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(help_screen.table())
        assert "Write a note on this hunk" in console.export_text()

    _run(app, script)


def test_base_lines_both_sides_deleted_are_one_line_while_the_base_is_hidden(builder: RepoBuilder,
                                                                               make_app: MakeApp) -> None:
    """A one-line hunk whose 19-line base block both sides deleted: one line says so, not 19 blank rows."""
    block = "".join(f"old_{i} = {i}\n" for i in range(19))
    base = "head = 0\n" + "value = 1\n" + block + "".join(f"tail_{i} = {i}\n" for i in range(8))
    b = builder
    b.write("x.py", base).commit("base")
    b.branch("dev").checkout("dev").write("x.py", base.replace("value = 1\n" + block, "value = 2\n")).commit("dev (#2)")
    b.checkout("main").write("x.py", base.replace("value = 1\n" + block, "value = 3\n")).commit("main (#3)")
    b.checkout("dev").merge("main")
    app = make_app(loader(Path(b.path)))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        gaps = [e for e in view.entries if isinstance(e, BothDeleted)]
        assert [(g.end - g.start) for g in gaps] == [19]
        assert "19 base lines deleted on both sides" in "\n".join(screen_text(app))
        await pilot.press("a")
        await settle(pilot)
        assert view.show_base and not any(isinstance(e, BothDeleted) for e in view.entries)
        await pilot.press("a")
        await settle(pilot)
        assert any(isinstance(e, BothDeleted) for e in view.entries)

    _run(app, script)


BURST_KEYS = (
    "j", "k", "n", "p", "m", "d", "b", "u", "ctrl+r", "w", "a", "v", "z", "h", "enter", "escape", "slash",
    "question_mark", "e", "c", "K", "q", "x", "M", "D", "tab", "s", "o", "1",
)
"""Keys for the burst soak: moving, deciding, every dialog's opener and every dialog's answers."""
DOUBLES = ("cc", "ww", "qq", "ss", "oo", ["escape", "escape"], ["enter", "enter"], ["ctrl+s", "ctrl+s"],
           ["question_mark", "question_mark"])
"""Double presses: the same answer twice, faster than a dialog closes."""


@pytest.mark.slow
def test_random_fast_bursts_with_double_answers_never_raise(sample_in_progress: SampleSync,
                                                            make_app: MakeApp) -> None:
    """Bursts of 2-6 keys 0-40 ms apart, with double presses in every dialog; a clean quit starts the app again."""
    seconds = float(os.environ.get("WORKBENCH_SOAK_SECONDS", "20"))
    seed = int(os.environ.get("WORKBENCH_SOAK_SEED", "2026"))
    rng = random.Random(seed)
    pressed: list[str] = []
    deadline = time.monotonic() + seconds
    runs = 0

    async def one_run() -> None:
        app = make_app(sample_in_progress)
        async with app.run_test(size=rng.choice([(160, 45), (80, 24)])) as pilot:
            await ready(pilot)
            while time.monotonic() < deadline and app.return_code is None:
                keys: list[str] = []
                for _ in range(rng.randint(1, 3)):
                    pick = rng.choice(DOUBLES) if rng.random() < 0.3 else [rng.choice(BURST_KEYS)]
                    keys.extend(pick)
                pressed.extend(keys)
                await burst(pilot, keys, gap=rng.choice([0.0, 0.01, 0.04]))
                if app.return_code is None:
                    assert app.screen_stack[1:2] and isinstance(app.screen_stack[1], MainScreen), (
                        f"the main screen went away after {pressed[-12:]}")
            if app.return_code is None:
                await pilot.press("escape")

    try:
        while time.monotonic() < deadline:
            runs += 1
            asyncio.run(one_run())
    except BaseException:
        print(f"burst soak failed with WORKBENCH_SOAK_SEED={seed} after {len(pressed)} keys: {pressed[-40:]}")
        raise
    print(f"\nburst soak: {len(pressed)} keys in {seconds:.0f} s over {runs} app runs (seed {seed})")
    assert len(pressed) > 40


def test_keys_typed_while_the_quit_dialog_is_prepared_answer_it(sample_in_progress: SampleSync, make_app: MakeApp,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """On a big sync the quit dialog takes a moment (it checks what can be written): ``qcc`` typed at once waits
    for it, so the first ``c`` cancels it and the second is the note key on the main screen again (it used to be
    dropped, or to open a note under the coming dialog)."""
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        await pilot.press("d")
        slow_check = ws.check_all

        def check(paths: Sequence[str], overwrite_changed: bool = False) -> dict[str, WriteCheck]:
            time.sleep(0.4)
            return slow_check(paths, overwrite_changed)

        monkeypatch.setattr(ws, "check_all", check)
        asked: list[object] = []
        push_screen_wait = app.push_screen_wait

        async def recorded(screen: Screen[object]) -> object:
            answer = await push_screen_wait(screen)
            asked.append((type(screen).__name__, answer))
            return answer

        monkeypatch.setattr(app, "push_screen_wait", recorded)
        for key in "qcc":
            send_key(pilot, key, key)
        for _ in range(100):
            if isinstance(app.screen, PromptScreen):
                break
            await asyncio.sleep(0.02)
        assert asked[:1] == [("ConfirmScreen", "cancel")], asked
        assert [type(s).__name__ for s in app.screen_stack[1:]] == ["MainScreen", "PromptScreen"]
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen) and app.return_code is None

    _run(app, script)


def test_q_right_after_w_quits_once_the_write_is_done(sample_in_progress: SampleSync, make_app: MakeApp,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``D w q`` typed at once: the quit waits for the write under way, then has nothing to ask. It used to ask
    about the file being written, and its check (git add --dry-run) took the index lock from the write's git add."""
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        path = place(screen).path
        slow_write = ws.write_all

        def write(paths: Sequence[str], overwrite: Collection[str] = (),
                  progress: Callable[[int], None] | None = None) -> list[WriteOutcome]:
            time.sleep(0.4)  # a big file, or a slow disk: q arrives while the write runs
            return slow_write(paths, overwrite, progress)

        monkeypatch.setattr(ws, "write_all", write)
        await burst(pilot, "Dwq", gap=0.02)
        for _ in range(400):
            if app.return_code is not None:
                break
            await asyncio.sleep(0.05)
        assert app.return_code == 0, [type(s).__name__ for s in app.screen_stack]
        assert not ws.session.dirty_paths() and ws.session.was_written(path)
        assert not any("index lock" in t for t in toasts(pilot)), toasts(pilot)

    _run(app, script)


def test_a_toast_said_again_replaces_itself_and_few_stay(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_merge_commit)

    async def script(pilot: Pilot[int]) -> None:
        await burst(pilot, "wwww")
        await settle(pilot)
        said = toasts(pilot)
        assert len(said) == 1 and said[0].startswith("Nothing to write"), said
        for n in range(5):
            app.notify(f"toast {n}")
        await settle(pilot)
        assert toasts(pilot) == ["toast 2", "toast 3", "toast 4"]  # TOASTS_SHOWN, the newest

    _run(app, script)
