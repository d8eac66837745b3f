"""Where the user is in a sync: the file and hunk on screen, what waits to be shown, folds and view toggles.

The main screen used to keep this state in its own attributes, spread over
four classes; here it is one Textual-free object with pure moves, so the
rules (which hunk ``n`` goes to, where a file opens, what a key decides)
are tested without an App.  The screen asks the cursor where to go, then
tells the widgets.  Every move respects the workspace's ``HunkScope``: a
quiz visits only the hunks it asks.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

from workbench.analysis.model import Hunk, Level
from workbench.analysis.worklist import Item
from workbench.services import worklist
from workbench.services.workspace import Position, Workspace


class Shown(str, Enum):
    """What the centre shows for the file under the cursor, once it is prepared."""

    HUNKS = "hunks"
    """A text file: its hunks, decided one by one."""
    WHOLE_FILE = "whole-file"
    """A binary, modify/delete or symlink file: one whole-file choice."""


class Cursor:
    """The file and hunk keys act on, and how the centre shows them."""

    def __init__(self, ws: Workspace, *, show_diffs: bool = False, expand_all: bool = False) -> None:
        self.ws = ws
        self.path: str | None = None
        """The file on screen."""
        self.current: int | None = None
        """The hunk decisions act on."""
        self.shown: Shown | None = None
        """What the file on screen is shown as; None while it is being prepared."""
        self.pending: int | None = None
        """The hunk to go to (and focus) once the file being opened is shown."""
        self.opening: str | None = None
        """The file being prepared or laid out, until its opening hunk is scrolled to."""
        self.opened = 0
        """How many times a file was opened: a file's preparation belongs to one opening, and one that arrives
        after the file was opened again (left and come back to) is stale even though its path matches."""
        self.expanded: frozenset[int] = frozenset()
        """Folds of context the user opened (by their first layout row)."""
        self.expand_all = expand_all
        """``z``: every fold of context is open."""
        self.show_diffs = show_diffs
        """``v``: the centre shows the result against both sides instead of the hunks."""
        self.item_id: str | None = None
        """The worklist item a move by item (or the worklist pane) last entered."""

    def carried_to(self, ws: Workspace) -> Cursor:
        """A cursor for the same sync opened again (another policy, or the complete analysis after a first
        look): the view toggles are kept."""
        return Cursor(ws, show_diffs=self.show_diffs, expand_all=self.expand_all)

    def keep_move(self, first_look: Cursor, path: str | None) -> None:
        """After a first look (``Workspace.first_look``): ``path`` opens on the hunk the user moved to there;
        a user who did not move gets the complete analysis's opening hunk (its riskiest)."""
        if path is None or first_look.path != path or first_look.current is None:
            return
        if first_look.current != opening_hunk(first_look.ws, path):
            self.pending = first_look.current

    # -- where we are ------------------------------------------------------------------------

    def here(self) -> Position | None:
        """The place on screen (the hunk, or the file for a whole-file choice); while a file is prepared, the
        hunk it will open on (a move from there goes on from it, as if the file were already shown)."""
        if self.path is None:
            return None
        if not self.ws.entry(self.path).all_hunks:
            return Position(self.path, None)
        if self.current is None and self.shown is None:
            return Position(self.path, self.pending if self.pending is not None else opening_hunk(self.ws, self.path))
        return Position(self.path, self.current)

    def hunk_target(self) -> tuple[str, int] | None:
        """The hunk a decision acts on (a conflict, or an edit outside git's conflicts)."""
        if self.path is None or self.shown is not Shown.HUNKS or self.current is None:
            return None
        return self.path, self.current

    @property
    def whole_file(self) -> bool:
        """The file on screen is decided whole: it has no hunks to show (binary, modify/delete, a symlink)."""
        return self.path is not None and self.shown is Shown.WHOLE_FILE

    @property
    def no_conflicts(self) -> bool:
        """The file has hunks, but none of git's conflicts: only edits beyond git's merge."""
        return self.path is not None and not self.ws.entry(self.path).hunks

    def noted_place(self) -> tuple[str, int | None] | None:
        """The hunk a note goes on, or the file (whole-file choices); None: nothing shown yet."""
        if self.path is None or self.shown is None:
            return None
        return self.path, self.current if self.shown is Shown.HUNKS else None

    def current_hunk(self) -> Hunk | None:
        """The hunk under the cursor, when the file on screen shows hunks."""
        if self.path is None or self.current is None:
            return None
        hunks = self.ws.entry(self.path).all_hunks
        return hunks[self.current] if 0 <= self.current < len(hunks) else None

    # -- opening a file ----------------------------------------------------------------------

    def first_file(self, start_file: str | None, moved: str | None, shown: tuple[str, ...]) -> str | None:
        """The file to open once the analysis is complete, and the hunk it opens on (``pending``).

        ``--file`` first, then the row the user moved to in the outline (``moved``, if the filter still
        shows it), then where a resumed session stopped, else the first file ``shown``."""
        ws = self.ws
        start = start_file if start_file and any(f.path == start_file for f in ws.files) else None
        if start is None and moved is not None and moved in shown:
            start = moved
        elif start is not None:
            self.pending = opening_hunk(ws, start)
        elif ws.resumed and (place := resume_place(ws)) is not None:
            start = place.path  # where the user stopped, not the riskiest file
            self.pending = place.hunk if place.hunk is not None else opening_hunk(ws, start)
        return start or (shown[0] if shown else None)

    def open(self, path: str, folds: frozenset[int] = frozenset()) -> None:
        """Start showing ``path``: nothing current until it is prepared; its folds closed but ``folds``
        (layout rows where opened folds start, for a file shown again on the same layout)."""
        self.path = path
        self.opening = path
        self.opened += 1
        self.shown = None
        self.current = None
        self.expanded = folds

    def open_at(self, path: str) -> None:
        """Open ``path`` to be read: on its opening hunk, with the view focused once shown."""
        self.pending = opening_hunk(self.ws, path)

    def file_shown(self, path: str, shown: Shown) -> Position:
        """The prepared file is on screen: where it opens (the pending hunk, else its opening hunk)."""
        self.shown = shown
        if shown is Shown.WHOLE_FILE:
            self.opening = None
            return Position(path, None)
        target = self.pending if self.pending is not None else opening_hunk(self.ws, path)
        hunks = len(self.ws.entry(path).all_hunks)
        self.current = min(target, hunks - 1)
        return Position(path, self.current)

    def take_pending(self) -> bool:
        """Whether a move asked for the file being shown (its view is then focused); clears it."""
        pending, self.pending = self.pending, None
        return pending is not None

    def laid_out(self) -> None:
        """The file's opening hunk has been scrolled to: the file is no longer opening."""
        self.opening = None

    def go(self, position: Position) -> bool:
        """Move to ``position``: True when it is in the file on screen (the screen scrolls there); False when
        its file must be opened first (it then opens on that hunk)."""
        if position.path != self.path or self.shown is None:
            self.pending = position.hunk if position.hunk is not None else 0
            return False
        if position.hunk is not None and self.shown is Shown.HUNKS:
            self.current = position.hunk
        return True

    def place_to_show(self, place: Position) -> Position | None:
        """Where to show an undo or redo: its hunk, its file's opening hunk, or nothing (the file on screen)."""
        if place.hunk is not None:
            return place
        if place.path == self.path:
            return None
        hunks = self.ws.entry(place.path).all_hunks
        return Position(place.path, opening_hunk(self.ws, place.path) if hunks else None)

    # -- moving ------------------------------------------------------------------------------

    def step(self, delta: int, paths: tuple[str, ...] | None = None) -> Position | None:
        """``n``/``p``: the hunk ``delta`` places away in review order, among ``paths`` (None: past either end)."""
        return step(self.ws, self.here(), delta, paths)

    def in_item(self) -> Item | None:
        """The worklist item the user is in: the one a move by item went to while they stay in its files (a
        whole-file member's file shows hunks of other items too), else the one holding the hunk on screen."""
        here = self.here()
        chosen = self.ws.analysis.worklist.item(self.item_id) if self.item_id and self.ws.analysis.worklist else None
        if chosen is not None and here is not None and here.path in chosen.paths:
            held = worklist.item_at(self.ws, here)
            if held is None or held is chosen or any(m.path == here.path and m.hunk is None for m in chosen.members):
                return chosen
        return worklist.item_at(self.ws, here)

    def to_item(self, item: Item | None) -> Position | None:
        """Enter ``item`` (None: nowhere): where it is read from."""
        start = worklist.start_of(self.ws, item) if item is not None else None
        if item is not None and start is not None:
            self.item_id = item.id
        return start

    def next_risky(self, delta: int) -> Position | None:
        """``N``/``P``: the first undecided member of the next open high item (``services/worklist.py``), wrapping
        around; without a worklist (a first look, a quiz), the next undecided high-risk hunk."""
        if worklist.items(self.ws):
            return self.to_item(worklist.next_item(self.ws, self.in_item(), delta, high_only=True))
        return next_open_risk(self.ws, self.here(), delta)

    def next_open(self, delta: int) -> Position | None:
        """``o``/``O``: the first undecided member of the next open item of any level, wrapping around; once every
        item is decided (or without a worklist), the next undecided hunk of any risk."""
        if worklist.items(self.ws):
            found = self.to_item(worklist.next_item(self.ws, self.in_item(), delta, high_only=False))
            if found is not None:
                return found
        return next_undecided(self.ws, self.here(), delta)

    def next_to_decide(self) -> Position | None:
        """After a decision (``advance``): the rest of the current item first, then the next open item."""
        return worklist.next_in_item(self.ws, self.in_item(), self.here()) or self.next_open(+1)

    # -- folds and toggles -------------------------------------------------------------------

    def open_fold(self, start: int) -> None:
        self.expanded = self.expanded | {start}

    def toggle_context(self) -> None:
        """``z``: every fold open, or all closed again."""
        self.expand_all = not self.expand_all
        self.expanded = frozenset()

    def toggle_diffs(self) -> bool:
        """``v``: the diffs instead of the hunks (or back); whether the diffs are shown now."""
        self.show_diffs = not self.show_diffs
        return self.show_diffs


