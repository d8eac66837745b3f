"""The sentences the app says: counts in the right number, deletions called deletions, each mode's write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui.pilot_tools import drive, settle, toasts

from workbench.analysis.model import Mode
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.exercises import build_sample_exercise
from workbench.services.mergetool_file import load_mergetool
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.presentation.notices import write_summary
from workbench.tui.presentation.sync_bar import sync_title
from workbench.tui.screens.main import MainScreen
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.history_panel import HistoryPanel
from workbench.tui.widgets.hunk_view import HunkView


@pytest.mark.parametrize(
    ("written", "deleted", "mode", "expected"),
    [
        (["a.py"], [], Mode.IN_PROGRESS, "1 file written and staged."),
        (["a.py", "b.py"], [], Mode.MERGE_COMMIT, "2 files written to the work tree (commit a fix-up)."),
        ([], ["gone.py"], Mode.IN_PROGRESS, "gone.py deleted and the deletion staged."),
        ([], ["gone.py"], Mode.MERGE_COMMIT, "gone.py deleted from the work tree (commit a fix-up)."),
        ([], ["x", "y"], Mode.IN_PROGRESS, "2 files deleted and the deletions staged."),
        (["a.py"], ["gone.py"], Mode.IN_PROGRESS, "1 file written and gone.py deleted, all staged."),
        (["a.py"], ["gone.py"], Mode.MERGE_COMMIT, "1 file written and gone.py deleted in the work tree (commit a fix-up)."),
        (["x.py"], [], Mode.MERGETOOL, "x.py written to the work tree: git stages it when the tool exits (q)."),
        ([], ["x.py"], Mode.MERGETOOL, "x.py deleted: git stages the deletion when the tool exits (q)."),
    ],
)
def test_write_summary_says_what_happened(written: list[str], deleted: list[str], mode: Mode, expected: str) -> None:
    assert write_summary(written, deleted, mode) == expected


def test_write_summary_shows_a_hostile_path_literally() -> None:
    assert "\\x1b[2J" in write_summary([], ["\x1b[2J.py"], Mode.IN_PROGRESS)


# -- in the app -----------------------------------------------------------------------------------

MakeApp = Callable[..., WorkbenchApp]
LAYER = "megatron/core/transformer/transformer_layer.py"


def _summary(pilot: Pilot[int]) -> str:
    return str(pilot.app.screen.query_one("#file-summary").render())


def test_one_commit_from_main_is_singular(sample_in_progress: SampleSync) -> None:
    ws = Workspace.open(SyncRequest(repo=sample_in_progress.path))
    assert "20 commits from main" in sync_title(ws.analysis, "repo", False).plain
    one = replace(ws.analysis, main_commits=1)
    assert "· 1 commit from main" in sync_title(one, "repo", False).plain
    assert "· 1 from main" in sync_title(one, "repo", False, compact=True).plain


def test_git_mergetool_says_one_file_and_that_git_stages_it(builder: RepoBuilder, make_app: MakeApp) -> None:
    base = "".join(f"v{i} = {i}\n" for i in range(10))
    builder.write("x.py", base).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", base.replace("v2 = 2", "v2 = 20")).commit("dev")
    builder.checkout("main").write("x.py", base.replace("v2 = 2", "v2 = 200")).commit("main")
    builder.checkout("dev").merge("main")
    out = builder.git("checkout-index", "--stage=all", "--temp", "--", "x.py").decode()
    stages = [str(builder.path / name) for name in out.split("\t")[0].split()]
    base, local, remote = stages
    repo, analysis = load_mergetool(base, local, remote, str(builder.path / "x.py"))
    app = make_app(lambda: Workspace.load(repo, analysis))

    async def script(pilot: Pilot[int]) -> None:
        assert "\n1 file · git mergetool" in _summary(pilot), _summary(pilot)
        await pilot.press("d", "w")
        await settle(pilot)
        assert "x.py written to the work tree: git stages it when the tool exits (q)." in toasts(pilot)
        assert not any("fix-up" in t for t in toasts(pilot))

    drive(app, script)


@pytest.mark.parametrize(("how", "heading"), [("merge", "dev · 1 commit since the merge base"),
                                             ("cherry-pick", "dev · history not looked up (see Why)")])
def test_git_mergetool_history_says_whether_it_was_looked_up(builder: RepoBuilder, make_app: MakeApp,
                                                            how: str, heading: str) -> None:
    base = "".join(f"v{i} = {i}\n" for i in range(10))
    builder.write("x.py", base).commit("base")
    builder.branch("dev").checkout("dev").write("x.py", base.replace("v2 = 2", "v2 = 20")).commit("dev")
    builder.checkout("main").write("x.py", base.replace("v2 = 2", "v2 = 200")).commit("main")
    builder.checkout("dev")
    assert builder.run(how, "main").returncode != 0, "x.py conflicts"
    out = builder.git("checkout-index", "--stage=all", "--temp", "--", "x.py").decode()
    stages = [str(builder.path / name) for name in out.split("\t")[0].split()]
    base, local, remote = stages
    repo, analysis = load_mergetool(base, local, remote, str(builder.path / "x.py"))
    app = make_app(lambda: Workspace.load(repo, analysis))

    async def script(pilot: Pilot[int]) -> None:
        history = pilot.app.screen.query_one(HistoryPanel)
        assert heading in history.render_line(0).text

    drive(app, script)


def test_a_training_quiz_says_once_that_nothing_is_written(make_app: MakeApp, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path, merge, result = build_sample_exercise("squash-chain-dev-ahead", tmp_path / "repo")
    app = make_app(lambda: Workspace.open_quiz(path, merge, result, "ana", "sample"), screen=QuizScreen)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("D")
        await settle(pilot)
        summary = _summary(pilot)
        assert "all decided · saved" in summary and "to write" not in summary, summary
        assert all("●" not in pilot.app.screen.query_one(FileList).options.row_text(i)
                   for i in range(len(pilot.app.screen.query_one(FileList).shown_paths)))
        await pilot.press("w")
        await settle(pilot)
        (said,) = [t for t in toasts(pilot) if t.startswith("Nothing written")]
        assert said == "Nothing written: a training quiz is a replay and writes nothing to the work tree. " \
                       "Your answers are saved.", said

    drive(app, script)


def test_help_lists_the_keys_that_are_not_actions(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("question_mark")
        help_screen = pilot.app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = [keys for keys, _action in help_screen.key_rows()]
        assert {"tab shift+tab", "enter", "ctrl+p"} <= set(keys), keys

    drive(app, script)


def test_arrows_shift_the_hunk_view_from_the_file_list(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        view = screen.query_one(HunkView)
        screen.query_one(FileList).options.focus()
        await pilot.press("right")
        assert view.x_offset == 8 and screen.path == LAYER, "the list stays; the view shifts"
        await pilot.press("left")
        assert view.x_offset == 0

    drive(app, script)
