"""The quiz counts, lists and visits only the hunks it asks.

The "risky hunks" exercise asks a file's high-risk hunk but not the low-risk
one beside it that shipped as the bot merged it; the file still holds both
(the session splices every hunk).  The counter, the file's row, the hunk
titles and n/p/N must agree with what is asked, on a repository built here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.pilot import Pilot

from workbench.analysis.answer_key import AnswerKey
from workbench.analysis.model import Level
from workbench.sample import RepoBuilder
from workbench.sample.bot import finish_sync, start_sync
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.loading import Report
from workbench.tui.presentation.hunk_view import NOT_ASKED
from workbench.tui.screens.quiz import QuizScreen
from workbench.tui.themes import builtin_theme_dir, load_themes
from workbench.tui.widgets.file_list import FileList
from workbench.tui.widgets.hunk_view import HunkView

MIXED = "pkg/mixed.py"
QUIET = "pkg/quiet.py"
Exercise = tuple[Path, str, str]


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


@pytest.fixture(autouse=True)
def high_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exercise asks the high-risk hunks alone here: which low-risk ones the real exercise draws is
    ``risky_subset``'s (tests/analysis/test_answer_key.py); this module tests that the app follows the asked."""
    import workbench.services.workspace as workspace

    def asked(key: AnswerKey) -> AnswerKey:
        return replace(key, hunks=tuple(q for q in key.hunks if q.level is not Level.LOW))

    monkeypatch.setattr(workspace, "risky_subset", asked)


def _module(sides: list[tuple[str, str]]) -> str:
    """Functions far apart (one conflict each): ``(returned value, comment word)`` per function."""
    out = []
    for i, (value, note) in enumerate(sides):
        body = "".join(f"    x{j} = {j}\n" for j in range(8))
        gap = "".join(f"y{i}_{k} = {k}\n" for k in range(6))
        out.append(f"def f{i}():\n    # {note} note\n{body}    return {value!r}\n\n\n{gap}\n\n")
    return "".join(out)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Exercise:
    """mixed.py: hunks 0 and 2 reword a comment on both sides (low risk, shipped main), hunks 1 and 3
    change code on both sides (high risk; the maintainers restored dev's in 1).  quiet.py: comments only."""
    b = RepoBuilder.init(tmp_path_factory.mktemp("asked") / "repo")
    base = [("base", "base")] * 4
    b.write(MIXED, _module(base)).write(QUIET, _module(base[:2])).commit("base")
    b.branch("dev").branch("upstream")
    b.checkout("dev")
    b.write(MIXED, _module([("base", "dev"), ("dev", "base"), ("base", "dev"), ("dev", "base")]))
    b.write(QUIET, _module([("base", "dev")] * 2)).commit("dev work")
    b.checkout("upstream")
    b.write(MIXED, _module([("base", "main"), ("main", "base"), ("base", "main"), ("main", "base")]))
    b.write(QUIET, _module([("base", "main")] * 2)).commit("main work")
    start_sync(b, "sync", "dev", "upstream")
    merge = finish_sync(b, "sync", "upstream")
    b.write(MIXED, _module([("base", "main"), ("dev", "base"), ("base", "main"), ("main", "base")]))
    result = b.commit("fix: restore dev's f1")
    return b.path, merge, result


def _app(exercise: Exercise) -> WorkbenchApp:
    path, merge, result = exercise

    def load(_report: Report) -> Workspace:
        return Workspace.open_quiz(path, merge, result, "ana", "risky", risky=True)

    return WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), screen=QuizScreen)


