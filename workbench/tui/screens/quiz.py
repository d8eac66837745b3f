"""Training mode: the main screen on a quiz's workspace, with two more keys: reveal (r) and score (s).

Everything else a quiz does differently is data the main screen is given: the
workspace carries the ``Quiz`` and its ``HunkScope`` (only the asked hunks are
visited and counted), and writes nothing.  This class only declares the keys
(Textual binds keys per screen class): ``w`` still says that nothing is
written, but the footer does not offer it.  The trainee decides with the
app's own keys; what shipped stays hidden until asked.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

from workbench.tui.actions import training
from workbench.tui.keymap import Scope, bindings
from workbench.tui.screens.main import MainScreen


class QuizScreen(MainScreen):
    """Decide a replayed sync hunk by hunk, then compare with what shipped."""

    BINDINGS = [*(replace(b, show=False) if isinstance(b, Binding) and b.action == "write" else b
                  for b in MainScreen.BINDINGS), *bindings(Scope.QUIZ)]

    def action_reveal(self) -> None:
        training.reveal(self, self.panes.palette)

    def action_score(self) -> None:
        training.score(self, self.panes.palette)
