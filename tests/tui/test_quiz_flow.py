"""Training for a long sync in the app: the outline while the quiz loads, the "risky hunks" exercise, and reveals
that say when what shipped is itself doubtful (the grading itself is tested in tests/analysis/test_answer_key.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from helpers.answer_keys import small_key

from workbench.analysis.answer_key import grade, risky_subset
from workbench.analysis.model import Level
from workbench.services.exercises import build_sample_exercise, load_progress
from workbench.services.quiz import Quiz
from workbench.services.sync import LoadProgress
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.loading import Report
from workbench.tui.palette import build_palette
from workbench.tui.presentation.text_page import reveal_text, score_text
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.themes import builtin_theme_dir, load_themes
from workbench.tui.widgets.file_list import FileList


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_the_reveal_and_the_score_say_why(tmp_path: Path) -> None:
    key = small_key()
    quiz = Quiz(key, load_progress("ana"), {}, "an exercise")
    palette = build_palette({}, dark=True)
    words = reveal_text(quiz, key.hunks[0], "dev", palette).plain
    assert "what shipped is doubtful (not scored)" in words and "still fails the API audit" in words
    assert "`f` is called but not defined" in words and "✗" not in words
    score = score_text(quiz, grade(key, {("a.py", 0): "dev", ("a.py", 1): "dev"}), palette).plain
    assert "Not scored: 1" in score and "1 of 1 answered hunks" in score


@pytest.fixture(scope="module")
def exercise(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    return build_sample_exercise("squash-chain-dev-ahead", tmp_path_factory.mktemp("flow") / "repo")


def test_the_quiz_shows_the_outline_while_it_loads(exercise: tuple[Path, str, str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path, merge, result = exercise
    heard: list[LoadProgress] = []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cold"))  # a cached analysis arrives whole, with no outline
    Workspace.open_quiz(path, merge, result, "ana", "t", progress=heard.append)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cold-again"))
    assert heard and heard[0].phase == "outline" and heard[0].analysis is not None

    outline_seen: list[int] = []

    def load(report: Report) -> Workspace:
        def slow(progress: LoadProgress) -> None:
            report(progress)
            if progress.phase == "outline":
                import time
                time.sleep(1.0)  # the analysis is slow on a real sync: the list must already be there

        return Workspace.open_quiz(path, merge, result, "ana", "t", progress=slow)

    app = WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), screen=QuizScreen)

    async def main() -> None:
        async with app.run_test(size=(150, 42)) as pilot:
            for _ in range(200):
                screen = pilot.app.screen
                if isinstance(screen, QuizScreen) and screen.outline_at is not None:
                    outline_seen.append(len(screen.query_one(FileList).shown_paths))
                    assert screen.ws is None, "the outline is up before the quiz is loaded"
                    break
                await pilot.pause(0.02)

    asyncio.run(main())
    assert outline_seen and outline_seen[0] > 0


def test_open_quiz_asks_the_risky_subset(exercise: tuple[Path, str, str]) -> None:
    path, merge, result = exercise
    full = Workspace.open_quiz(path, merge, result, "ana", "t")
    risky = Workspace.open_quiz(path, merge, result, "bo", "t", risky=True)
    assert full.quiz is not None and risky.quiz is not None
    expected = risky_subset(full.quiz.key).hunks
    assert all(q in expected for q in full.quiz.key.hunks if q.level is not Level.LOW)
    assert [(q.path, q.index) for q in risky.quiz.key.hunks] == [(q.path, q.index) for q in expected]
