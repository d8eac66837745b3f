"""A training quiz on the main screen: its welcome, reveal (``r``) and score (``s``).

The quiz is the same screen on a workspace that carries a ``Quiz`` (its
``HunkScope`` limits moves and counts to the asked hunks); these are the few
things only a quiz says.  The screen never shows what shipped until asked.
"""

from __future__ import annotations

from workbench.services.quiz import Quiz
from workbench.services.workspace import Workspace
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.text_page import RevealScreen, ScoreScreen
from workbench.tui.palette import Palette
from workbench.tui.presentation.sync_bar import quiz_title
from workbench.tui.presentation.text_page import reveal_text, score_text
from workbench.tui.widgets.sync_bar import SyncBar


def welcome(host: Host, sync_bar: SyncBar, ws: Workspace, quiz: Quiz) -> None:
    """The quiz is loaded: its own top line, and how many hunks are left to decide."""
    sync_bar.set_title(quiz_title(quiz))
    answered = len(quiz.answers(ws.session))
    host.notify(f"{quiz.title}: {len(quiz.key.hunks)} hunks to decide ({answered} answered). "
                "m/d/b/e decide, r reveals what shipped, s scores.", timeout=8)


def after_change(host: Host, ws: Workspace, quiz: Quiz) -> None:
    if quiz.all_answered(ws.session):
        host.notify("Every hunk is answered: press s for your score.")


def reveal(host: Host, palette: Palette) -> None:
    ws, cursor = host.ws, host.cursor
    if ws is None or ws.quiz is None or cursor is None or cursor.path is None or cursor.current is None:
        return
    quiz, path, index = ws.quiz, cursor.path, cursor.current
    question = quiz.question(path, index)
    if question is None:
        host.notify("This hunk is not part of the quiz (the shipped tree has no counterpart).")
        return
    answer = quiz.reveal(path, index, ws.session)
    if answer is None:
        host.notify("Decide this hunk first (m, d, b or e); then r shows what shipped.")
        return
    body = reveal_text(quiz, question, answer, palette)
    host.app.push_screen(RevealScreen(f"What shipped · hunk {index + 1}", body))


def score(host: Host, palette: Palette) -> None:
    ws = host.ws
    if ws is None or ws.quiz is None:
        return
    result = ws.quiz.finish(ws.session)
    host.app.push_screen(ScoreScreen("Score", score_text(ws.quiz, result, palette)))


