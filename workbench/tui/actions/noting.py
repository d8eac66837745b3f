"""Notes and acknowledgements: the commands that add words to a decision.

``c`` writes a note on the hunk (or on a whole-file choice): it is journaled
with the decisions and every report lists it.  ``K`` acknowledges a hunk for
CI: the decision in force (or what the result already holds) is recorded
with a reason in ``.workbench/acks.toml``, the file committed with the PR
that ``report --fail-on`` honours.
"""

from __future__ import annotations

from functools import partial

from rich.text import Text

from workbench.analysis.model import ACKS_PATH
from workbench.errors import WorkbenchError
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.prompt import PromptScreen


def note(host: Host) -> None:
    if not host.ready_to_decide() or host.ws is None or host.cursor is None:
        return
    place = host.cursor.noted_place()
    if place is not None:
        host.start(partial(_note, host, host.ws, *place), group="note", exclusive=True)


async def _note(host: Host, ws: Workspace, path: str, index: int | None) -> None:
    where = f"hunk {index + 1} of " if index is not None else ""
    question = Text(f"Note on {where}{visible(path)} (saved with your decisions; reports list it):")
    text = await host.app.push_screen_wait(PromptScreen(question, ws.session.note(path, index),
                                                        "e.g. keep main: the caller was fixed in #1234"))
    if text is None or text == ws.session.note(path, index):
        return
    ws.set_note(path, index, text)
    host.notify(f"Note {'saved' if text else 'removed'}: {where}{visible(path)}")
    host.refresh_state({path})


def acknowledge(host: Host) -> None:
    ws, cursor = host.ws, host.cursor
    if not host.ready_to_decide() or ws is None or cursor is None or cursor.path is None:
        return
    target = cursor.hunk_target()
    if target is None:
        host.notify("K acknowledges one hunk; this file is a whole-file choice: decide it and add a note (c).",
                    severity="warning")
        return
    blocker = ws.ack_blocker(*target)
    if blocker is not None:
        host.notify(f"Not acknowledged: {visible(blocker)}", severity="warning", timeout=12)
        return
    host.start(partial(_acknowledge, host, ws, *target), group="note", exclusive=True)


async def _acknowledge(host: Host, ws: Workspace, path: str, index: int) -> None:
    hunk = ws.hunk(path, index)
    earlier = ws.acks.get((path, index))
    question = Text(f"Acknowledge hunk {index + 1} of {visible(path)} ({hunk.level.value} risk {hunk.risk}) for CI: "
                    f"it is recorded in {ACKS_PATH} with your reason, and report --fail-on accepts it. "
                    "Commit that file with the PR.\n\nWhy is it right as it is?")
    reason = await host.app.push_screen_wait(PromptScreen(question, earlier.reason if earlier else "",
                                                          "e.g. keep main: the caller was fixed elsewhere",
                                                          required=True))
    if not reason:
        return
    try:
        ack = ws.acknowledge(path, index, reason)
    except WorkbenchError as exc:
        host.notify(f"Not acknowledged: {visible(str(exc))}", severity="error", timeout=12)
        return
    host.notify(f"Acknowledged hunk {index + 1} of {visible(path)} (keep {ack.decision.value}) in {ACKS_PATH}: "
                "commit it with the PR.")
    host.refresh_state({path})