# -- review order, within the workspace's scope --------------------------------------------------


def positions(ws: Workspace, paths: tuple[str, ...] | None = None) -> Iterator[Position]:
    """Every hunk (or whole-file choice) the scope visits, in review order."""
    scope = ws.scope
    for path in paths if paths is not None else tuple(f.path for f in ws.files):
        entry = ws.entry(path)
        if entry.all_hunks:
            for hunk in entry.all_hunks:
                if scope.asks(path, hunk.index):
                    yield Position(path, hunk.index)
        elif not scope.restricted:
            yield Position(path, None)


def is_open_risk(ws: Workspace, position: Position) -> bool:
    """An undecided high-risk hunk (or high-risk file without hunks)."""
    entry = ws.entry(position.path)
    if ws.session.file_choice(position.path) is not None:
        return False
    if position.hunk is None:
        return entry.level is Level.HIGH
    hunk = entry.all_hunks[position.hunk]
    return hunk.level is Level.HIGH and ws.session.decision(position.path, hunk.index) is None


def is_undecided(ws: Workspace, position: Position) -> bool:
    """A hunk (or a file without hunks) with no decision yet, of any risk."""
    if ws.session.file_choice(position.path) is not None:
        return False
    if position.hunk is None:
        return True
    return ws.session.decision(position.path, position.hunk) is None


