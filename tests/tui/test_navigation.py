"""Moving around and looking: file list, hunks, risky hunks, toggles, history, help, themes, keys."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from rich.text import Text
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input
from textual.widgets._toast import Toast
from tui.pilot_tools import at, drive, loaded, main_screen, notifications, place, settle, toasts

from workbench.analysis.display.folds import Fold
from workbench.analysis.model import Level, Signal, SignalKind
from workbench.errors import WorkbenchError
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.cursor import is_open_risk, positions
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace, file_level
from workbench.tui import syntax
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config, load_config
from workbench.tui.dialogs.commit_diff import CommitDiffScreen
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.glyphs import RISK_LETTER
from workbench.tui.screens.main import MainScreen
from workbench.tui.syntax import PythonSpans
from workbench.tui.widgets.diff_view import DiffView
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView

MakeApp = Callable[..., WorkbenchApp]
LAYER = "megatron/core/transformer/transformer_layer.py"


def test_the_file_list_holds_every_file_with_counts(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        assert set(files.shown_paths) == {f.path for f in loaded(screen).analysis.files}
        summary = str(screen.query_one("#file-summary").render())
        assert f"{loaded(screen).session.undecided()} undecided" in summary
        prompt = files.options.row_text(files.shown_paths.index(LAYER))
        level = file_level(loaded(screen).entry(LAYER))
        assert prompt.startswith(f"{RISK_LETTER[level]}T ") and prompt.rstrip().endswith("0/3")
        assert list(files.shown_paths) == [f.path for f in loaded(screen).files], "review order"
        levels = [file_level(f).rank for f in loaded(screen).files]
        assert levels == sorted(levels, reverse=True), "riskiest first"

    drive(app, script)


def test_all_decided_shows_a_clear_done_state(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        for entry in ws.files:
            if entry.hunks:
                ws.decide_file(entry.path, Choice.DEV)
            else:
                ws.choose_file(entry.path, FileChoice.KEEP_DEV)
        screen.refresh_state()
        await pilot.pause()
        summary = screen.query_one("#file-summary")
        assert "all decided" in str(summary.render()) and summary.has_class("done")

    drive(app, script)


def test_j_and_k_move_in_the_file_list_and_in_the_hunk_view(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        first = screen.path
        await pilot.press("j")
        await settle(pilot)
        assert screen.path == files.shown_paths[1] != first
        await pilot.press("k", "down", "up")
        await settle(pilot)
        assert screen.path == first
        view = screen.query_one(HunkView)
        assert screen.current is not None and view.cursor == view.opening_line(screen.current), "the file is open"
        view.focus()
        await pilot.pause()
        assert view.has_focus
        start = view.cursor
        await pilot.press("j", "j", "k")
        assert view.cursor == start + 1

    drive(app, script)


def test_moving_on_before_a_file_is_laid_out_does_not_pull_back_to_it(
        sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        await pilot.press("v")  # the diffs are shown: the hidden hunk view waits for a size before scrolling
        await settle(pilot)
        await pilot.press("escape")
        assert files.has_focus_within
        await pilot.press("j", "j")
        await settle(pilot)
        assert screen.path == files.shown_paths[2] == files.highlighted_path, "j j: the third file, not back"

    drive(app, script)


def test_n_and_p_walk_hunks_then_files(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert (screen.path, screen.current) == (LAYER, 2), "the file opens on its riskiest hunk"
        await pilot.press("p", "p")
        assert screen.current == 0
        await pilot.press("n")
        assert screen.current == 1
        await pilot.press("n", "n")
        await settle(pilot)
        files = screen.query_one(FileList).shown_paths
        assert screen.path == files[files.index(LAYER) + 1], "past the last hunk: on to the next file"
        await pilot.press("p")
        await settle(pilot)
        assert (screen.path, screen.current) == (LAYER, 2)
        assert screen.query_one(HunkView).has_focus

    drive(app, script)


def test_shift_n_and_p_jump_between_undecided_high_risk_hunks(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, worklist=False)  # hunk by hunk: by item in test_worklist_app

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        risky = [p for p in positions(ws) if is_open_risk(ws, p)]
        assert len(risky) >= 3, "the sample has several high-risk hunks"
        assert place(screen) == risky[0], "the app opens on the riskiest hunk"
        await pilot.press("N")
        await settle(pilot)
        assert place(screen) == risky[1]
        await pilot.press("P", "P")
        await settle(pilot)
        assert place(screen) == risky[-1], "P wraps around"
        for _ in risky:
            await pilot.press("d", "N")
            await settle(pilot)
        assert ws.session.undecided_high() == 0
        assert any("No other undecided high-risk hunk" in t for t in toasts(pilot))

    drive(app, script)


def test_the_why_panel_shows_signals_and_their_commits_literally(sample_in_progress: SampleSync,
                                                                 make_app: MakeApp) -> None:
    def load() -> Workspace:
        repo, analysis = open_sync(SyncRequest(repo=sample_in_progress.path))
        entry = analysis.file(LAYER)
        assert entry is not None
        signal = Signal(SignalKind.MAIN_AHEAD, "Dev refined this after main squashed [bold]#141[/bold] \x1b[2J",
                        entry.hunks[0].dev_commits, 90)
        hunks = (replace(entry.hunks[0], level=Level.HIGH, risk=99, signals=(signal,)), *entry.hunks[1:])
        files = tuple(replace(f, hunks=hunks) if f.path == LAYER else f for f in analysis.files)
        return Workspace.load(repo, replace(analysis, files=files))

    app = make_app(load, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        assert (screen.path, screen.current) == (LAYER, 0), "the file opens on its riskiest hunk"
        why = screen.query_one("#why")
        text = "\n".join(why.render_line(y).text for y in range(why.size.height))
        assert "H high risk" in text
        assert "[bold]#141[/bold] \\x1b[2J" in text, "markup and escapes shown as typed"
        subject = loaded(screen).entry(LAYER).history.dev[0].subject
        assert subject[:20] in text, "the signal names its commit"

    drive(app, script)


def test_toggles_show_the_base_the_diffs_and_all_context(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        await pilot.press("p", "p")  # the first hunk: its import line is long enough to scroll
        await settle(pilot)
        await pilot.press("a")
        assert view.show_base and "base" in view.render_line(0).text
        await pilot.press("a")
        assert not view.show_base
        folded = view.row_count
        assert any(isinstance(e, Fold) for e in view.entries)
        await pilot.press("z")
        assert view.row_count > folded and not any(isinstance(e, Fold) for e in view.entries)
        await pilot.press("z")
        assert view.row_count == folded
        view.focus()
        row = view.cursor + 1
        before = view.render_line(row + 1).text
        await pilot.press("right")
        shifted = view.render_line(row + 1).text
        assert "‹" in shifted and shifted != before, "long lines scroll sideways"
        await pilot.press("left")
        assert view.render_line(row + 1).text == before
        await pilot.press("v")
        await settle(pilot)
        assert screen.query_one("#views").current == "diffs"
        dev_diff = screen.query_one("#dev-diff", DiffView)
        assert dev_diff.rows, "the result differs from dev where -X theirs took main"
        await pilot.press("M")
        await settle(pilot)
        assert dev_diff.rows and not screen.query_one("#main-diff", DiffView).rows, "all main: identical to main"
        await pilot.press("v")
        assert screen.query_one("#views").current == "hunks"

    drive(app, script)


def test_showing_the_diffs_captures_only_the_highlighting_on_screen(
    sample_in_progress: SampleSync, make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(syntax, "CHUNK", 2)  # the sample's files are short: two lines a chunk makes many chunks
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("v")
        await settle(pilot)
        spans = screen.query_one("#dev-diff", DiffView)._new_syntax  # noqa: SLF001 - what the view was handed
        assert isinstance(spans, PythonSpans)
        chunks = len(spans._lines) // syntax.CHUNK + 1  # noqa: SLF001
        assert 0 < len(spans._filled) < chunks, "what the view shows is captured, not the whole file"  # noqa: SLF001

    drive(app, script)


def test_enter_on_a_fold_shows_its_lines(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        view = screen.query_one(HunkView)
        view.focus()
        fold = next(i for i, e in enumerate(view.entries) if isinstance(e, Fold))
        folded = view.entries[fold]
        assert isinstance(folded, Fold)
        hidden = folded.lines
        before = view.row_count
        view.move_cursor(fold)
        await pilot.press("enter")
        await settle(pilot)
        assert view.row_count == before - 1 + hidden

    drive(app, script)


def test_slash_filters_the_file_list(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        await pilot.press("slash", *"optim")
        await settle(pilot)
        assert files.shown_paths and all("optim" in p for p in files.shown_paths)
        before = screen.current
        await pilot.press("n")
        assert files.filtering and screen.current == before, "while filtering, keys type into the filter"
        assert files.query_one("#file-filter", Input).value == "optimn"
        await pilot.press("backspace", "escape")
        assert not files.filtering and files.options.has_focus

    drive(app, script)


def test_history_shows_the_hunks_commits_and_a_commits_diff(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        history = screen.query_one(HistoryPanel)
        hunk = loaded(screen).hunk(LAYER, at(screen)[1])
        assert history.marked == set(hunk.dev_commits) | set(hunk.main_commits)
        lines = [history.render_line(y).text for y in range(history.size.height)]
        assert any("● " in line and "#" in line for line in lines), "marked commits with their PR numbers"
        await pilot.press("h")
        assert history.has_focus
        await pilot.press("enter")
        await settle(pilot)
        diff_screen = pilot.app.screen
        assert isinstance(diff_screen, CommitDiffScreen)
        assert diff_screen.query_one(DiffView).rows, "the commit's change to the file"
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, MainScreen)

    drive(app, script)


def test_help_lists_every_key_in_force(sample_in_progress: SampleSync, make_app: MakeApp, private_config: Path) -> None:
    app = make_app(sample_in_progress, start_file=LAYER, config=Config(keys={"take_main": "o"}, path=private_config))

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("question_mark")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = {action: keys for keys, action in help_screen.key_rows()}
        assert keys["take_main"] == "o" and keys["take_dev"] == "d" and keys["redo"] == "ctrl+r"
        await pilot.press("escape")
        await pilot.press("o")
        assert loaded(screen).session.decision(LAYER, at(screen)[1]) is not None, "o was rebound to take main"

    drive(app, script)


def test_the_command_palette_offers_every_action(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        commands = {c.title: c for c in pilot.app.get_system_commands(screen)}
        assert {"Main", "Dev", "Both", "Undo", "Write", "Next high item", "Decide item", "Items/Files", "Theme"} <= set(commands)
        assert "[m]" in Text.from_markup(commands["Main"].help).plain
        assert "[/]" in Text.from_markup(commands["Filter"].help).plain, "the filter key is shown, not read as a tag"
        await commands["Dev"].callback()
        assert loaded(screen).session.decision(LAYER, at(screen)[1]) is not None

    drive(app, script)


def test_the_command_palette_opens_and_runs_an_action(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        assert isinstance(pilot.app.screen, CommandPalette)
        await pilot.press(*"filter")
        await pilot.pause(0.3)
        await pilot.press("escape")
        await pilot.pause()
        assert main_screen(pilot) is screen
        await pilot.press("ctrl+p")
        await pilot.pause(0.3)
        await pilot.press(*"Dev")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert main_screen(pilot) is screen
        assert loaded(screen).session.decision(LAYER, at(screen)[1]) is not None

    drive(app, script)


def test_t_cycles_themes_and_remembers_the_choice(sample_in_progress: SampleSync, make_app: MakeApp,
                                                  private_config: Path) -> None:
    private_config.parent.mkdir(parents=True)
    private_config.write_text('# mine\n[keys]\ntake_main = "m"\n')
    app = make_app(sample_in_progress, config=load_config(private_config))
    seen: list[str] = []

    async def script(pilot: Pilot[int]) -> None:
        seen.append(pilot.app.theme)
        for _ in range(3):
            await pilot.press("t")
            seen.append(pilot.app.theme)

    drive(app, script)
    assert seen == ["workbench-dark", "workbench-light", "workbench-high-contrast", "workbench-dark"]
    assert load_config(private_config).theme == "workbench-dark"
    assert private_config.read_text().endswith('# mine\n[keys]\ntake_main = "m"\n')


def test_repository_text_is_shown_literally(tmp_path: Path, make_app: MakeApp) -> None:
    b = RepoBuilder.init(tmp_path / "repo")
    path = "docs/[bold]x[/bold].py"
    b.write(path, "a = 1\nb = 2\nc = 3\n").commit("base")
    b.branch("dev")
    b.write(path, "a = 1\nb = 'main'\nc = 3\n").commit("[red]Main[/red] change \x1b[31m (#7)")
    b.checkout("dev")
    b.write(path, "a = 1\nb = 'dev'\nc = 3\n").commit("[link=http://x]dev[/link] (#8)")

    def load() -> Workspace:
        return Workspace.open(SyncRequest(repo=b.path, dev="dev", main="main"))

    app = make_app(load)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        assert path in files.options.row_text(0)
        history = screen.query_one(HistoryPanel)
        lines = "\n".join(history.render_line(y).text for y in range(6))
        assert "[red]Main[/red] change \\x1b[31m (#7)" in lines
        assert "[link=http://x]dev[/link] (#8)" in lines
        assert "\x1b" not in lines
        await pilot.press("D")
        await settle(pilot)
        painted = " ".join(Toast(n).render().plain for n in notifications(pilot))
        assert path in painted, "a toast naming the path shows it as typed"
        await pilot.press("w")
        await settle(pilot)
        assert any("preview" in t for t in toasts(pilot)), "a preview has nothing to write into"

    drive(app, script)


def test_a_sync_that_cannot_be_opened_ends_the_app_with_its_reason(make_app: MakeApp) -> None:
    def load() -> Workspace:
        raise WorkbenchError("unknown revision: nope")

    app = make_app(load)

    async def main() -> None:
        async with app.run_test() as pilot:
            await pilot.pause(0.2)

    asyncio.run(main())
    assert app.load_error == "unknown revision: nope" and app.return_value == 2


@pytest.mark.parametrize("theme", ["workbench-light", "workbench-high-contrast"])
def test_every_theme_renders(sample_in_progress: SampleSync, make_app: MakeApp, theme: str) -> None:
    app = make_app(sample_in_progress, start_file=LAYER, theme=theme)

    async def script(pilot: Pilot[int]) -> None:
        assert pilot.app.theme == theme
        await settle(pilot)  # the file opens on its riskiest hunk once laid out
        view = main_screen(pilot).query_one(HunkView)
        assert any("hunk 3/3" in view.render_line(y).text for y in range(view.size.height))

    drive(app, script)
