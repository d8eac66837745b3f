"""What each key of a burst should do, worked out without the app: the model the burst soak checks it against.

``Model`` is a host (``tui/actions/host.py``) over its own workspace, opened
on a copy of the same repository: the app's commands (``deciding``,
``moving``) run on it as on the screen, but every file is shown the moment it
is opened, so each key acts on exactly what the keys before it left.  The app,
sent the same keys faster than it can open files, must end in the same place
with the same decisions and notes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice
from workbench.services.cursor import Cursor, Shown
from workbench.services.workspace import Position, Workspace
from workbench.tui.actions import deciding, moving
from workbench.tui.config import Config
from workbench.tui.presentation.suggestion import Previewing


class Model:
    """The screen as the keys see it, with nothing to wait for."""

    def __init__(self, ws: Workspace, config: Config, shown: tuple[str, ...], here: Position) -> None:
        self.ws = ws
        self.config = config
        self.cursor = Cursor(ws)
        self.shown = shown
        """The file list's paths, top to bottom (no filter)."""
        self.list_focused = False
        self.previewing: Previewing | None = None
        self.said: list[str] = []
        self.open(here.path)
        if here.hunk is not None:
            self.cursor.go(here)

    # -- the host protocol (what the commands call) ---------------------------------------------

    @property
    def app(self) -> NoReturn:
        raise AssertionError("the model runs no command that asks questions")

    def ready_to_decide(self) -> bool:
        return True

    def notify(self, message: str, **_: object) -> None:
        self.said.append(message)

    def refresh_state(self, paths: set[str] | None = None) -> None:
        pass

    def preview_changed(self) -> None:
        pass

    def call_after_refresh(self, callback: Callable[..., object], *args: Any, **kwargs: Any) -> bool:
        callback(*args, **kwargs)
        return True

    def start(self, work: object, group: str, exclusive: bool = False) -> object:
        raise AssertionError("the model runs no command that asks questions")

    def go(self, position: Position, focus: bool = True) -> None:
        if self.cursor.go(position):
            self.list_focused = self.list_focused and not focus
        else:  # another file: it opens on that hunk, the view focused
            self.open(position.path)
            self.list_focused = False

    def show_place(self, place: Position) -> None:
        target = self.cursor.place_to_show(place)
        if target is not None:
            self.go(target, focus=False)

    # -- the screen's own moves ---------------------------------------------------------------

    def open(self, path: str) -> None:
        cursor = self.cursor
        cursor.open(path)
        cursor.file_shown(path, Shown.HUNKS if self.ws.entry(path).all_hunks else Shown.WHOLE_FILE)
        cursor.take_pending()
        cursor.laid_out()

    def list_move(self, delta: int) -> None:
        """j/k in the file list: the next (previous) file opens on its opening hunk; the list keeps the focus."""
        assert self.list_focused and self.cursor.path is not None
        index = self.shown.index(self.cursor.path)
        target = max(0, min(index + delta, len(self.shown) - 1))
        if target != index:
            self.open(self.shown[target])

    def note(self, typed: str) -> None:
        """``c``, text, enter: the prompt opens on the note there is, selected, so the text typed replaces it."""
        place = self.cursor.noted_place()
        assert place is not None
        before = self.ws.session.note(*place)
        text = " ".join(typed.split())
        if text != before:
            self.ws.set_note(*place, text)

    # -- what the soak compares --------------------------------------------------------------

    def here(self) -> tuple[str | None, int | None]:
        cursor = self.cursor
        return cursor.path, cursor.current if cursor.shown is Shown.HUNKS else None


def state(ws: Workspace) -> tuple[object, ...]:
    """Every decision, whole-file choice and note of the sync (what a key may change)."""
    session = ws.session
    hunks = {(f.path, h.index): session.decision(f.path, h.index) for f in ws.files for h in ws.entry(f.path).all_hunks}
    files = {f.path: session.file_choice(f.path) for f in ws.files}
    notes = {(f.path, h): session.note(f.path, h) for f in ws.files
             for h in (None, *(x.index for x in ws.entry(f.path).all_hunks))}
    return ({k: v for k, v in hunks.items() if v is not None}, {k: v for k, v in files.items() if v is not None},
            {k: v for k, v in notes.items() if v})


@dataclass(frozen=True)
class Step:
    """One thing a user does: the keys it takes, and what it does to the model."""

    keys: tuple[str, ...]
    act: Callable[[Model], None]
    name: str


def _keyed(key: str, act: Callable[[Model], None]) -> Step:
    return Step((key,), act, key)


MOVES = (
    _keyed("n", lambda m: moving.step(m, +1, m.shown)),
    _keyed("p", lambda m: moving.step(m, -1, m.shown)),
    _keyed("N", lambda m: moving.risky(m, +1)),
    _keyed("P", lambda m: moving.risky(m, -1)),
    _keyed("o", lambda m: moving.undecided(m, +1)),
    _keyed("O", lambda m: moving.undecided(m, -1)),
)
DECISIONS = (
    _keyed("m", lambda m: deciding.take_side(m, Choice.MAIN, FileChoice.TAKE_MAIN)),
    _keyed("d", lambda m: deciding.take_side(m, Choice.DEV, FileChoice.KEEP_DEV)),
    _keyed("b", lambda m: deciding.decide(m, Choice.BOTH)),
    _keyed("B", lambda m: deciding.decide(m, Choice.BOTH_MAIN_FIRST)),
)
RARE = (
    _keyed("M", lambda m: deciding.decide_file(m, Choice.MAIN, FileChoice.TAKE_MAIN)),
    _keyed("D", lambda m: deciding.decide_file(m, Choice.DEV, FileChoice.KEEP_DEV)),
    _keyed("u", lambda m: deciding.undo_redo(m, False)),
    _keyed("ctrl+r", lambda m: deciding.undo_redo(m, True)),
    _keyed("x", deciding.delete_file),
    _keyed("z", lambda m: None),
    _keyed("a", lambda m: None),
    Step(("question_mark", "escape"), lambda m: None, "help, closed"),
    Step(("A", "escape"), lambda m: None, "bulk dialog, cancelled"),
    Step(("c", "escape"), lambda m: None, "note dialog, cancelled"),
)


def _focus_list(m: Model) -> None:
    m.list_focused = True


def _list_moves(rng: random.Random) -> Step:
    keys = [rng.choice("jk") for _ in range(rng.randint(1, 3))]

    def act(m: Model) -> None:
        _focus_list(m)
        for key in keys:
            m.list_move(+1 if key == "j" else -1)

    return Step(("escape", *keys), act, "files: " + "".join(keys))


def _note(rng: random.Random) -> Step:
    typed = "".join(rng.choice("nt ") for _ in range(rng.randint(1, 4)))
    return Step(("c", *(("space" if ch == " " else ch) for ch in typed), "enter"), lambda m: m.note(typed),
                f"note {typed!r}")


def random_step(rng: random.Random) -> Step:
    """Mostly moves and decisions, sometimes the file list, a note, a dialog opened and closed, undo."""
    roll = rng.random()
    if roll < 0.4:
        return rng.choice(MOVES)
    if roll < 0.75:
        return rng.choice(DECISIONS)
    if roll < 0.83:
        return _list_moves(rng)
    if roll < 0.88:
        return _note(rng)
    return rng.choice(RARE)
