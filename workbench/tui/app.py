"""The workbench App: themes, keymap, the main screen, and the app-wide keys. Wiring only."""

from __future__ import annotations

import gc
from collections.abc import Iterable
from concurrent.futures import Future

from textual import events
from textual.app import App, SystemCommand
from textual.notifications import Notify, SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from workbench.tui.commands import action_commands
from workbench.tui.config import Config, remember_theme
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.fileview import FirstLook
from workbench.tui.keygate import KeyDone, KeyGate
from workbench.tui.keymap import Scope, bindings, display_keys, effective_keys
from workbench.tui.messages import LoadFailed
from workbench.tui.screens.main import Loader, MainScreen
from workbench.tui.themes import DEFAULT_THEME, VARIABLE_DEFAULTS, next_theme

TOASTS_SHOWN = 3
"""Toasts on screen at once, at most: more would cover the hunk on a small terminal."""


class WorkbenchApp(App[int]):
    """Review, decide and write a main-to-dev sync."""

    CSS_PATH = "app.tcss"
    TITLE = "workbench"
    BINDINGS = bindings(Scope.APP)

    def __init__(self, load: Loader, config: Config, themes: list[Theme], *,
                 theme: str | None = None, start_file: str | None = None,
                 screen: type[MainScreen] = MainScreen, first_look: Future[FirstLook] | None = None) -> None:
        super().__init__()
        self._load = load
        """Opens the sync; runs in a worker of the main screen."""
        self._first_look = first_look
        """Opens a first look shown while ``load`` runs (``git mergetool``), or None."""
        self._screen = screen
        """The main screen's class (``QuizScreen`` for training)."""
        self.config = config
        self._themes = themes
        self._start_file = start_file
        self._initial_theme = theme or config.theme or DEFAULT_THEME
        self.load_error: str | None = None
        """Why the sync could not be opened (the app then exits with status 2)."""
        self.set_keymap(config.keys)
        self.keys = KeyGate(self, super().on_event)
        """Hands the terminal's keys on one at a time, each once the screen can take it (``keygate.py``)."""

    async def on_event(self, event: events.Event) -> None:
        """Keys from the terminal go through the gate; a key bubbling back from a widget is Textual's as usual."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            await self.keys.arrived(event)
        else:
            await super().on_event(event)

    def on_key_done(self, message: KeyDone) -> None:
        self.keys.done(message)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Toasts carry paths and commit subjects, so they are always plain text.

        Textual's widgets and screens pass ``markup=True`` on by default; that is
        overruled here, in the one place every notification goes through.
        """
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def on_notify(self, event: Notify) -> None:
        """A toast said again replaces the one on screen, and at most ``TOASTS_SHOWN`` stay (the newest).

        A hurried ``w w w`` or ``n n n`` at the end used to stack one toast per key over the hunk.
        """
        new = event.notification
        shown = [n for n in self._notifications if n is not new]
        stale = [n for n in shown if (n.message, n.title, n.severity) == (new.message, new.title, new.severity)]
        kept = [n for n in shown if n not in stale]
        stale += kept[: max(0, len(kept) - (TOASTS_SHOWN - 1))]
        for old in stale:
            self._unnotify(old, refresh=False)
        if stale:
            self._refresh_notifications()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(VARIABLE_DEFAULTS)

    def on_mount(self) -> None:
        for theme in self._themes:
            self.register_theme(theme)
        if self._initial_theme not in self.available_themes:
            self.notify(f"No theme named {self._initial_theme!r}; using {DEFAULT_THEME}.", severity="warning")
            self._initial_theme = DEFAULT_THEME
        self.theme = self._initial_theme
        self.push_screen(self._screen(self._load, self.config, self._start_file, self._first_look))
        self._first_look = None  # the screen holds it until shown

    def on_unmount(self) -> None:
        """What the main screen froze when the analysis came (``gc.freeze``) is collectable again."""
        gc.unfreeze()

    def on_load_failed(self, message: LoadFailed) -> None:
        """The sync could not be opened: leave, and let the command print why (exit 2)."""
        self.load_error = message.error
        self.exit(2)

    @property
    def theme_names(self) -> list[str]:
        return [theme.name for theme in self._themes]

    def action_cycle_theme(self) -> None:
        self.theme = next_theme(self.theme, self.theme_names)
        self.notify(f"Theme: {self.theme}")
        if self.config.path is not None:
            try:
                remember_theme(self.config.path, self.theme)
            except (OSError, ValueError) as exc:
                self.notify(f"Could not remember the theme: {exc}", severity="warning")

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        self.push_screen(HelpScreen(effective_keys(self.config.keys)))

    async def action_quit(self) -> None:
        if isinstance(self.screen, MainScreen):
            self.screen.request_quit()
        elif len(self.screen_stack) > 1:
            self.screen.dismiss(None)
        else:
            self.exit(0)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The command palette lists every workbench action that can run here, with its keys."""
        yield from action_commands(self, screen, effective_keys(self.config.keys))
        # Textual's own theme picker would bypass `t` (and its choice would be forgotten): `t` is the theme key.
        yield from (command for command in super().get_system_commands(screen) if command.title != "Theme")

    def action_help_quit(self) -> None:
        """ctrl+c: say how to quit, in plain text (Textual's own message is markup, and toasts here are plain)."""
        keys = effective_keys(self.config.keys)["quit"]
        self.notify(f"Press {display_keys(keys)} to quit the workbench.", title="Do you want to quit?")