def _anchor(ws: Workspace, here: Position | None, delta: int, paths: tuple[str, ...] | None) -> Position | None:
    """From a place the scope does not visit, the visited hunk just behind it (so a step lands on the next one)."""
    scope = ws.scope
    if here is None or not scope.restricted or (here.hunk is not None and scope.asks(here.path, here.hunk)):
        return here
    every = [Position(path, hunk.index) if hunk is not None else Position(path, None)
             for path in (paths if paths is not None else tuple(f.path for f in ws.files))
             for hunk in (ws.entry(path).all_hunks or (None,))]
    if here not in every:
        return None
    behind = every[:every.index(here)] if delta > 0 else every[every.index(here) + 1:][::-1]
    return next((p for p in reversed(behind) if p.hunk is not None and scope.asks(p.path, p.hunk)), None)


def step(ws: Workspace, here: Position | None, delta: int, paths: tuple[str, ...] | None = None) -> Position | None:
    """The hunk ``delta`` places away in review order (None: past either end)."""
    order = list(positions(ws, paths))
    if not order:
        return None
    here = _anchor(ws, here, delta, paths)
    if here not in order:
        return order[0] if delta > 0 else order[-1]
    target = order.index(here) + delta
    return order[target] if 0 <= target < len(order) else None


def next_open_risk(ws: Workspace, here: Position | None, delta: int) -> Position | None:
    """The next (or previous) undecided high-risk hunk in the whole sync, wrapping around."""
    here = _anchor(ws, here, delta, None)
    order = list(positions(ws))
    start = order.index(here) if here in order else (-1 if delta > 0 else len(order))
    for k in range(1, len(order) + 1):
        candidate = order[(start + delta * k) % len(order)]
        if candidate != here and is_open_risk(ws, candidate):
            return candidate
    return None


def next_undecided(ws: Workspace, here: Position | None, delta: int,
                   paths: tuple[str, ...] | None = None) -> Position | None:
    """The next (or previous) undecided hunk of any risk in review order, wrapping around."""
    order = list(positions(ws, paths))
    if not order:
        return None
    if here in order:
        start = order.index(here)
    else:  # a place the scope does not visit (a hunk a quiz does not ask): from the next one it does
        nearest = step(ws, here, delta, paths)
        start = order.index(nearest) - delta if nearest is not None else (-1 if delta > 0 else len(order))
    for k in range(1, len(order) + 1):
        candidate = order[(start + delta * k) % len(order)]
        if candidate != here and is_undecided(ws, candidate):
            return candidate
    return None


def opening_hunk(ws: Workspace, path: str) -> int:
    """Where a file opens: its riskiest undecided visited hunk (the first of them), else its first visited one."""
    entry = ws.entry(path)
    asked = ws.scope.asked(path) if ws.scope.restricted else ()
    hunks = [ws.hunk(path, index) for index in asked] or list(entry.all_hunks)
    open_hunks = [h for h in hunks if ws.session.decision(path, h.index) is None] or hunks
    if not open_hunks:
        return 0
    return max(open_hunks, key=lambda h: (h.level.rank, h.risk, -h.index)).index


def resume_place(ws: Workspace) -> Position | None:
    """Where the user stopped: the place of the last decision still in force (None: a fresh sync)."""
    event = ws.session.next_undo()
    return ws.place_of(event) if event is not None else None