def _drive(app: WorkbenchApp, script: Callable[[Pilot[int], QuizScreen], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=(150, 42)) as pilot:
            deadline = time.monotonic() + 30
            while True:
                screen = pilot.app.screen
                if isinstance(screen, QuizScreen) and screen.ws is not None and not screen.opening:
                    break
                assert time.monotonic() < deadline, "the quiz did not load"
                await pilot.pause(0.02)
            await pilot.pause()
            await script(pilot, screen)

    asyncio.run(main())


def _summary(screen: QuizScreen) -> str:
    return str(screen.query_one("#file-summary").render())


def _header(view: HunkView, hunk: int) -> str:
    line = view.header_line_of(hunk)
    assert line is not None
    return "".join(s.text for s in view.render_row(line, 200, view.palette, False))


def test_the_exercise_asks_one_file_with_hunks_it_does_not_ask(mixed: Exercise) -> None:
    """The repository is what the quiz test needs: the file mixes asked and unasked hunks."""
    path, merge, result = mixed
    ws = Workspace.open_quiz(path, merge, result, "ana", "risky", risky=True)
    assert [f.path for f in ws.analysis.files] == [MIXED], "quiet.py has nothing risky to ask"
    assert [h.level for h in ws.entry(MIXED).hunks] == [Level.LOW, Level.HIGH, Level.LOW, Level.HIGH]
    assert ws.scope.asked(MIXED) == (1, 3)
    assert ws.session.undecided() == 4, "the session counts every hunk of the file"


def test_the_counter_the_rows_and_n_p_follow_the_asked_hunks(mixed: Exercise) -> None:
    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        assert screen.ws is not None and screen.ws.quiz is not None
        files = screen.query_one(FileList)
        assert "2 undecided" in _summary(screen), _summary(screen)
        assert files.options.row_text(0).rstrip().endswith("0/2"), files.options.row_text(0)
        assert screen.current in (1, 3), "the file opens on an asked hunk"

        view = screen.query_one(HunkView)
        assert NOT_ASKED in _header(view, 0) and NOT_ASKED in _header(view, 2)
        assert NOT_ASKED not in _header(view, 1) and NOT_ASKED not in _header(view, 3)

        await pilot.press("p", "p")
        assert screen.current == 1, "p stops at the first asked hunk, not hunk 0"
        await pilot.press("n")
        assert screen.current == 3, "n skips hunk 2"
        await pilot.press("n")
        assert screen.current == 3, "n past the last asked hunk stays"

        screen.set_current(2)  # the cursor wandered into a hunk that is not asked (j/k, a click)
        await pilot.press("n")
        assert screen.current == 3, "n from an unasked hunk goes to the next asked one"
        screen.set_current(2)
        await pilot.press("p")
        assert screen.current == 1, "p from an unasked hunk goes to the asked one before it"
        screen.set_current(2)
        await pilot.press("o")
        assert screen.current == 3, "o from an unasked hunk: the next undecided asked one after it"
        await pilot.press("p")

        await pilot.press("m")
        assert "1 undecided" in _summary(screen), _summary(screen)
        assert files.options.row_text(0).rstrip().endswith("1/2")
        await pilot.press("N")
        assert screen.current == 3, "N: the other undecided high-risk asked hunk"
        await pilot.press("d")
        assert "all decided" in _summary(screen), _summary(screen)
        assert files.options.row_text(0).rstrip().endswith("2/2")
        assert screen.ws.session.undecided() == 2, "hunks 0 and 2 are still undecided, and not asked"

    _drive(_app(mixed), script)


def test_a_quiz_never_offers_or_claims_a_write(mixed: Exercise) -> None:
    """A quiz writes nothing: no ``w Write`` in the footer, and a decided hunk is "decided", never "written"."""
    from workbench.tui.widgets.result_preview import ResultPreview

    async def script(pilot: Pilot[int], screen: QuizScreen) -> None:
        shown = {b.action for b in screen.BINDINGS if not isinstance(b, tuple) and b.show}
        assert "write" not in shown and "take_main" in shown
        await pilot.press("m")
        await pilot.pause()
        caption = screen.query_one(ResultPreview).caption
        assert "nothing is written here" in caption and "(written)" not in caption, caption

    _drive(_app(mixed), script)
