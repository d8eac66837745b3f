"""Notes and acknowledgements: the main screen's commands that add words to a decision.

``c`` writes a note on the hunk (or on a whole-file choice): it is journaled
with the decisions and every report lists it.  ``K`` acknowledges a hunk for
CI: the decision in force (or what the result already holds) is recorded
with a reason in ``.workbench/acks.toml``, the file committed with the PR
that ``report --fail-on`` honours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.screen import Screen

from workbench.analysis.model import ACKS_PATH
from workbench.errors import WorkbenchError
from workbench.textsafe import visible
from workbench.tui.screens.prompt import PromptScreen

if TYPE_CHECKING:
    from workbench.services.workspace import Workspace
    from workbench.tui.fileview import FileView


class NotingScreen(Screen[None]):
    """The base of ``DecidingScreen``: notes and acknowledgements over its ``ws``, ``path``, ``current``."""

    ws: Workspace | None
    path: str | None
    current: int | None
    view: FileView | None

    def _loaded(self) -> bool:
        raise NotImplementedError

    def refresh_state(self, paths: set[str] | None = None) -> None:
        raise NotImplementedError

    def _noted_place(self) -> tuple[str, int | None] | None:
        """The hunk a note goes on, or the file (whole-file choices); None: nothing open yet."""
        if self.ws is None or self.path is None or self.view is None:
            return None
        return self.path, self.current if self.view.layout is not None else None

    def action_note(self) -> None:
        if not self._loaded():
            return
        place = self._noted_place()
        if place is not None:
            self._note(*place)

    @work(exclusive=True, group="note")
    async def _note(self, path: str, index: int | None) -> None:
        assert self.ws is not None
        where = f"hunk {index + 1} of " if index is not None else ""
        question = Text(f"Note on {where}{visible(path)} (saved with your decisions; reports list it):")
        text = await self.app.push_screen_wait(PromptScreen(question, self.ws.session.note(path, index),
                                                            "e.g. keep main: the caller was fixed in #1234"))
        if text is None or text == self.ws.session.note(path, index):
            return
        self.ws.set_note(path, index, text)
        self.notify(f"Note {'saved' if text else 'removed'}: {where}{visible(path)}")
        self.refresh_state({path})

    def action_acknowledge(self) -> None:
        if not self._loaded() or self.ws is None or self.path is None:
            return
        if self.view is None or self.view.layout is None or self.current is None:
            self.notify("K acknowledges one hunk; this file is a whole-file choice: decide it and add a note (c).",
                        severity="warning")
            return
        blocker = self.ws.ack_blocker(self.path, self.current)
        if blocker is not None:
            self.notify(f"Not acknowledged: {visible(blocker)}", severity="warning", timeout=12)
            return
        self._acknowledge(self.path, self.current)

    @work(exclusive=True, group="note")
    async def _acknowledge(self, path: str, index: int) -> None:
        assert self.ws is not None
        hunk = self.ws.hunk(path, index)
        earlier = self.ws.acks.get((path, index))
        question = Text(f"Acknowledge hunk {index + 1} of {visible(path)} ({hunk.level.value} risk {hunk.risk}) for CI: "
                        f"it is recorded in {ACKS_PATH} with your reason, and report --fail-on accepts it. "
                        "Commit that file with the PR.\n\nWhy is it right as it is?")
        reason = await self.app.push_screen_wait(PromptScreen(question, earlier.reason if earlier else "",
                                                              "e.g. keep main: the caller was fixed elsewhere",
                                                              required=True))
        if not reason:
            return
        try:
            ack = self.ws.acknowledge(path, index, reason)
        except WorkbenchError as exc:
            self.notify(f"Not acknowledged: {visible(str(exc))}", severity="error", timeout=12)
            return
        self.notify(f"Acknowledged hunk {index + 1} of {visible(path)} (keep {ack.decision.value}) in {ACKS_PATH}: "
                    "commit it with the PR.")
        self.refresh_state({path})
