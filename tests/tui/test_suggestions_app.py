"""Suggested resolutions in the app: y accepts, C previews candidates in the Result pane, esc leaves, Y accepts
many in one undo, w writes exactly the accepted text; the Why pane, headers and a training reveal say it."""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui.pilot_tools import at, drive, loaded, main_screen, screen_text, settle, toasts

from workbench.analysis.model import Take
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder, SampleSync
from workbench.services.exercises import build_sample_exercise
from workbench.services.workspace import Position, Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.dialogs.accept import AcceptScreen
from workbench.tui.dialogs.text_page import RevealScreen
from workbench.tui.loading import Report
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.themes import builtin_theme_dir, load_themes
from workbench.tui.widgets.result_preview import ResultPreview
from workbench.tui.widgets.why_panel import WhyPanel

MakeApp = Callable[..., WorkbenchApp]
SQUASHED = "megatron/core/optimizer/distrib_optimizer.py"
"""Two hunks, each suggested dev (a squash chain)."""
LAYER = "megatron/core/transformer/transformer_layer.py"
"""Three hunks, none suggested."""
SPECS = "megatron/core/models/gpt/gpt_layer_specs.py"
"""One hunk, whose three texts merge cleanly word by word (a computed candidate)."""


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=True).stdout


def test_y_accepts_the_suggestion_and_the_why_pane_says_it(sample_in_progress: SampleSync, make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=SQUASHED)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws = loaded(screen)
        hunk = ws.hunk(SQUASHED, at(screen)[1])
        assert hunk.suggestion is not None and hunk.suggestion.candidate.take is Take.DEV
        why = screen.query_one(WhyPanel).text.plain
        assert "Suggested: dev — main's side is these lines as dev's #101 left them" in why, why
        assert any("suggested: dev" in line for line in screen_text(pilot.app)), "the hunk header says it"
        await pilot.press("y")
        assert ws.session.decision(SQUASHED, hunk.index) == Decision(Choice.DEV)
        assert "✓ your decision" in screen.query_one(WhyPanel).text.plain
        assert any("Accepted the suggestion for hunk" in t for t in toasts(pilot))
        await pilot.press("u")
        assert ws.session.decision(SQUASHED, hunk.index) is None

    drive(app, script)


def test_the_why_pane_reads_the_squash_evidence_before_the_hunks_state(sample_branches: SampleSync,
                                                                        make_app: MakeApp) -> None:
    """The strongest signal first: in a plain ``git merge`` stopped on conflicts, the squash that explains the
    risk comes before "still conflicted", which the hunk's header already says (a short pane cut it off)."""
    assert RepoBuilder.open(sample_branches.path).merge("main") == 1
    app = make_app(sample_branches, start_file=SQUASHED)

    async def script(pilot: Pilot[int]) -> None:
        why = main_screen(pilot).query_one(WhyPanel).text.plain
        squash, state = why.find("(a squash of"), why.find("the hunk is still conflicted")
        assert 0 <= squash < state, why

    drive(app, script)


