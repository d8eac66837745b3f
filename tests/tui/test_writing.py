"""What `x` may delete and what `w` says it did: Pilot on real sample repositories."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import TextArea
from tui.pilot_tools import at, drive, loaded, main_screen, settle, toasts

from workbench.resolve.events import FileChoice
from workbench.sample import SampleSync
from workbench.services.workspace import Position
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_view import HunkView
from workbench.tui.widgets.result_preview import ResultPreview

MakeApp = Callable[..., WorkbenchApp]
OPTIMIZER = "megatron/core/optimizer/distrib_optimizer.py"
"""Two high-risk hunks, -X theirs took main."""
RMS_NORM = "megatron/legacy/model/rms_norm.py"
"""Modify/delete: main deleted it, dev changed it (a whole-file choice)."""


def _status(repo: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, check=True).stdout.decode()


def test_x_on_a_text_file_with_hunks_is_refused(sample_merge_commit: SampleSync, make_app: MakeApp) -> None:
    repo = Path(sample_merge_commit.path)
    before = Path(repo, OPTIMIZER).read_bytes()
    app = make_app(sample_merge_commit, start_file=OPTIMIZER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        undecided, high = session.undecided(), session.undecided_high()
        await pilot.press("x")
        await settle(pilot)
        assert session.file_choice(OPTIMIZER) is None and not session.can_undo
        assert (session.undecided(), session.undecided_high()) == (undecided, high), "nothing counts as decided"
        assert any("x deletes" in t and "binary" in t for t in toasts(pilot)), toasts(pilot)
        await screen.run_action("delete_file")  # what the command palette runs
        assert session.file_choice(OPTIMIZER) is None
        await pilot.press("w")
        await settle(pilot)
        assert any("Nothing to write" in t for t in toasts(pilot)), toasts(pilot)

    drive(app, script)
    assert Path(repo, OPTIMIZER).read_bytes() == before
    assert _status(repo) == ""


def test_a_written_deletion_says_deleted(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    repo = Path(sample_in_progress.path)
    app = make_app(sample_in_progress, start_file=RMS_NORM)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        await pilot.press("x")
        assert loaded(screen).session.file_choice(RMS_NORM) is FileChoice.DELETE
        await pilot.press("w")
        await settle(pilot)
        said = toasts(pilot)
        assert any(f"{RMS_NORM} deleted and the deletion staged" in t for t in said), said
        assert not any("written" in t for t in said), said

    drive(app, script)
    assert not Path(repo, RMS_NORM).exists()


TRAINING = "megatron/training/training.py"
LAYER = "megatron/core/transformer/transformer_layer.py"


async def _opened(pilot: Pilot[int], path: str) -> MainScreen:
    screen = main_screen(pilot)
    for _ in range(500):
        await settle(pilot)
        if screen.view is not None and screen.view.path == path and screen.current is not None:
            return screen
    raise AssertionError(f"{path} did not open")


def test_undo_back_to_nothing_leaves_nothing_to_write(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        layer_hunk = at(screen)[1]
        await pilot.press("d")
        await pilot.press("escape", "slash", *"training.py", "enter")  # (in the hunk view / searches its text)
        screen = await _opened(pilot, TRAINING)
        row = files.shown_paths.index(TRAINING)
        await pilot.press("D")
        assert "●" in files.options.row_text(row)
        await pilot.press("u")
        await settle(pilot)
        assert loaded(screen).session.decided(TRAINING) == 0
        assert "●" not in files.options.row_text(row), files.options.row_text(row)
        # The second undo acts in another file: the toast names it and the view goes there.
        await pilot.press("u")
        screen = await _opened(pilot, LAYER)
        assert screen.current == layer_hunk
        assert LAYER in files.shown_paths, "the filter that hid the file is cleared"
        assert any(f"hunk {layer_hunk + 1} of {LAYER}" in t and t.startswith("Undid") for t in toasts(pilot))
        await pilot.press("w")
        await settle(pilot)
        assert toasts(pilot)[-1].startswith("Nothing to write"), toasts(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert screen.path == LAYER and screen.current == layer_hunk
        assert any(t.startswith("Redid") and LAYER in t for t in toasts(pilot))

    drive(app, script)


def test_quit_does_not_ask_about_files_with_nothing_to_write(sample_in_progress: SampleSync,
                                                             make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("D", "u", "q")
        await settle(pilot)
        assert not pilot.app.is_running, "nothing to write: q quits without asking"

    drive(app, script)
    assert app.return_value == 0


def _header_text(screen: MainScreen, hunk: int) -> str:
    view = screen.query_one(HunkView)
    header = view.header_line_of(hunk)
    assert header is not None
    segments = view.render_row(header, 200, view.palette, False)
    return "".join(segment.text for segment in segments)


def test_an_edit_that_keeps_markers_is_flagged_and_named_when_writing_refuses(
    sample_in_progress: SampleSync, make_app: MakeApp
) -> None:
    repo = Path(sample_in_progress.path)
    before = Path(repo, LAYER).read_bytes()
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        files = screen.query_one(FileList)
        index = at(screen)[1]
        await pilot.press("D", "e")
        await settle(pilot)
        area = pilot.app.screen.query_one("#edit-area", TextArea)
        area.text = "<<<<<<< dev\nx = 1\n=======\nx = 2\n>>>>>>> main\n"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "still has markers" in _header_text(screen, index), _header_text(screen, index)
        assert "✓" not in _header_text(screen, index)
        row = files.options.row_text(files.shown_paths.index(LAYER))
        assert "!3/3" in row, row
        assert "with markers" in str(screen.query_one("#file-summary").render())
        await pilot.press("w")
        await settle(pilot)
        assert any(f"{LAYER} still holds conflict markers in your edit of hunk {index + 1}" in t
                   for t in toasts(pilot)), toasts(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert "still has markers" not in _header_text(screen, index)
        assert "!" not in files.options.row_text(files.shown_paths.index(LAYER))

    drive(app, script)
    assert Path(repo, LAYER).read_bytes() == before


BINARY = "docs/source/images/moe/token_dispatch.png"
"""-X theirs took main's image (a whole-file choice, not a conflict in the index)."""


