"""Moving through a sync in bulk: which hunks a bulk decision takes, the next undecided hunk, where to resume.

Pure queries over a ``Workspace`` (no Textual), so the counts a confirmation
shows are the hunks the command then decides, and tests check them without
an app.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.services.workspace import Position, Workspace
from workbench.wording import plural


class Scope(str, Enum):
    """Where a bulk decision reaches."""

    FILE = "file"
    SYNC = "sync"


@dataclass(frozen=True, slots=True)
class Bulk:
    """Take ``choice`` for every undecided hunk whose risk is below ``below``, in one file or everywhere."""

    choice: Choice
    below: Level
    """Hunks of a lower level are taken (``MEDIUM``: low-risk ones; ``HIGH``: low and medium)."""
    scope: Scope
    path: str | None = None
    """The file, for ``Scope.FILE``."""

    def words(self) -> str:
        levels = "low-risk" if self.below is Level.MEDIUM else "low- and medium-risk"
        where = "in this file" if self.scope is Scope.FILE else "in the whole sync"
        return f"take {self.choice.value} for every undecided {levels} hunk {where}"


def bulk_targets(ws: Workspace, bulk: Bulk) -> list[tuple[str, int]]:
    """The (path, hunk) pairs ``bulk`` decides: undecided text hunks below its level, in review order."""
    paths = [bulk.path] if bulk.scope is Scope.FILE and bulk.path is not None else [f.path for f in ws.files]
    targets: list[tuple[str, int]] = []
    for path in paths:
        if ws.session.file_choice(path) is not None:
            continue
        visited = {position.hunk for position in ws.positions((path,))}  # a quiz visits only what it asks
        for hunk in ws.entry(path).hunks:
            if (hunk.index in visited and hunk.level.rank < bulk.below.rank
                    and ws.session.decision(path, hunk.index) is None):
                targets.append((path, hunk.index))
    return targets


def count_words(targets: list[tuple[str, int]]) -> str:
    """"312 hunks in 45 files": what a confirmation says a bulk move touches."""
    files = len({path for path, _ in targets})
    return f"{plural(len(targets), 'hunk')} in {plural(files, 'file')}"


def apply_bulk(ws: Workspace, bulk: Bulk) -> tuple[list[tuple[str, int]], str]:
    """Decide ``bulk``'s hunks as one undoable event; returns them and the label (nothing when none)."""
    targets = bulk_targets(ws, bulk)
    if not targets:
        return [], ""
    label = f"{bulk.words()} ({count_words(targets)})"
    ws.decide_many(targets, bulk.choice, label)
    return targets, label


def is_undecided(ws: Workspace, position: Position) -> bool:
    """A hunk (or a file without hunks) with no decision yet, of any risk."""
    if ws.session.file_choice(position.path) is not None:
        return False
    if position.hunk is None:
        return True
    return ws.session.decision(position.path, position.hunk) is None


def next_undecided(ws: Workspace, here: Position | None, delta: int,
                   paths: tuple[str, ...] | None = None) -> Position | None:
    """The next (or previous) undecided hunk of any risk in review order, wrapping around."""
    order = list(ws.positions(paths))
    if not order:
        return None
    if here in order:
        start = order.index(here)
    else:  # a place the workspace does not visit (a hunk a quiz does not ask): from the next one it does
        nearest = ws.step(here, delta, paths)
        start = order.index(nearest) - delta if nearest is not None else (-1 if delta > 0 else len(order))
    for k in range(1, len(order) + 1):
        candidate = order[(start + delta * k) % len(order)]
        if candidate != here and is_undecided(ws, candidate):
            return candidate
    return None


def resume_place(ws: Workspace) -> Position | None:
    """Where the user stopped: the place of the last decision still in force (None: a fresh sync)."""
    event = ws.session.next_undo()
    return ws.place_of(event) if event is not None else None
