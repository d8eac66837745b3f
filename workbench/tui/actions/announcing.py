"""What the screen says once the sync is loaded, when a key must wait for it, and when decisions stop being saved."""

from __future__ import annotations

from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.actions import preset, training
from workbench.tui.actions.host import Host
from workbench.tui.widgets.sync_bar import SyncBar


def after_load(host: Host, ws: Workspace, reopen: preset.Reopen, sync_bar: SyncBar) -> None:
    """A resumed journal, a journal that cannot be saved, the preset offer, unreadable acknowledgements, a
    quiz's welcome: each said once, after the file list is on screen."""
    if ws.resumed:
        host.notify(ws.resumed_words())
    tell_unsaved(host)
    preset.offer_policy(host, reopen)
    if ws.acks_problem:
        host.notify(f"Acknowledgements not read: {ws.acks_problem}", severity="warning", timeout=15)
    if ws.quiz is not None:
        training.welcome(host, sync_bar, ws, ws.quiz)


def key_waits(host: Host, ws: Workspace | None) -> None:
    """Why a decision key was ignored: the sync is still analysed, or a first look's evidence is still read."""
    waiting = "Still analysing the sync" if ws is None else f"Still reading {visible(ws.pending or '')}"
    host.notify(f"{waiting}: deciding starts when the analysis is complete (the key was ignored).", severity="warning")


def tell_unsaved(host: Host) -> None:
    """Say once that decisions are no longer saved (the journal could not be claimed or written)."""
    ws = host.ws
    if ws is not None and ws.unsaved_news and ws.unsaved is not None:
        ws.unsaved_news = False
        host.notify(f"Working read-only: {ws.unsaved}. You can still look and decide; nothing is saved "
                    "or written.", severity="warning", timeout=15)
