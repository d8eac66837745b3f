"""``e``: edit the current hunk's result in the user's editor (or in the app when none is set)."""

from __future__ import annotations

from functools import partial
from pathlib import PurePosixPath

from textual.app import SuspendNotSupported

from workbench.resolve.markers import conflict_markers
from workbench.resolve.splice import Choice, Decision
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions.host import Host
from workbench.tui.editor import EditorFailed, run_editor
from workbench.tui.glyphs import MARKED


def edit(host: Host) -> None:
    if not host.ready_to_decide() or host.ws is None or host.cursor is None:
        return
    target = host.cursor.hunk_target()
    if target is not None:
        host.start(partial(_edit, host, host.ws, *target), group="edit", exclusive=True)


async def _edit(host: Host, ws: Workspace, path: str, index: int) -> None:
    seed = ws.edit_seed(path, index)
    try:
        text = await _edited_text(host, ws, path, index, seed)
    except EditorFailed as error:
        host.notify(f"Nothing changed: {visible(str(error))}. Set core.editor, $VISUAL or $EDITOR.", severity="error")
        return
    if text is None or text == seed:
        host.notify("Edit cancelled: nothing changed.")
        return
    ws.decide(path, index, Decision(Choice.CUSTOM, text))
    if conflict_markers(text):
        host.notify(f"Hunk {index + 1} still holds conflict markers: it is flagged {MARKED}, and w will not write "
                    f"{visible(path)} until they are gone (e edits it again).", severity="warning")
    host.refresh_state({path})


async def _edited_text(host: Host, ws: Workspace, path: str, index: int, seed: bytes) -> bytes | None:
    command = ws.editor(host.config.editor)
    suffix = PurePosixPath(path).suffix or ".txt"
    if command is not None:
        try:
            with host.app.suspend():
                return run_editor(command, seed, suffix)
        except SuspendNotSupported:
            pass
    title = f"hunk {index + 1} of {visible(path)}"
    language = "python" if suffix == ".py" else None
    text = built_in_editable(seed)
    # Imported here: Textual's TextArea is a cost at every app start, for a screen most sessions never open.
    from workbench.tui.dialogs.edit import EditScreen

    edited = await host.app.push_screen_wait(EditScreen(text, title, language))
    return None if edited is None else edited.encode("utf-8", "surrogateescape")


def built_in_editable(seed: bytes) -> str:
    """``seed`` as the in-app editor's text; ``EditorFailed`` when it could not show or keep it as it is.

    A ``TextArea`` writes its text to the terminal as it is, so an escape
    sequence in a hunk would act (recolour, retitle the terminal) instead of
    showing, and it rewrites CRs and bytes that are not UTF-8.  Such a hunk
    goes to an external editor or nowhere.
    """
    text = seed.decode("utf-8", "surrogateescape")
    if visible(text, single_line=False) != text:
        raise EditorFailed("the hunk holds control characters, CRs or bytes that are not UTF-8, which the built-in "
                           "editor would neither show nor keep as they are")
    return text
