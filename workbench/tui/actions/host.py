"""What a command needs from the screen it runs on (``MainScreen`` is the one host).

Commands are typed against these protocols, never against the screen's
class: ``tui/screens`` imports the commands, so a command naming the screen
would be an import cycle (``import-linter``'s layers inside ``workbench.tui``
keep it out).  ``Host`` is the sync and the cursor; ``ViewHost`` adds the
centre's widgets, for the keys that change what is shown.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, Protocol, TypeVar

from textual.app import App
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.widget import Widget

from workbench.analysis.display.folds import ViewEntry
from workbench.services.cursor import Cursor
from workbench.services.workspace import Position, Workspace
from workbench.tui.config import Config
from workbench.tui.fileview import PreparedFile
from workbench.tui.presentation.suggestion import Previewing

W = TypeVar("W", bound=Widget)


class Host(Protocol):
    """The screen as the actions see it: the open sync, the cursor, toasts, dialogs and redraws."""

    config: Config
    previewing: Previewing | None
    """A candidate shown in the Result pane (``C``), or None."""

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

    def preview_changed(self) -> None:
        """``previewing`` changed: redraw the Result pane."""
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


class ViewHost(Host, Protocol):
    """The screen as the keys that change what it shows see it: the prepared file, the centre, its widgets."""

    zoomed: bool
    """``f``: the file list and the Why/History panes are hidden."""

    @property
    def view(self) -> PreparedFile | None:
        """The prepared rows of the file on screen (None while they are prepared)."""
        ...

    @property
    def path(self) -> str | None: ...

    def entries(self) -> tuple[ViewEntry, ...]:
        """The hunk view's rows for the file on screen, folds as the cursor has them."""
        ...

    def focus_view(self) -> None:
        """Focus what the centre shows."""
        ...

    def centre_shows(self, name: str) -> None:
        """Switch the centre to "hunks", "diffs", "choice" or "placeholder"."""
        ...

    def centre_showing(self) -> str:
        """What the centre shows now ("" before anything)."""
        ...

    def query_one(self, selector: type[W]) -> W:
        """The screen's one widget of that class."""
        ...

    def post_message(self, message: Message) -> bool: ...

    def run_worker(self, work: Callable[[], object], *, group: str, exclusive: bool, thread: bool) -> object: ...
