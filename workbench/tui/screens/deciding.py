"""Deciding, editing, undoing, writing and quitting: the main screen's commands.

Each handler is a few lines: it asks the ``Workspace`` to do the thing
(which journals it), tells the user what happened, and lets the screen
redraw.  The flows that ask questions (a file changed on disk, unwritten
decisions on quit) run as async workers so they can wait for an answer.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import SuspendNotSupported

from workbench.analysis.model import FileStatus, Mode
from workbench.resolve.events import FileChoice
from workbench.resolve.markers import conflict_markers
from workbench.resolve.splice import EDIT_ONLY, Choice, Decision
from workbench.resolve.writer import Blocked
from workbench.textsafe import visible
from workbench.tui import present
from workbench.tui.editor import EditorFailed, run_editor
from workbench.tui.glyphs import FILE_CHOICE_WORD, MARKED
from workbench.tui.screens.confirm import Answer, ConfirmScreen
from workbench.tui.screens.edit import EditScreen
from workbench.tui.screens.noting import NotingScreen

EDIT_KEYS = "R (keep the result) and G (restore git's merge)"

if TYPE_CHECKING:
    from workbench.services.workspace import Position, Workspace
    from workbench.tui.config import Config
    from workbench.tui.fileview import FileView


class DecidingScreen(NotingScreen):
    """The base of ``MainScreen``: commands over its ``ws``, ``path``, ``current`` and ``view``."""

    ws: Workspace | None
    path: str | None
    current: int | None
    view: FileView | None
    config: Config

    def refresh_state(self, paths: set[str] | None = None) -> None:
        """Redraw after decisions changed (the screen that draws implements it)."""
        raise NotImplementedError

    _early_notice: float = 0.0

    def _loaded(self) -> bool:
        """Deciding is possible (the analysis is complete); else say so (at most every few seconds) and ignore the key.

        Keys typed while the sync loads must do nothing silently wrong: never a decision on a file the
        user cannot see yet, never text in a field."""
        if self.ws is not None:
            return True
        now = time.monotonic()
        if now - self._early_notice > 3:
            self._early_notice = now
            self.notify("Still analysing the sync: deciding starts when the analysis is complete "
                        "(the key was ignored).", severity="warning")
        return False

    # -- per hunk ----------------------------------------------------------------------------

    def _hunk_target(self) -> tuple[str, int] | None:
        if self.ws is None or self.path is None or self.view is None:
            return None
        if self.view.layout is None or self.current is None:
            return None
        return self.path, self.current

    def _decidable_target(self) -> tuple[str, int] | None:
        """The current hunk (a conflict, or an edit outside git's conflicts)."""
        return self._hunk_target()

    def _whole_file(self) -> bool:
        """The file is decided whole: it has no hunks to show (binary, modify/delete, a symlink)."""
        if self.ws is None or self.path is None or self.view is None:
            return False
        return self.view.layout is None

    def _no_conflicts(self) -> bool:
        """The file has hunks, but none of git's conflicts: only edits beyond git's merge (a whole-file key
        then chooses the whole file)."""
        if self.ws is None or self.path is None:
            return False
        return not self.ws.entry(self.path).hunks

    def _decide(self, choice: Choice) -> None:
        if not self._loaded():
            return
        target = self._decidable_target()
        if target is None:
            return
        assert self.ws is not None
        path, index = target
        is_edit = self.ws.is_edit(path, index)
        if choice in EDIT_ONLY and not is_edit:
            self.notify(f"Hunk {index + 1} is one of git's conflicts: {EDIT_KEYS} are for edits outside them "
                        "(K acknowledges what the result holds).", severity="warning")
            return
        if choice is Choice.MERGED and self.ws.hunk(path, index).merged_text is None:
            self.notify(f"git's merge of hunk {index + 1} is not known (its merge could not be rebuilt line by line): "
                        "take a side, keep the result, or edit it (e).", severity="warning")
            return
        self.ws.decide(path, index, Decision(choice))
        self.refresh_state({path})
        self.after_decision()

    def action_keep_result(self) -> None:
        self._decide(Choice.RESULT)

    def action_restore_merge(self) -> None:
        """Restore git's merge in this edit hunk; a file git's merge does not have is deleted instead."""
        if self._loaded() and self.ws is not None and self.path is not None and not self._whole_file() \
                and self.ws.entry(self.path).status is FileStatus.RESOLUTION_ADDED:
            self._choose(FileChoice.DELETE)
            return
        self._decide(Choice.MERGED)

    def after_decision(self) -> None:
        """A hunk was decided by a key (a screen may move on, see ``screens/flow.py``)."""

    def _choose(self, choice: FileChoice) -> None:
        assert self.ws is not None and self.path is not None
        self.ws.choose_file(self.path, choice)
        self.notify(f"{FILE_CHOICE_WORD[choice]}: {visible(self.path)}")
        self.refresh_state({self.path})

    def action_take_main(self) -> None:
        self._choose(FileChoice.TAKE_MAIN) if self._whole_file() else self._decide(Choice.MAIN)

    def action_take_dev(self) -> None:
        self._choose(FileChoice.KEEP_DEV) if self._whole_file() else self._decide(Choice.DEV)

    def action_take_both(self) -> None:
        self._decide(Choice.BOTH)

    def action_take_both_main_first(self) -> None:
        self._decide(Choice.BOTH_MAIN_FIRST)

    def action_delete_file(self) -> None:
        """Delete the file: only a whole-file choice (binary, modify/delete) may; a text file is decided by hunk."""
        if not self._loaded() or self.ws is None or self.path is None or self.view is None:
            return
        if not self._whole_file() and not self._no_conflicts():
            self.notify(f"x deletes a file only where the whole file is the choice (binary and modify/delete "
                        f"files); {visible(self.path)} has hunks: decide them with m, d, b or e.", severity="warning")
            return
        self._choose(FileChoice.DELETE)

    # -- per file ----------------------------------------------------------------------------

    def _decide_file(self, choice: Choice, file_choice: FileChoice) -> None:
        if not self._loaded() or self.ws is None or self.path is None or self.view is None:
            return
        if self._whole_file() or self._no_conflicts():
            self._choose(file_choice)
            return
        self.ws.decide_file(self.path, choice)
        count = len(self.ws.entry(self.path).hunks)
        which = "the only hunk" if count == 1 else f"all {count} hunks"
        self.notify(f"{choice.value} for {which} of {visible(self.path)}")
        self.refresh_state({self.path})

    def action_file_main(self) -> None:
        self._decide_file(Choice.MAIN, FileChoice.TAKE_MAIN)

    def action_file_dev(self) -> None:
        self._decide_file(Choice.DEV, FileChoice.KEEP_DEV)

    # -- undo / redo ---------------------------------------------------------------------------

    def action_undo(self) -> None:
        self._undo_redo(redo=False)

    def action_redo(self) -> None:
        self._undo_redo(redo=True)

    def _undo_redo(self, redo: bool) -> None:
        """Undo or redo, say what and where, and show that hunk: it may be in another file."""
        if not self._loaded() or self.ws is None:
            return
        target = self.ws.session.next_redo() if redo else self.ws.session.next_undo()
        if target is None:
            self.notify("Nothing to redo." if redo else "Nothing to undo.")
            return
        if redo:
            self.ws.redo()
        else:
            self.ws.undo()
        self.notify(f"{'Redid' if redo else 'Undid'}: {visible(target.label)}")
        self.refresh_state()
        place = self.ws.place_of(target)
        if place is not None:
            self.show_place(place)

    def show_place(self, place: Position) -> None:
        """Bring a file (and hunk) into view (the screen that navigates implements it)."""
        raise NotImplementedError

    # -- editing -------------------------------------------------------------------------------

    def action_edit(self) -> None:
        if not self._loaded():
            return
        target = self._decidable_target()
        if target is not None:
            self._edit(*target)

    @work(exclusive=True, group="edit")
    async def _edit(self, path: str, index: int) -> None:
        assert self.ws is not None
        seed = self.ws.edit_seed(path, index)
        try:
            text = await self._edited_text(path, index, seed)
        except EditorFailed as error:
            self.notify(f"Nothing changed: {visible(str(error))}. Set core.editor, $VISUAL or $EDITOR.",
                        severity="error")
            return
        if text is None or text == seed:
            self.notify("Edit cancelled: nothing changed.")
            return
        self.ws.decide(path, index, Decision(Choice.CUSTOM, text))
        if conflict_markers(text):
            self.notify(f"Hunk {index + 1} still holds conflict markers: it is flagged {MARKED}, and w will not write "
                        f"{visible(path)} until they are gone (e edits it again).", severity="warning")
        self.refresh_state({path})

    async def _edited_text(self, path: str, index: int, seed: bytes) -> bytes | None:
        assert self.ws is not None
        command = self.ws.editor(self.config.editor)
        suffix = PurePosixPath(path).suffix or ".txt"
        if command is not None:
            try:
                with self.app.suspend():
                    return run_editor(command, seed, suffix)
            except SuspendNotSupported:
                pass
        title = f"hunk {index + 1} of {visible(path)}"
        language = "python" if suffix == ".py" else None
        edited = await self.app.push_screen_wait(
            EditScreen(seed.decode("utf-8", "surrogateescape"), title, language)
        )
        return None if edited is None else edited.encode("utf-8", "surrogateescape")

    # -- writing -------------------------------------------------------------------------------

    def action_write(self) -> None:
        if not self._loaded():
            return
        if self._write_lock.locked():
            self.notify("Already writing: one moment.")
            return
        self._write()

    @property
    def _write_lock(self) -> asyncio.Lock:
        """Held while writing: a second ``w`` (or the quit dialog's) waits, never cancels a write half-way."""
        lock = self.__dict__.get("_writing")
        if lock is None:
            lock = self.__dict__["_writing"] = asyncio.Lock()
        return lock

    @work(group="write")
    async def _write(self) -> bool:
        return await self._write_all()

    async def _write_all(self) -> bool:
        """Write every file with unwritten decisions (after any write under way); True when none was left."""
        ws = self.ws
        if ws is None:
            return False
        async with self._write_lock:
            return await self._write_dirty(ws)

    async def _write_dirty(self, ws: Workspace) -> bool:
        blocker = await asyncio.to_thread(ws.write_blocker)
        if blocker is not None:
            self.notify(f"Nothing written: {visible(blocker)}. {ws.saved_words}", severity="warning")
            return False
        paths = ws.session.dirty_paths()
        if not paths:
            self.notify("Nothing to write: every decision is already in the work tree.")
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
        self._report_write(written, deleted, problems, ws.analysis.mode)
        for message in unstaged:
            self.notify(visible(message), title="Written, not staged", severity="error", timeout=12)
        self.refresh_state(set(paths))
        return not problems and not unstaged

    async def _ask_overwrite(self, path: str) -> bool:
        question = Text()
        question.append(visible(path), style="bold")
        question.append(" changed on disk since the workbench loaded it (someone else edited it).\n\n"
                        "Overwrite it with your decisions, or skip it for now?")
        answer = await self.app.push_screen_wait(
            ConfirmScreen(question, [Answer("s", "Skip", "skip"), Answer("o", "Overwrite", "overwrite")], "skip")
        )
        return answer == "overwrite"

    def _report_write(self, written: list[str], deleted: list[str], problems: list[str], mode: Mode) -> None:
        if written or deleted:
            self.notify(present.write_summary(written, deleted, mode))
        for problem in problems:
            self.notify(visible(problem), title="Not written", severity="error", timeout=12)

    # -- quitting ------------------------------------------------------------------------------

    def request_quit(self) -> None:
        self._quit()

    _quitting: bool = False
    """The quit dialog is up (or its answer is being carried out): another ``q`` waits for it."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the quit dialog is being prepared, keys meant for it must not act on the screen below.

        (``qcc`` typed before the dialog appears would otherwise open a note with ``c``.)"""
        return not self._quitting or action == "quit"

    @work(group="quit")
    async def _quit(self) -> None:
        if self._quitting:
            return
        self._quitting = True
        try:
            await self._quit_flow()
        finally:
            self._quitting = False

    async def _quit_flow(self) -> None:
        ws = self.ws
        dirty = ws.session.dirty_paths() if ws is not None else []
        if not dirty or ws is None or ws.write_blocker() is not None:
            self.app.exit(0)
            return
        checks = [await asyncio.to_thread(ws.check, path) for path in dirty]
        writable = [c.path for c in checks if c.ok or c.blocked is Blocked.CHANGED_ON_DISK]
        question = Text(present.quit_question(len(dirty), [c for c in checks if c.path not in writable]))
        answers = [Answer("q", "Quit", "quit"), Answer("c", "Cancel", "cancel")]
        if writable:
            label = "Write, then quit" if len(writable) == len(dirty) else f"Write {len(writable)}, then quit"
            answers.insert(0, Answer("w", label, "write"))
        answer = await self.app.push_screen_wait(ConfirmScreen(question, answers))
        if answer == "quit":
            self.app.exit(0)
        elif answer == "write" and await self._write_all():
            self.app.exit(0)
