"""Training for a long sync: the outline while the quiz loads, the "risky hunks" exercise, and reveals that
say when what shipped is itself doubtful (it fails the API audit, or the fix went into another file)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.analysis.answer_key import AnswerKey, Caveat, QuizHunk, _caveat, grade, grade_json, risky_subset
from workbench.analysis.model import ApiMismatch, Hunk, Level, LineRange, Taken
from workbench.services.exercises import build_sample_exercise, load_progress
from workbench.services.quiz import Quiz
from workbench.services.sync import LoadProgress
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.palette import build_palette
from workbench.tui.presentation.text_page import reveal_text, score_text
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.themes import builtin_theme_dir, load_themes
from workbench.tui.widgets.file_list import FileList


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def _hunk(index: int, level: Level, result: tuple[bytes, ...], start: int = 10) -> Hunk:
    span = LineRange(start, start + len(result) - 1)
    return Hunk(index, span, span, span, span, Taken.MAIN, (), (b"dev\n",), result, result, level=level)


def _mismatch(path: str, symbol: str, hunk: int | None, line: int = 10) -> ApiMismatch:
    return ApiMismatch(path, line, symbol, "undefined-name", f"`{symbol}` is called but not defined", "main", hunk=hunk)


def test_a_mismatch_still_shipped_or_fixed_elsewhere_is_a_caveat() -> None:
    shipped = _hunk(0, Level.HIGH, (b"configure_nvtx_profiling()\n",))
    still = _caveat("a.py", 0, shipped, [_mismatch("a.py", "configure_nvtx_profiling", 0)],
                    [_mismatch("a.py", "configure_nvtx_profiling", 0)])
    assert still[0] is Caveat.SHIPPED_FAILS_AUDIT and "configure_nvtx_profiling" in still[1]
    moved = _hunk(0, Level.HIGH, (b"x.group_commit()\n",))
    elsewhere = _caveat("b.py", 0, moved, [_mismatch("b.py", "group_commit", 0)], [])
    assert elsewhere[0] is Caveat.FIXED_ELSEWHERE
    fixed_here = _hunk(0, Level.HIGH, (b"x.commit()\n",))
    assert _caveat("b.py", 0, fixed_here, [_mismatch("b.py", "group_commit", 0)], []) == (None, ""), \
        "the shipped text no longer calls it: fixed in this hunk"
    assert _caveat("c.py", 0, shipped, [], []) == (None, "")
    import_dropped = replace(_hunk(0, Level.HIGH, (b"import os\n",)),
                             dev_text=(b"from m import os, configure_nvtx_profiling\n",))
    called_below = _mismatch("d.py", "configure_nvtx_profiling", None, line=90)
    assert _caveat("d.py", 0, import_dropped, [], [called_below])[0] is Caveat.SHIPPED_FAILS_AUDIT, \
        "the call far below still fails because this hunk's import was not restored"


def _key() -> AnswerKey:
    hunks = (
        QuizHunk("a.py", 0, _hunk(0, Level.HIGH, (b"f()\n",)), "main", (), (b"f()\n",), Caveat.SHIPPED_FAILS_AUDIT,
                 "`f` is called but not defined"),
        QuizHunk("a.py", 1, _hunk(1, Level.LOW, (b"g\n",), 20), "dev", ()),
        QuizHunk("a.py", 2, _hunk(2, Level.LOW, (b"h\n",), 30), "main", ()),
        QuizHunk("a.py", 3, _hunk(3, Level.MEDIUM, (b"i\n",), 40), "main", ()),
    )
    return AnswerKey("m" * 40, "r" * 40, "d" * 40, "n" * 40, hunks)


def test_a_doubtful_hunk_is_not_scored_as_a_miss() -> None:
    result = grade(_key(), {("a.py", 0): "dev", ("a.py", 1): "dev", ("a.py", 2): "dev"})
    assert [m.quiz.index for m in result.debatable] == [0]
    assert [m.quiz.index for m in result.harmless] == [2] and not result.costly
    assert result.score == 0.5, "one of the two scored answers agrees"
    data = grade_json(result)
    assert data["debatable_misses"][0]["caveat"] == "shipped-fails-audit" and len(data["harmless_misses"]) == 1


def test_the_reveal_and_the_score_say_why(tmp_path: Path) -> None:
    key = _key()
    quiz = Quiz(key, load_progress("ana"), {}, "an exercise")
    palette = build_palette({}, dark=True)
    words = reveal_text(quiz, key.hunks[0], "dev", palette).plain
    assert "what shipped is doubtful (not scored)" in words and "still fails the API audit" in words
    assert "`f` is called but not defined" in words and "✗" not in words
    score = score_text(quiz, grade(key, {("a.py", 0): "dev", ("a.py", 1): "dev"}), palette).plain
    assert "Not scored: 1" in score and "1 of 1 answered hunks" in score


def test_the_risky_exercise_keeps_high_medium_and_changed_hunks() -> None:
    kept = risky_subset(_key())
    assert [q.index for q in kept.hunks] == [0, 1, 3], "high, changed by the maintainers (low), medium"


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

    def load(report):  # noqa: ANN001, ANN202
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
    expected = [q for q in full.quiz.key.hunks if q.level is not Level.LOW or q.changed_after_sync]
    assert [(q.path, q.index) for q in risky.quiz.key.hunks] == [(q.path, q.index) for q in expected]
