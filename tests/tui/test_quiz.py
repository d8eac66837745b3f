"""The interactive quiz (``workbench train REV``) driven with Pilot on the sample exercises.

Answer with the app's keys, reveal what shipped, score, resume across
restarts; the replay never shows what shipped before a reveal and never
writes to the repository.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from helpers.terminal import TMUX, WORKBENCH, Terminal
from textual.pilot import Pilot
from tui.pilot_tools import at

from workbench.git.repo import GitRepo
from workbench.services.exercises import build_sample_exercise, load_progress, progress_path
from workbench.services.quiz import Quiz
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.dialogs.text_page import RevealScreen, ScoreScreen, TextScreen
from workbench.tui.loading import Report
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.themes import builtin_theme_dir, load_themes

SIZE = (150, 42)
TRAINEE = "ana"
Exercise = tuple[Path, str, str]


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Progress and settings under tmp_path; no editor."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for var in ("EDITOR", "VISUAL", "GIT_EDITOR"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path / "data"


@pytest.fixture(scope="module")
def dev_ahead(tmp_path_factory: pytest.TempPathFactory) -> Exercise:
    return build_sample_exercise("squash-chain-dev-ahead", tmp_path_factory.mktemp("quiz") / "repo")


def _app(exercise: Exercise, title: str = "sample:squash-chain-dev-ahead") -> WorkbenchApp:
    path, merge, result = exercise

    def load(_report: Report) -> Workspace:
        return Workspace.open_quiz(path, merge, result, TRAINEE, title)

    return WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), screen=QuizScreen)


async def _ready(pilot: Pilot[int]) -> QuizScreen:
    deadline = time.monotonic() + 30
    while True:
        screen = pilot.app.screen
        if isinstance(screen, QuizScreen) and screen.ws is not None and screen.current is not None:
            await pilot.pause()
            return screen
        if time.monotonic() > deadline:
            raise TimeoutError("the quiz did not load")
        await pilot.pause(0.02)


def _drive(app: WorkbenchApp, script: Callable[[Pilot[int], QuizScreen], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await script(pilot, await _ready(pilot))

    asyncio.run(main())


def _ws(screen: QuizScreen) -> Workspace:
    assert screen.ws is not None and screen.ws.quiz is not None
    return screen.ws


def _quiz(screen: QuizScreen) -> Quiz:
    quiz = _ws(screen).quiz
    assert quiz is not None
    return quiz


def _page(pilot: Pilot[int]) -> str:
    """The words of the reveal or score page on screen."""
    page = pilot.app.screen
    assert isinstance(page, TextScreen), page
    return page.body.plain


async def _go_to(pilot: Pilot[int], screen: QuizScreen, index: int) -> None:
    while screen.current != index:
        await pilot.press("n" if (screen.current or 0) < index else "p")
        await pilot.pause()


def test_answer_reveal_and_score_a_costly_miss(dev_ahead: Exercise) -> None:
    _path, merge, result = dev_ahead

    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        quiz = _quiz(screen)
        assert len(quiz.key.hunks) == 2 and all(q.shipped == "dev" for q in quiz.key.hunks)
        await _go_to(pilot, screen, 0)
        await pilot.press("r")
        assert not isinstance(pilot.app.screen, RevealScreen), "nothing is revealed before an answer"
        await pilot.press("m")  # the bot's mistake
        await pilot.press("r")
        reveal = pilot.app.screen
        assert isinstance(reveal, RevealScreen)
        words = reveal.body.plain
        assert "You answered main ✗ not what shipped" in words
        assert "Shipped: dev's side" in words
        assert result[:10] in words and "fix: restore what the sync dropped" in words, "the fix commit is the evidence"
        assert "high risk" in words and "drops that work" in words, "the signals the workbench gave"
        await pilot.press("escape")
        # Changing one's mind after the reveal does not change the score: the first answer counts.
        await pilot.press("d")
        await _go_to(pilot, screen, 1)
        await pilot.press("d", "s")
        score = pilot.app.screen
        assert isinstance(score, ScoreScreen)
        words = score.body.plain
        assert "Agreement 50%: 1 of 2 answered hunks" in words
        assert "Costly misses: 1" in words and "Harmless misses: 0" in words
        assert "hunk 1: you chose main, shipped dev" in words
        await pilot.press("escape")

    _drive(_app(dev_ahead), script)
    saved = load_progress(TRAINEE).exercises[merge]
    assert saved["score"] == 0.5 and saved["costly_misses"] == 1
    assert set(saved["answers"].values()) == {"dev"} and list(saved["revealed"].values()) == ["main"]


def test_answers_resume_after_a_restart(dev_ahead: Exercise) -> None:
    _path, merge, _result = dev_ahead

    async def first(pilot: Pilot[int], screen: QuizScreen) -> None:
        await _go_to(pilot, screen, 1)
        await pilot.press("b")
        await pilot.press("q")

    _drive(_app(dev_ahead), first)
    assert progress_path(TRAINEE).is_file()

    async def again(pilot: Pilot[int], screen: QuizScreen) -> None:
        ws = _ws(screen)
        assert ws.resumed
        path = _quiz(screen).key.hunks[1].path
        decision = ws.session.decision(path, 1)
        assert decision is not None and decision.choice.value == "both"
        assert _quiz(screen).answers(ws.session) == {(path, 1): "both"}
        await pilot.press("u")  # undo works on the resumed answer, and is saved too
        assert ws.session.decision(path, 1) is None

    _drive(_app(dev_ahead), again)
    assert load_progress(TRAINEE).exercises[merge]["answers"] == {}


def test_the_replay_hides_what_shipped_and_writes_nothing(dev_ahead: Exercise) -> None:
    path, merge, result = dev_ahead
    before = _repo_state(path)

    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        ws = _ws(screen)
        assert ws.analysis.mode.value == "preview" and ws.analysis.dev, "the raw -X theirs replay"
        assert ws.analysis.merge is None and ws.analysis.result_commit is None
        shown = pilot.app.export_screenshot()
        assert result[:10] not in shown and "fix: restore" not in shown, "what shipped is not on screen"
        await pilot.press("d", "w")
        await pilot.pause()
        assert ws.session.decision(at(screen)[0], at(screen)[1]) is not None

    _drive(_app(dev_ahead), script)
    assert _repo_state(path) == before, "a quiz never writes to the repository"
    assert not (path / ".git" / "workbench").exists()


def test_a_splice_is_revealed_as_a_diff_of_the_shipped_text(tmp_path: Path) -> None:
    exercise = build_sample_exercise("dev-line-dropped", tmp_path / "repo")

    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        question = _quiz(screen).key.hunks[0]
        assert question.shipped == "other"
        await pilot.press("e")  # no editor: the in-app editor opens on both sides; accept it as is
        await pilot.pause()
        await pilot.press("escape")
        await pilot.press("d", "r")
        words = _page(pilot)
        assert "Shipped: a splice of their own" in words
        assert "main → shipped" in words and "dev → shipped" in words
        shipped_only = [line for line in question.shipped_text if line not in question.hunk.main_text]
        assert shipped_only and any(line.decode().strip() in words for line in shipped_only)

    _drive(_app(exercise, "sample:dev-line-dropped"), script)


def test_when_main_was_right_the_reveal_says_the_bot_choice_shipped(tmp_path: Path) -> None:
    exercise = build_sample_exercise("squash-chain-main-ahead", tmp_path / "repo")

    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        await pilot.press("m", "r")
        words = _page(pilot)
        assert "✓ same as shipped" in words and "shipped unchanged" in words
        await pilot.press("escape", "s")
        assert "Agreement 100%" in _page(pilot)

    _drive(_app(exercise, "sample:squash-chain-main-ahead"), script)


def _repo_state(path: Path) -> tuple[str, str]:
    repo = GitRepo.open(path)
    status = subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=path, capture_output=True,
                            text=True, check=True).stdout
    refs = subprocess.run(["git", "for-each-ref"], cwd=path, capture_output=True, text=True, check=True).stdout
    return status + repo.resolve("HEAD"), refs


@pytest.mark.skipif(TMUX is None or WORKBENCH is None, reason="needs tmux and the installed workbench command")
def test_workbench_train_in_a_terminal_saves_the_score(tmp_path: Path) -> None:
    """The real command: decide both hunks, score, quit; the progress file holds the score."""
    data = tmp_path / "data"
    command = (f'XDG_DATA_HOME="{data}" XDG_CONFIG_HOME="{tmp_path}/cfg" '
               f'"{WORKBENCH}" train sample:squash-chain-dev-ahead --trainee bo')
    with Terminal(tmp_path, command, size=(150, 42)) as term:
        term.wait_for("workbench training", "hunk 1/2", "Reveal", timeout=60)
        term.keys("d", "n", "d", "s", pause=0.4)
        term.wait_for("Agreement 100%", "Costly misses: 0", timeout=20)
        term.keys("Escape", "q")
        assert term.exit_status(timeout=20) == 0
    saved = json.loads((data / "workbench" / "training" / "bo.json").read_text())
    (exercise,) = saved["exercises"].values()
    assert exercise["score"] == 1.0 and exercise["costly_misses"] == 0
    assert exercise["title"] == "sample:squash-chain-dev-ahead"
