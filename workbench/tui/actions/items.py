"""The worklist from a key: ``L`` switches the left pane (items or files), ``F`` what the items pane lists, ``I``
decides every undecided member of the current item at once (asked first, one undo)."""

from __future__ import annotations

from functools import partial

from rich.text import Text

from workbench.analysis.worklist import Item
from workbench.resolve.splice import Choice
from workbench.services import worklist
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.confirm import Answer, ConfirmScreen
from workbench.wording import plural

CHOICES = (
    ("m", "main", Choice.MAIN),
    ("d", "dev", Choice.DEV),
    ("b", "both", Choice.BOTH),
    ("B", "main+dev", Choice.BOTH_MAIN_FIRST),
    ("G", "git's merge", Choice.MERGED),
    ("R", "result", Choice.RESULT),
)
"""What deciding an item can take, each on the key that takes it for one hunk."""


def current_item(host: Host) -> Item | None:
    cursor = host.cursor
    return cursor.in_item() if cursor is not None else None


def decide_item(host: Host) -> None:
    """Ask which choice to take for every undecided member of the current item (saying how many hunks and files
    each reaches), then take it as one event."""
    if not host.ready_to_decide():
        return
    ws, item = host.ws, current_item(host)
    if ws is None or item is None:
        host.notify("This hunk belongs to no item of the worklist (nothing to decide together).")
        return
    if not worklist.undecided_members(ws, item):
        host.notify(f"Every member of {visible(item.id)} is decided (u undoes; decide a member on its own).")
        return
    host.start(partial(_ask, host, ws, item), group="item", exclusive=True)


async def _ask(host: Host, ws: Workspace, item: Item) -> None:
    question = Text()
    question.append(f"Decide item {visible(item.id)} ({item.kind.value}, {item.level.value})\n", style="bold")
    question.append(visible(item.why) + "\n\n")
    answers = []
    for key, words, choice in CHOICES:
        targets, skipped = worklist.item_targets(ws, item, choice)
        if not targets:
            continue
        files = len({path for path, _ in targets})
        question.append(f"{key}  {words}: {plural(len(targets), 'hunk')} in {plural(files, 'file')}"
                        + (f" ({skipped} left undecided)" if skipped else "") + "\n")
        answers.append(Answer(key, words, choice.value))
    if not answers:
        host.notify(f"No choice decides the undecided members of {visible(item.id)} together: decide them one by one.")
        return
    question.append("\nOne u undoes it all; each member can still be decided on its own.", style="dim")
    chosen = await host.app.push_screen_wait(ConfirmScreen(question, answers))
    if chosen == "cancel":
        return
    targets, skipped = worklist.decide_item(ws, item, Choice(chosen))
    if targets:
        files = len({path for path, _ in targets})
        host.notify(f"{Choice(chosen).value} for {plural(len(targets), 'hunk')} in {plural(files, 'file')} of "
                    f"{visible(item.id)}" + (f"; {skipped} left undecided" if skipped else "") + " (u undoes it all).")
        host.refresh_state({path for path, _ in targets})
