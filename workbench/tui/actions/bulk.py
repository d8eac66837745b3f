"""``A``: one side for every undecided hunk below a risk level, in this file or the whole sync, asked first."""

from __future__ import annotations

from functools import partial

from workbench.analysis.model import Level
from workbench.resolve.splice import Choice
from workbench.services.cursor import Shown
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.bulk import BulkScreen
from workbench.tui.moves import Bulk, Reach, apply_bulk, bulk_targets, count_words


def bulk(host: Host) -> None:
    ws, cursor = host.ws, host.cursor
    if ws is None or cursor is None:
        host.notify("Still analysing the sync: bulk moves wait until it is complete.")
        return
    if not host.ready_to_decide():  # a first look: its risk levels are not known yet
        return
    text_file = cursor.path if cursor.shown is Shown.HUNKS else None
    host.start(partial(_ask, host, ws, text_file), group="bulk", exclusive=True)


async def _ask(host: Host, ws: Workspace, text_file: str | None) -> None:
    start = Bulk(Choice.MAIN, Level.MEDIUM, Reach.SYNC, text_file)

    def count(bulk: Bulk) -> tuple[int, int]:
        targets = bulk_targets(ws, bulk)
        return len(targets), len({path for path, _ in targets})

    label = visible(text_file) if text_file else None
    chosen = await host.app.push_screen_wait(BulkScreen(start, count, label))
    if chosen is None:
        return
    targets, _label = apply_bulk(ws, chosen)
    if not targets:
        return
    host.notify(f"{chosen.words().capitalize()}: {count_words(targets)} decided (u undoes it all).")
    host.refresh_state({path for path, _ in targets})
