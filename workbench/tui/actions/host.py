"""What a command needs from the screen it runs on (``MainScreen`` is the one host)."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from textual.app import App
from textual.notifications import SeverityLevel

from workbench.services.cursor import Cursor
from workbench.services.workspace import Position, Workspace
from workbench.tui.config import Config


class Host(Protocol):
    """The screen as the actions see it: the open sync, the cursor, toasts, dialogs and redraws."""

    config: Config

    @property
    def ws(self) -> Workspace | None: ...

    @property
    def cursor(self) -> Cursor | None: ...

    @property
    def app(self) -> App[Any]: ...

    def ready_to_decide(self) -> bool:
        """The analysis is complete (else the screen says so and the key is ignored)."""
        ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def refresh_state(self, paths: set[str] | None = None) -> None:
        """Decisions changed (for ``paths``, or anywhere): redraw what shows them."""
        ...

    def go(self, position: Position, focus: bool = True) -> None:
        """Show a hunk (or a whole-file choice), opening its file first when needed."""
        ...

    def show_place(self, place: Position) -> None:
        """Show where an undo or redo acted."""
        ...

    def call_after_refresh(self, callback: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
        """Call ``callback`` once the screen has been refreshed (never, if it closes first)."""
        ...

    def start(self, work: Callable[[], Coroutine[None, None, object]], group: str, exclusive: bool = False) -> object:
        """Run a command that asks questions as a worker of the screen (``exclusive``: a new one cancels the old);
        the coroutine is made when the worker starts, so a cancelled one leaves nothing unawaited."""
        ...
