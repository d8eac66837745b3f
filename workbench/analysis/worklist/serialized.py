"""The worklist in ``workbench.analysis/1`` (additive): ``worklist``, ``summary.worklist``, ``files[].hunks[].item``.

Kept beside the records so ``serialize.py`` only calls in; every name here
is public once written (extend, never rename).  An item's ``state`` says
whether its members are decided: in ``analyze --json`` a member counts as
decided when the app wrote its file (``decided_by`` app); the report applies
the app's journal and ``.workbench/acks.toml`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from workbench.analysis.model import Decider, FileAnalysis, LineRange, SyncAnalysis
from workbench.analysis.worklist.items import Item, Member, Worklist

Decided = Callable[[str, "int | None"], bool]
"""Whether a member (a file's hunk, or the whole file for None) is decided."""


class ItemState(str, Enum):
    """Whether an item's members are decided (``state`` in JSON)."""

    OPEN = "open"
    DECIDED = "decided"
    PARTLY = "partly"


def item_state(item: Item, decided: Decided) -> ItemState:
    """``decided`` when every member is, ``partly`` when some are, else ``open``."""
    done = [decided(m.path, m.hunk) for m in item.members]
    if done and all(done):
        return ItemState.DECIDED
    return ItemState.PARTLY if any(done) else ItemState.OPEN


def app_decided(analysis: SyncAnalysis) -> Decided:
    """Members of files the app wrote count as decided (what the analysis itself knows of decisions)."""
    written = {f.path for f in analysis.files if f.decided_by is Decider.APP}
    return lambda path, _index: path in written


def worklist_to_json(analysis: SyncAnalysis, decided: Decided | None = None) -> list[dict[str, Any]]:
    """Every item, most important first (empty before the worklist stage ran)."""
    if analysis.worklist is None:
        return []
    state = decided or app_decided(analysis)
    return [item_to_json(item, item_state(item, state)) for item in analysis.worklist.items]


def item_to_json(item: Item, state: ItemState) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind.value,
        "level": item.level.value,
        "why": item.why,
        "side": item.side,
        "lost_lines": {"dev": item.lost_dev, "main": item.lost_main},
        "members": [member_to_json(m) for m in item.members],
        "commits": list(item.commits),
        "prs": list(item.prs),
        "decisions": [d.value for d in item.decisions],
        "claims": [c.value for c in item.claims],
        "state": state.value,
    }


def member_to_json(member: Member) -> dict[str, Any]:
    return {
        "path": member.path,
        "hunk": member.hunk,
        "level": member.level.value,
        "fingerprint": member.fingerprint,
        "lost_lines": {"dev": _ranges(member.lost.dev), "main": _ranges(member.lost.main)},
    }


def _ranges(ranges: tuple[LineRange, ...]) -> list[list[int]]:
    return [r.as_list() for r in ranges]


def worklist_summary(analysis: SyncAnalysis) -> dict[str, Any]:
    """``summary.worklist``: items by level and kind, and how many are still open."""
    worklist = analysis.worklist or Worklist()
    decided = app_decided(analysis)
    levels = {"high": 0, "medium": 0, "low": 0}
    kinds: dict[str, int] = {}
    open_items = 0
    for item in worklist.items:
        levels[item.level.value] += 1
        kinds[item.kind.value] = kinds.get(item.kind.value, 0) + 1
        open_items += item_state(item, decided) is not ItemState.DECIDED
    return {"items": len(worklist.items), "levels": levels, "kinds": kinds, "open": open_items}


def add_items(data: dict[str, Any], entry: FileAnalysis, worklist: Worklist | None) -> dict[str, Any]:
    """``data`` (a file's JSON) with each hunk's ``item``: the id of the item holding it, or null when settled."""
    for hunk_data, hunk in zip(data["hunks"], entry.all_hunks, strict=True):
        found = worklist.of_hunk(entry.path, hunk.index) if worklist is not None else None
        hunk_data["item"] = found.id if found is not None else None
    return data
