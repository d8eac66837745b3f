"""Moving from a key: ``n``/``p`` hunk by hunk in review order, ``N``/``P`` open high items, ``o``/``O`` open items.

The cursor says where (``services/cursor.py``); this says so when there is nowhere to go.
"""

from __future__ import annotations

from workbench.services import worklist
from workbench.services.workspace import Position
from workbench.tui.actions.host import Host


def _go(host: Host, target: Position | None, otherwise: str) -> None:
    if target is None:
        host.notify(otherwise)
    else:
        host.go(target)


def step(host: Host, delta: int, shown: tuple[str, ...]) -> None:
    """The next (previous) hunk among the files the list shows, on to the next file after the last."""
    if host.cursor is not None:
        _go(host, host.cursor.step(delta, shown), "That was the last hunk." if delta > 0 else "That was the first hunk.")


def risky(host: Host, delta: int) -> None:
    if host.ws is not None and host.ws.pending is not None:
        host.notify("The risk is still being read: N and P move between high-risk hunks once it is in.")
        return
    if host.cursor is not None:
        _go(host, host.cursor.next_risky(delta), "No other open high item in this sync (o: any level)."
            if host.ws is not None and worklist.items(host.ws) else "No other undecided high-risk hunk in this sync.")


def undecided(host: Host, delta: int) -> None:
    if host.cursor is not None:
        _go(host, host.cursor.next_open(delta), "Every hunk of this sync is decided.")
