"""What the command palette (ctrl+p) lists: every action that can run where the user is, with its keys.

The screen's and the app's actions run on them; a pane's own (the hunk
view's search, paging, moving) run on the pane that has the focus, or on
the hunk view when the focus is elsewhere, as if its key had been pressed
there.  An action the pane turns down now (``n`` "Next match" with no
search on) is left out, so the palette never offers what would do nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import Any

from textual.actions import parse
from textual.app import App, SystemCommand
from textual.dom import DOMNode
from textual.screen import Screen

from workbench.tui.dialogs.page import ScrollingPage
from workbench.tui.keymap import ACTIONS, ActionSpec, Scope, display_keys
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.hunk_view import HunkView

PANE_SCOPES = frozenset({Scope.VIEW, Scope.HUNKS, Scope.LIST})


def action_commands(app: App[Any], screen: Screen[Any], keys: Mapping[str, str]) -> Iterator[SystemCommand]:
    """One command per action that can run on ``screen`` now (``keys``: action id -> keys in force)."""
    for spec in ACTIONS:
        callback = _callback(app, screen, spec)
        if callback is None:
            continue
        # The palette reads help as markup: "[/]" would be a closing tag and "[B]" a style; every "[" is literal.
        help_text = f"{spec.help}  [{display_keys(keys[spec.id])}]".replace("[", "\\[")
        yield SystemCommand(spec.description, help_text, callback)


def _callback(app: App[Any], screen: Screen[Any], spec: ActionSpec) -> Callable[[], object] | None:
    scopes = set(spec.scopes)
    if isinstance(screen, MainScreen):
        if Scope.SCREEN in scopes or (Scope.QUIZ in scopes and hasattr(screen, f"action_{spec.action}")):
            return partial(screen.run_action, spec.action)
        if scopes & PANE_SCOPES:
            return _on_pane(app, screen, spec)
    elif Scope.PAGE in scopes and isinstance(screen, ScrollingPage):
        return partial(screen.run_action, spec.action)
    if Scope.APP in scopes:
        return partial(app.run_action, spec.action)
    return None


def _on_pane(app: App[Any], screen: MainScreen, spec: ActionSpec) -> Callable[[], object] | None:
    """Run on the focused pane when it has the action, else on the hunk view (focused first)."""
    _namespace, name, parameters = parse(spec.action)
    focused = screen.focused
    target: DOMNode = focused if focused is not None and hasattr(focused, f"action_{name}") else screen.query_one(HunkView)
    if not hasattr(target, f"action_{name}") or target.check_action(name, parameters) is False:
        return None
    if isinstance(target, HunkView) and not target.display:
        return None  # the centre shows the diffs or a whole-file choice: nothing of the hunk view to act on

    async def run() -> None:
        if target is not focused and isinstance(target, HunkView) and target.display:
            target.focus()
        await app.run_action(spec.action, target)

    return run
