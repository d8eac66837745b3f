"""On the first screen: the repository looks made for a policy preset and has none: say so, offer it.

Accepting analyses the sync again with the preset (the decisions are kept:
they are journaled by sync, not by policy).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from rich.text import Text

from workbench.services.policy_offer import PresetFit, fitting_preset
from workbench.services.sync import SyncRequest
from workbench.tui.actions.host import Host
from workbench.tui.dialogs.confirm import Answer, ConfirmScreen

Reopen = Callable[[SyncRequest, str], None]
"""Analyse the sync again from this request, with this preset."""


def offer_policy(host: Host, reopen: Reopen) -> None:
    ws = host.ws
    if ws is None or ws.request is None or ws.request.policy is not None:
        return
    fit = fitting_preset(ws.repo, ws.analysis)
    if fit is not None:  # asked once the analysis is painted: the dialog's dimmed backdrop would hold up that frame
        host.call_after_refresh(_start_asking, host, fit, reopen)


def _start_asking(host: Host, fit: PresetFit, reopen: Reopen) -> None:
    if host.app.is_running:  # not while the app shuts down (a quit typed meanwhile)
        host.start(partial(_ask, host, fit, reopen), group="preset", exclusive=True)


async def _ask(host: Host, fit: PresetFit, reopen: Reopen) -> None:
    if not host.app.is_running:
        return
    question = Text()
    question.append(f"This repository looks like the one the {fit.name!r} policy preset is for", style="bold")
    question.append(f" (its override list exists: {', '.join(fit.evidence)}), but no sync policy is "
                    f"configured, so {', '.join(fit.keep_dev)} are scored as ordinary files.\n\n"
                    f"Use the preset for this session (like --policy {fit.name})? To make it permanent, put "
                    f'preset = "{fit.name}" in .workbench.toml at the repository root.')
    answer = await host.app.push_screen_wait(
        ConfirmScreen(question, [Answer("p", "Use the preset", "preset"), Answer("c", "Continue without", "no")],
                      "no", unasked=True))
    ws = host.ws
    if answer != "preset" or ws is None or ws.request is None:
        return
    reopen(replace(ws.request, policy=fit.name), fit.name)