def _result_pane(screen: MainScreen) -> tuple[str, list[str]]:
    preview = screen.query_one(ResultPreview)
    return preview.caption, [line.text for line in preview.lines]


def test_the_result_pane_shows_a_whole_file_choice(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=BINARY)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        caption, lines = _result_pane(screen)
        assert "undecided" in caption and lines[0].startswith("work tree now: main's file"), (caption, lines)
        await pilot.press("d")
        caption, lines = _result_pane(screen)
        assert caption == "Result: keep dev's file (decided, not yet written)", caption
        assert lines[0].startswith("work tree now: main's file") and lines[1].startswith("w will put dev's file")
        await pilot.press("m")
        caption, lines = _result_pane(screen)
        assert "take main's file (the work tree already holds it" in caption and len(lines) == 1, (caption, lines)
        screen.go(Position(RMS_NORM, None))
        await _opened_choice(pilot, RMS_NORM)
        await pilot.press("d")
        caption, lines = _result_pane(screen)
        assert caption.endswith("(decided, not yet written)") and "and stage it" in lines[1], (caption, lines)
        assert lines[0].startswith("work tree now: dev's file"), "git left dev's changed file in the work tree"
        await pilot.press("w")
        await settle(pilot)
        caption, lines = _result_pane(screen)
        assert caption == "Result: keep dev's file (written)" and lines == [lines[0]], (caption, lines)
        await pilot.press("x")
        caption, lines = _result_pane(screen)
        assert "delete the file" in caption and lines[1] == "w will delete the file and stage it", lines

    drive(app, script)


async def _opened_choice(pilot: Pilot[int], path: str) -> None:
    screen = main_screen(pilot)
    for _ in range(500):
        await settle(pilot)
        if screen.view is not None and screen.view.path == path:
            return
    raise AssertionError(f"{path} did not open")


def test_undo_after_w_says_the_written_file_stays(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    """``D w u``: the decision is undone in the app only; git keeps what was written and staged, and the toast
    says so (a user took the undecided row for an unstaged file)."""
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("D", "w")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        said = toasts(pilot)[-1]
        assert said.startswith("Undid") and "the index hold what w wrote" in said and LAYER in said, toasts(pilot)
        await pilot.press("ctrl+r", "u")
        await settle(pilot)
        assert "what w wrote" in toasts(pilot)[-1]

    drive(app, script)
    unmerged = subprocess.run(["git", "ls-files", "-u", "--", LAYER], cwd=sample_in_progress.path, capture_output=True,
                              check=True).stdout
    assert unmerged == b"", "git still has the written file resolved and staged"