def test_no_suggestion_is_said_with_the_menu_size_and_y_decides_nothing(sample_in_progress: SampleSync,
                                                                          make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        why = screen.query_one(WhyPanel).text.plain
        assert "No suggestion: the evidence does not separate the candidates (4 candidates" in why, why
        assert any("no suggestion (4)" in line for line in screen_text(pilot.app))
        await pilot.press("y")
        assert loaded(screen).session.decision(LAYER, at(screen)[1]) is None
        assert any("No suggestion for hunk" in t for t in toasts(pilot))

    drive(app, script)


def test_c_cycles_candidates_in_the_result_pane_and_esc_leaves_undecided(sample_in_progress: SampleSync,
                                                                          make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=LAYER)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws, index = loaded(screen), at(screen)[1]
        hunk = ws.hunk(LAYER, index)
        preview = screen.query_one(ResultPreview)
        before = preview.caption
        for number, candidate in enumerate(hunk.candidates):
            await pilot.press("C")
            assert preview.caption.startswith(f"candidate {number + 1}/{len(hunk.candidates)} of hunk {index + 1}")
            assert [line.text for line in preview.lines] == [t.decode().rstrip("\n") for t in candidate.lines]
            assert "wrote" in preview.detail, "what it keeps and drops of each side"
        await pilot.press("C")
        assert preview.caption.startswith(f"candidate 1/{len(hunk.candidates)}"), "after the last, the first again"
        await pilot.press("escape")
        assert preview.caption == before and preview.detail == ""
        assert ws.session.decision(LAYER, index) is None, "esc decides nothing"
        assert screen.previewing is None

    drive(app, script)


def test_a_candidate_accepted_then_w_writes_exactly_its_text_and_stages_it(sample_in_progress: SampleSync,
                                                                           make_app: MakeApp) -> None:
    repo = Path(sample_in_progress.path)
    conflicted = Path(repo, SPECS).read_bytes()
    app = make_app(sample_in_progress, start_file=SPECS)
    taken: list[tuple[bytes, int, int]] = []

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        ws, index = loaded(screen), at(screen)[1]
        hunk = ws.hunk(SPECS, index)
        number = next(k for k, c in enumerate(hunk.candidates) if c.take is Take.WORDS)
        await pilot.press(*["C"] * (number + 1))
        assert "the word merge" in screen.query_one(ResultPreview).caption
        await pilot.press("y")
        candidate = hunk.candidates[number]
        assert ws.session.decision(SPECS, index) == Decision(Choice.CUSTOM, candidate.text)
        assert "the word merge" in screen.query_one(ResultPreview).caption, "the decision is named for the candidate"
        assert hunk.result is not None
        taken.append((candidate.text, hunk.result.start, hunk.result.end))
        await pilot.press("w")
        await settle(pilot)
        assert ws.session.dirty_paths() == []

    drive(app, script)
    # The bot's -X theirs text of the hunk, replaced by the candidate: nothing else in the file changes.
    text, start, end = taken[0]
    lines = conflicted.splitlines(keepends=True)
    assert text not in conflicted
    expected = b"".join(lines[: start - 1]) + text + b"".join(lines[end:])
    assert Path(repo, SPECS).read_bytes() == expected
    assert SPECS not in _git(repo, "diff", "--name-only", "--diff-filter=U").decode().split()
    assert _git(repo, "show", f":{SPECS}") == expected, "staged as written"


def test_bulk_accept_of_one_rung_then_everything_one_undo_each(sample_in_progress: SampleSync,
                                                               make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file=SQUASHED)

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        session = loaded(screen).session
        await pilot.press("Y")
        await settle(pilot)
        dialog = pilot.app.screen
        assert isinstance(dialog, AcceptScreen) and dialog.accepting.path == SQUASHED, "starts on this file"
        await pilot.press("s", "1")  # the whole sync, the most frequent rung: the squash chains
        assert dialog.accepting.rung == "squash-chain"
        await pilot.press("enter")
        await settle(pilot)
        assert [session.decision(SQUASHED, i) for i in (0, 1)] == [Decision(Choice.DEV)] * 2
        assert session.decision("megatron/core/parallel_state.py", 0) is None, "other rungs wait"
        await pilot.press("Y", "s", "0", "enter")
        await settle(pilot)
        assert session.decision("megatron/core/parallel_state.py", 0) == Decision(Choice.MAIN)
        assert session.file_choice("uv.lock") is FileChoice.KEEP_DEV
        await pilot.press("u")
        await settle(pilot)
        assert session.decision("megatron/core/parallel_state.py", 0) is None and session.file_choice("uv.lock") is None
        assert session.decision(SQUASHED, 0) == Decision(Choice.DEV), "one u undid the second accept only"

    drive(app, script)


def test_a_file_suggestion_is_said_and_accepted_with_its_regenerate_command(sample_in_progress: SampleSync,
                                                                              make_app: MakeApp) -> None:
    app = make_app(sample_in_progress, start_file="uv.lock")

    async def script(pilot: Pilot[int]) -> None:
        screen = main_screen(pilot)
        why = screen.query_one(WhyPanel).text.plain
        assert "Suggested for the whole file: keep dev's file" in why and "uv lock" in why, why
        await pilot.press("y")
        assert loaded(screen).session.file_choice("uv.lock") is FileChoice.KEEP_DEV
        assert any("then regenerate it: uv lock" in t for t in toasts(pilot))

    drive(app, script)


@pytest.fixture
def private_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.mark.usefixtures("private_data")
def test_training_hides_the_suggestion_until_the_reveal_says_it(tmp_path: Path) -> None:
    path, merge, result = build_sample_exercise("squash-chain-dev-ahead", tmp_path / "quiz")

    def load(_report: Report) -> Workspace:
        return Workspace.open_quiz(path, merge, result, "ana", "sample")

    app = WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), screen=QuizScreen)

    async def main() -> None:
        async with app.run_test(size=(150, 42)) as pilot:
            deadline = time.monotonic() + 30
            while not (isinstance(pilot.app.screen, QuizScreen) and pilot.app.screen.current is not None):
                assert time.monotonic() < deadline
                await pilot.pause(0.02)
            screen = pilot.app.screen
            await pilot.pause()
            ws = loaded(screen)
            assert ws.quiz is not None
            question = ws.quiz.key.hunks[0]
            screen.go(Position(question.path, question.index))
            await settle(pilot)
            assert question.hunk.suggestion is not None
            assert "Suggested" not in screen.query_one(WhyPanel).text.plain, "no hint before the answer"
            await pilot.press("y")
            assert ws.session.decision(question.path, question.index) is None, "y does not answer for the trainee"
            await pilot.press("m", "r")
            reveal = pilot.app.screen
            assert isinstance(reveal, RevealScreen)
            words = reveal.body.plain
            assert "The workbench would have suggested dev" in words and "✓ what shipped" in words, words

    asyncio.run(main())
