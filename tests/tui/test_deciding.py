"""Deciding with one key, undo/redo, writing and staging, resuming: Pilot on real sample repositories."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import ContentSwitcher, TextArea
from tui.pilot_tools import at, drive, loaded, main_screen, settle, toasts

from workbench.analysis.xdiff import split_lines
from workbench.resolve.events import FileChoice
from workbench.resolve.journal import Journal
from workbench.resolve.splice import Choice, Decision
from workbench.sample import SampleSync
from workbench.services.cursor import step
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.confirm import ConfirmScreen
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.result_preview import ResultPreview

MakeApp = Callable[..., WorkbenchApp]
LAYER = "megatron/core/transformer/transformer_layer.py"
"""Three hunks, all -X theirs took main."""
BINARY = "docs/source/images/moe/token_dispatch.png"


def _unmerged(repo: Path) -> set[str]:
    out = subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"], cwd=repo, capture_output=True, check=True)
    return set(out.stdout.decode().split())


def test_each_decision_key_sets_the_current_hunk(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        expected = {"m": Choice.MAIN, "d": Choice.DEV, "b": Choice.BOTH, "B": Choice.BOTH_MAIN_FIRST}
        for key, choice in expected.items():
            await pilot.press(key)
            assert session.decision(LAYER, at(screen)[1]) == Decision(choice), key
        hunk = loaded(screen).hunk(LAYER, at(screen)[1])
        preview = pilot.app.screen.query_one(ResultPreview)
        assert [line.text for line in preview.lines] == [
            t.decode().rstrip("\n") for t in (*hunk.main_text, *hunk.dev_text)
        ], "the result preview shows main's lines, then dev's"
        journal = Journal.for_sync(Path(sample_in_progress.path, ".git"), loaded(screen).analysis.dev, loaded(screen).analysis.main)
        assert len(journal.load()) == 4, "every decision is journaled as it is made"

    drive(app, script)


def test_whole_file_keys_decide_every_hunk(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        await pilot.press("D")
        assert session.decided(LAYER) == 3
        assert {session.decision(LAYER, i) for i in range(3)} == {Decision(Choice.DEV)}
        await pilot.press("M")
        assert {session.decision(LAYER, i) for i in range(3)} == {Decision(Choice.MAIN)}

    drive(app, script)


def test_undo_and_redo_walk_decisions_back_and_forth(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        index = at(screen)[1]
        await pilot.press("d", "m")
        await pilot.press("u")
        assert session.decision(LAYER, index) == Decision(Choice.DEV)
        await pilot.press("u")
        assert session.decision(LAYER, index) is None
        await pilot.press("ctrl+r")
        assert session.decision(LAYER, index) == Decision(Choice.DEV)
        await pilot.press("ctrl+r")
        assert session.decision(LAYER, index) == Decision(Choice.MAIN)

    drive(app, script)


def test_binary_files_get_a_whole_file_choice(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=BINARY)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        assert screen.view is not None and screen.view.layout is None
        assert screen.query_one("#views", ContentSwitcher).current == "choice"
        text = str(screen.query_one("#choice-text").render())
        assert "bytes" in text and "keep dev's file" in text
        for key, choice in (("d", FileChoice.KEEP_DEV), ("m", FileChoice.TAKE_MAIN), ("x", FileChoice.DELETE)):
            await pilot.press(key)
            assert session.file_choice(BINARY) is choice
        await pilot.press("D")
        assert session.file_choice(BINARY) is FileChoice.KEEP_DEV

    drive(app, script)


def test_write_stages_decided_files_during_a_merge(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    repo = Path(sample_in_progress.path)
    modify_delete = sorted(_unmerged(repo))
    app = make_app(sample_in_progress, start_file=modify_delete[0])

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        await pilot.press("x")
        first = step(loaded(screen), None, +1, (LAYER,))
        assert first is not None
        screen.go(first)
        await settle(pilot)
        await pilot.press("D")
        await pilot.press("w")
        await settle(pilot)
        assert session.dirty_paths() == []
        assert Path(repo, LAYER).read_bytes() == session.preview(LAYER)

    drive(app, script)
    assert not Path(repo, modify_delete[0]).exists()
    assert _unmerged(repo) == set(modify_delete[1:]), "written files are staged: their conflict entries are gone"
    assert _staged_blob(repo, LAYER) == _git(repo, "hash-object", LAYER), "the index holds what was written"


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True).stdout.decode().strip()


def _staged_blob(repo: Path, path: str) -> str:
    return _git(repo, "ls-files", "-s", "--", path).split()[1]


def test_on_a_merge_commit_write_touches_only_the_work_tree(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    repo = Path(sample_merge_commit.path)
    app = make_app(sample_merge_commit, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("D", "w")
        await settle(pilot)

    drive(app, script)
    status = subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, check=True).stdout.decode()
    assert status == f" M {LAYER}\n", "modified in the work tree, nothing staged"


def test_a_syntax_error_blocks_the_write_with_a_message(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    repo = Path(sample_in_progress.path)
    before = Path(repo, LAYER).read_bytes()
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        loaded(screen).decide(LAYER, at(screen)[1], Decision(Choice.CUSTOM, b"def broken(:\n"))
        screen.refresh_state({LAYER})
        await pilot.press("w")
        await settle(pilot)
        messages = toasts(pilot)
        assert any("would not parse" in m and LAYER in m for m in messages), messages
        assert LAYER in loaded(screen).session.dirty_paths()

    drive(app, script)
    assert Path(repo, LAYER).read_bytes() == before


def test_a_file_changed_on_disk_is_only_overwritten_when_the_user_says_so(
    sample_in_progress: SampleSync, make_app: MakeApp
) -> None:
    repo = Path(sample_in_progress.path)
    app = make_app(sample_in_progress, start_file=LAYER)
    theirs = b"# someone else's edit\n"

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("D")
        Path(repo, LAYER).write_bytes(Path(repo, LAYER).read_bytes() + theirs)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("s")
        await settle(pilot)
        assert Path(repo, LAYER).read_bytes().endswith(theirs), "skipped: their edit is intact"
        assert LAYER in loaded(screen).session.dirty_paths()
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("o")
        await settle(pilot)
        assert Path(repo, LAYER).read_bytes() == loaded(screen).session.preview(LAYER)

    drive(app, script)


def test_reopening_resumes_the_decisions(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    first = make_app(sample_in_progress, start_file=LAYER)
    decided: dict[int, Decision | None] = {}

    async def decide(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("p", "p")  # from the riskiest hunk (the last) to the first
        await pilot.press("d", "n", "b", "n", "m", "u")
        decided.update({i: loaded(screen).session.decision(LAYER, i) for i in range(3)})

    drive(first, decide)
    assert decided == {0: Decision(Choice.DEV), 1: Decision(Choice.BOTH), 2: None}
    second = make_app(sample_in_progress, start_file=LAYER)

    async def check(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert loaded(screen).resumed
        assert {i: loaded(screen).session.decision(LAYER, i) for i in range(3)} == decided
        await pilot.press("ctrl+r")
        assert loaded(screen).session.decision(LAYER, 2) == Decision(Choice.MAIN), "the redo stack survives too"

    drive(second, check)


def test_quit_asks_when_decisions_are_unwritten(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("q")
        await settle(pilot)
        assert not pilot.app.is_running, "nothing decided: q quits at once"

    async def unwritten(pilot: Pilot[int]) -> None:
        await pilot.press("d", "q")
        await settle(pilot)
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(pilot.app.screen, MainScreen)
        await pilot.press("q")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)

    drive(app, script)
    assert app.return_value == 0
    second = make_app(sample_in_progress, start_file=LAYER)
    drive(second, unwritten)
    assert second.return_value == 0
    assert Path(sample_in_progress.path, LAYER).read_bytes().count(b"\n") > 0
    assert LAYER not in _unmerged(Path(sample_in_progress.path))


def test_edit_in_the_app_records_a_custom_result(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        index = at(screen)[1]
        await pilot.press("e")
        await settle(pilot)
        area = pilot.app.screen.query_one("#edit-area", TextArea)
        assert "<<<<<<< dev" in area.text and "||||||| base" in area.text
        hunk = loaded(screen).hunk(LAYER, index)
        area.text = b"".join(hunk.dev_text).decode() + "# reviewed\n"
        await pilot.press("ctrl+s")
        await settle(pilot)
        decision = loaded(screen).session.decision(LAYER, index)
        assert decision is not None and decision.choice is Choice.CUSTOM
        assert decision.text is not None and decision.text.endswith(b"# reviewed\n")
        assert split_lines(decision.text)[:-1] == list(hunk.dev_text)

    drive(app, script)


def test_escape_in_the_editor_changes_nothing(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert loaded(screen).session.decision(LAYER, at(screen)[1]) is None
        assert not loaded(screen).session.can_undo

    drive(app, script)
