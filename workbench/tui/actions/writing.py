"""Writing decided files (``w``) and quitting (``q``), which offers to write what is not written yet.

A ``Writing`` belongs to one screen: it holds the lock a second ``w`` (or the
quit dialog's write) waits on, so a write is never cancelled half-way, and
knows while the quit dialog is being prepared, when other keys must wait.
While files are written the top line counts them; anything that could not
be checked before a file was written (its Python syntax) is said in a toast.
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
from workbench.tui.widgets.sync_bar import SyncBar
from workbench.wording import plural


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

    async def write_all(self, only: list[str] | None = None) -> bool:
        """Write every file with unwritten decisions (``only``: those of them), after any write under way;
        True when each was written and staged."""
        ws = self.host.ws
        if ws is None:
            return False
        async with self.lock:
            return await self._write_dirty(ws, only)

    async def _write_dirty(self, ws: Workspace, only: list[str] | None) -> bool:
        host = self.host
        blocker = await asyncio.to_thread(ws.write_blocker)
        if blocker is not None:
            host.notify(f"Nothing written: {visible(blocker)}. {ws.saved_words}", severity="warning")
            return False
        paths = [p for p in ws.session.dirty_paths() if only is None or p in only]
        if not paths:
            host.notify("Nothing to write: every decision is already in the work tree.")
            return True
        total = len(paths)
        self._busy(f"checking {plural(total, 'file')}")
        try:
            checks = await asyncio.to_thread(ws.check_all, paths)
            problems: list[str] = []
            writable: list[str] = []
            overwrite: list[str] = []
            for path in paths:
                check = checks[path]
                if check.blocked is Blocked.CHANGED_ON_DISK:
                    if not await self._ask_overwrite(path):
                        problems.append(f"skipped {path}: it changed on disk")
                        continue
                    overwrite.append(path)
                elif not check.ok:
                    problems.append(check.message)
                    continue
                writable.append(path)

            def progress(done: int) -> None:
                note = f"writing {done + 1} of {len(writable)} files" if len(writable) > 1 else f"writing {writable[0]}"
                host.app.call_from_thread(self._busy, note)

            outcomes = await asyncio.to_thread(ws.write_all, writable, overwrite, progress) if writable else []
        finally:
            self._busy("")
        written: list[str] = []
        deleted: list[str] = []
        unstaged: list[str] = []
        unchecked: list[str] = []
        for outcome in outcomes:
            if outcome.written and outcome.warning:
                unchecked.append(f"{outcome.path}: {outcome.warning}")
            if not outcome.written:
                problems.append(outcome.message)
            elif ws.stages and not outcome.staged:
                unstaged.append(outcome.message)  # "wrote X but did not stage it: why" is no success
            elif outcome.event is not None and outcome.event.oid is None:
                deleted.append(outcome.path)
            else:
                written.append(outcome.path)
        self._report(written, deleted, problems, ws.analysis.mode)
        for message in unstaged:
            host.notify(visible(message), title="Written, not staged", severity="error", timeout=12)
        for message in unchecked:
            host.notify(visible(message), title="Written, not checked", severity="warning", timeout=12)
        host.refresh_state(set(paths))
        return not problems and not unstaged

    def _busy(self, note: str) -> None:
        """Say on the top line what is being written ("" when done)."""
        for screen in self.host.app.screen_stack:  # the overwrite question may be on top
            for bar in screen.query(SyncBar):
                bar.set_busy(note)

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
            checks = list((await asyncio.to_thread(ws.check_all, dirty)).values())
        writable = [c.path for c in checks if c.ok or c.blocked is Blocked.CHANGED_ON_DISK]
        question = Text(quit_question(len(dirty), [c for c in checks if c.path not in writable]))
        answers = [Answer("q", "Quit", "quit"), Answer("c", "Cancel", "cancel")]
        if writable:
            label = "Write, then quit" if len(writable) == len(dirty) else f"Write {len(writable)}, then quit"
            answers.insert(0, Answer("w", label, "write"))
        answer = await app.push_screen_wait(ConfirmScreen(question, answers))
        if answer == "quit":
            app.exit(0)
        elif answer == "write" and await self.write_all(writable):
            app.exit(0)  # the files that could not be written were named in the question: their decisions are kept
