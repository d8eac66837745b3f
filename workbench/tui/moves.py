"""Deciding in bulk: which hunks a bulk decision takes, and what its confirmation says.

Pure queries over a ``Workspace`` (no Textual), so the counts a confirmation
shows are the hunks the command then decides, and tests check them without
an app.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.services.cursor import positions
from workbench.services.workspace import Workspace
from workbench.wording import plural


class Reach(str, Enum):
    """Where a bulk decision reaches."""

    FILE = "file"
    SYNC = "sync"


@dataclass(frozen=True, slots=True)
class Bulk:
    """Take ``choice`` for every undecided hunk whose risk is below ``below``, in one file or everywhere."""

    choice: Choice
    below: Level
    """Hunks of a lower level are taken (``MEDIUM``: low-risk ones; ``HIGH``: low and medium)."""
    reach: Reach
    path: str | None = None
    """The file, for ``Reach.FILE``."""

    def words(self) -> str:
        levels = "low-risk" if self.below is Level.MEDIUM else "low- and medium-risk"
        where = "in this file" if self.reach is Reach.FILE else "in the whole sync"
        return f"take {self.choice.value} for every undecided {levels} hunk {where}"


def bulk_targets(ws: Workspace, bulk: Bulk) -> list[tuple[str, int]]:
    """The (path, hunk) pairs ``bulk`` decides: undecided text hunks below its level, in review order."""
    paths = [bulk.path] if bulk.reach is Reach.FILE and bulk.path is not None else [f.path for f in ws.files]
    targets: list[tuple[str, int]] = []
    for path in paths:
        if ws.session.file_choice(path) is not None:
            continue
        visited = {position.hunk for position in positions(ws, (path,))}  # a quiz visits only what it asks
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
