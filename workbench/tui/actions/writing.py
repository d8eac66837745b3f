"""Writing decided files (``w``) and quitting (``q``), which offers to write what is not written yet.

A ``Writing`` belongs to one screen: it holds the lock a second ``w`` (or the
quit dialog's write) waits on, so a write is never cancelled half-way, and
knows while the quit dialog is being prepared, when other keys must wait.
"""

from __future__ import annotations

import asyncio

from rich.text import Text

from workbench.analysis.model import Mode
from workbench.resolve.writer import Blocked
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.confirm import Answer, ConfirmScreen
from workbench.tui.presentation.notices import quit_question, write_summary


class Writing:
    """``w`` and ``q`` for one host screen."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.lock = asyncio.Lock()
        """Held while writing: a second ``w`` (or the quit dialog's) waits, never cancels a write half-way."""
        self.quitting = False
        """The quit dialog is up (or its answer is being carried out): another ``q`` waits for it."""

    def write(self) -> None:
        if not self.host.ready_to_decide():
            return
        if self.lock.locked():
            self.host.notify("Already writing: one moment.")
            return
        self.host.start(self.write_all, group="write")

    async def write_all(self) -> bool:
        """Write every file with unwritten decisions (after any write under way); True when none was left."""
        ws = self.host.ws
        if ws is None:
            return False
        async with self.lock:
            return await self._write_dirty(ws)

    async def _write_dirty(self, ws: Workspace) -> bool:
        host = self.host
        blocker = await asyncio.to_thread(ws.write_blocker)
        if blocker is not None:
            host.notify(f"Nothing written: {visible(blocker)}. {ws.saved_words}", severity="warning")
            return False
        paths = ws.session.dirty_paths()
        if not paths:
            host.notify("Nothing to write: every decision is already in the work tree.")
            return True
        written: list[str] = []
        deleted: list[str] = []
        problems: list[str] = []
        unstaged: list[str] = []
        for path in paths:
            check = await asyncio.to_thread(ws.check, path)
            overwrite = False
            if check.blocked is Blocked.CHANGED_ON_DISK:
                overwrite = await self._ask_overwrite(path)
                if not overwrite:
                    problems.append(f"skipped {path}: it changed on disk")
                    continue
            elif not check.ok:
                problems.append(check.message)
                continue
            outcome = await asyncio.to_thread(ws.write, path, overwrite)
            if not outcome.written:
                problems.append(outcome.message)
            elif ws.stages and not outcome.staged:
                unstaged.append(outcome.message)  # "wrote X but did not stage it: why" is no success
            elif outcome.event is not None and outcome.event.oid is None:
                deleted.append(path)
            else:
                written.append(path)
        self._report(written, deleted, problems, ws.analysis.mode)
        for message in unstaged:
            host.notify(visible(message), title="Written, not staged", severity="error", timeout=12)
        host.refresh_state(set(paths))
        return not problems and not unstaged

    async def _ask_overwrite(self, path: str) -> bool:
        question = Text()
        question.append(visible(path), style="bold")
        question.append(" changed on disk since the workbench last read or wrote it.\n\n"
                        "Overwrite it with your decisions, or skip it for now?")
        answer = await self.host.app.push_screen_wait(
            ConfirmScreen(question, [Answer("s", "Skip", "skip"), Answer("o", "Overwrite", "overwrite")], "skip")
        )
        return answer == "overwrite"

    def _report(self, written: list[str], deleted: list[str], problems: list[str], mode: Mode) -> None:
        if written or deleted:
            self.host.notify(write_summary(written, deleted, mode))
        for problem in problems:
            self.host.notify(visible(problem), title="Not written", severity="error", timeout=12)

    # -- quitting ------------------------------------------------------------------------------

    def quit(self) -> None:
        self.host.start(self._quit, group="quit")

    async def _quit(self) -> None:
        if self.quitting:
            return
        self.quitting = True
        try:
            await self._quit_flow()
        finally:
            self.quitting = False

    async def _quit_flow(self) -> None:
        app, ws = self.host.app, self.host.ws
        async with self.lock:  # after a write under way (w just before q): what it wrote is not asked about
            dirty = ws.session.dirty_paths() if ws is not None else []
            if not dirty or ws is None or ws.write_blocker() is not None:
                app.exit(0)
                return
            checks = [await asyncio.to_thread(ws.check, path) for path in dirty]
        writable = [c.path for c in checks if c.ok or c.blocked is Blocked.CHANGED_ON_DISK]
        question = Text(quit_question(len(dirty), [c for c in checks if c.path not in writable]))
        answers = [Answer("q", "Quit", "quit"), Answer("c", "Cancel", "cancel")]
        if writable:
            label = "Write, then quit" if len(writable) == len(dirty) else f"Write {len(writable)}, then quit"
            answers.insert(0, Answer("w", label, "write"))
        answer = await app.push_screen_wait(ConfirmScreen(question, answers))
        if answer == "quit":
            app.exit(0)
        elif answer == "write" and await self.write_all():
            app.exit(0)
