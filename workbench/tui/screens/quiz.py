"""Training mode: the main screen on a replay, plus reveal (r) and score (s).

The trainee decides with the app's own keys; the screen never shows what
shipped until asked: ``r`` reveals the current hunk (once it is answered),
``s`` shows the score and reveals every answer.  Answers are saved as they
are made (``QuizWorkspace``'s journal is the trainee's progress file).
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.analysis.model import FileAnalysis
from workbench.textsafe import visible
from workbench.tui.glyphs import short_sha
from workbench.tui.keymap import Scope, bindings
from workbench.tui.quiz import QuizWorkspace
from workbench.tui.quiz_present import quiz_file_row, quiz_hunk_titles, quiz_totals, reveal_text, score_text
from workbench.tui.screens.main import MainScreen
from workbench.tui.screens.once import OnceModal
from workbench.tui.widgets.file_list import FileRow, Totals
from workbench.tui.widgets.hunk_view import HunkTitle
from workbench.tui.widgets.sync_bar import SyncBar


class TextScreen(OnceModal[None]):
    """A scrollable page of text over the app (esc, q or enter closes it)."""

    BINDINGS = [Binding("escape,q,enter", "close", "Close"), Binding("j,down", "down", show=False),
                Binding("k,up", "up", show=False)]

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 100; height: 85%; border: thick $primary; background: $surface; padding: 1 2;
        border-title-style: bold;
    }
    """

    def __init__(self, title: str, body: Text) -> None:
        super().__init__()
        self._title = title
        self.body = body
        """What the page says (tests read it)."""

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll()
        scroll.border_title = self._title
        with scroll:
            yield Static(self.body)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_down(self) -> None:
        self.query_one(VerticalScroll).scroll_down(animate=False)

    def action_up(self) -> None:
        self.query_one(VerticalScroll).scroll_up(animate=False)


class RevealScreen(TextScreen):
    """What shipped for one hunk."""


class ScoreScreen(TextScreen):
    """The score and every miss."""


class QuizScreen(MainScreen):
    """Decide a replayed sync hunk by hunk, then compare with what shipped."""

    BINDINGS = [*(replace(b, show=False) if isinstance(b, Binding) and b.action == "write" else b
                  for b in MainScreen.BINDINGS), *bindings(Scope.QUIZ)]
    """A quiz writes nothing: ``w`` says so, but the footer does not offer it."""

    def after_load(self) -> None:
        ws = self.quiz_ws
        if ws is not None:
            quiz = ws.quiz
            title = Text(no_wrap=True, overflow="ellipsis")
            title.append(" workbench training ", style="bold reverse")
            title.append(f" {visible(quiz.title)} · {visible(quiz.progress.trainee)} · replay of "
                         f"{short_sha(quiz.key.merge)}: decide each hunk as if you were reviewing the bot's merge")
            self.query_one(SyncBar).set_title(title)
            answered = len(quiz.answers(ws.session))
            self.notify(f"{quiz.title}: {len(quiz.key.hunks)} hunks to decide ({answered} answered). "
                        "m/d/b/e decide, r reveals what shipped, s scores.", timeout=8)

    @property
    def quiz_ws(self) -> QuizWorkspace | None:
        return self.ws if isinstance(self.ws, QuizWorkspace) else None

    def file_row(self, entry: FileAnalysis) -> FileRow:
        ws = self.quiz_ws
        return quiz_file_row(ws, entry) if ws is not None else super().file_row(entry)

    def hunk_titles(self, path: str) -> dict[int, HunkTitle]:
        ws = self.quiz_ws
        return quiz_hunk_titles(ws, path) if ws is not None else super().hunk_titles(path)

    def totals(self) -> Totals:
        ws = self.quiz_ws
        return quiz_totals(ws) if ws is not None else super().totals()

    def refresh_state(self, paths: set[str] | None = None) -> None:
        super().refresh_state(paths)
        ws = self.quiz_ws
        if ws is not None and paths is not None and ws.quiz.all_answered(ws.session):
            self.notify("Every hunk is answered: press s for your score.")

    def action_reveal(self) -> None:
        ws = self.quiz_ws
        if ws is None or self.path is None or self.current is None:
            return
        question = ws.quiz.question(self.path, self.current)
        if question is None:
            self.notify("This hunk is not part of the quiz (the shipped tree has no counterpart).")
            return
        answer = ws.quiz.reveal(self.path, self.current, ws.session)
        if answer is None:
            self.notify("Decide this hunk first (m, d, b or e); then r shows what shipped.")
            return
        body = reveal_text(ws.quiz, question, answer, self.palette)
        self.app.push_screen(RevealScreen(f"What shipped · hunk {self.current + 1}", body))

    def action_score(self) -> None:
        ws = self.quiz_ws
        if ws is None:
            return
        result = ws.quiz.finish(ws.session)
        self.app.push_screen(ScoreScreen("Score", score_text(ws.quiz, result, self.palette)))
