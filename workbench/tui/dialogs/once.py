"""Modal screens that act on their first answer only.

Keys arrive faster than screens change: a second ``c`` (or ``esc``, ``q``,
``ctrl+s``) can reach a dialog that is already dismissing itself.  Textual's
``dismiss`` pops whatever screen is on top, so that second answer would pop
the screen below (a blank app, or ``ScreenStackError`` with nothing left to
pop).  Every workbench modal derives from ``OnceModal``: the first answer
dismisses it, later ones are dropped.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from textual.app import ScreenStackError
from textual.await_complete import AwaitComplete
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


async def _nothing() -> None:
    """What awaiting an ignored dismissal waits for."""


class OnceModal(ModalScreen[ResultType], Generic[ResultType]):
    """A modal whose ``dismiss`` takes effect once, and only while it is the screen on top."""

    _answered: bool = False

    @property
    def answered(self) -> bool:
        """The dialog has its answer (it is closing): handlers should do nothing more."""
        return self._answered

    def dismiss(self, result: ResultType | None = None) -> AwaitComplete:
        if self._answered or not self._on_top():
            return AwaitComplete(_nothing())
        self._answered = True
        return super().dismiss(result)

    def _on_top(self) -> bool:
        try:
            return self.app.screen is self
        except ScreenStackError:
            return False
