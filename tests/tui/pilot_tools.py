"""Driving the app in tests: wait until it is loaded, let workers settle, run a script."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from textual import events
from textual.app import App
from textual.notifications import Notification
from textual.pilot import Pilot

from workbench.services.workspace import Position, Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.main import MainScreen

SIZE = (160, 45)
Script = Callable[[Pilot[int]], Awaitable[None]]


async def ready(pilot: Pilot[int], timeout: float = 20.0) -> MainScreen:
    """Wait until the sync is loaded and a file is drawn, its opening hunk scrolled to (that waits for layout)."""
    deadline = time.monotonic() + timeout
    while True:
        screen = pilot.app.screen
        if isinstance(screen, MainScreen) and screen.ws is not None and screen.view is not None:
            if screen.view.layout is None or screen.current_hunk_on_screen():
                await pilot.pause()
                return screen
        if time.monotonic() > deadline:
            raise TimeoutError("the workbench did not finish loading")
        await pilot.pause(0.02)


async def settle(pilot: Pilot[int], timeout: float = 20.0) -> None:
    """Let the keys typed ahead act, workers finish, a file being opened reach its hunk, and messages drain (or
    stop when a dialog waits for an answer): a state to wait for, not a time."""
    deadline = time.monotonic() + timeout
    app = pilot.app
    await pilot.pause()
    while isinstance(app, WorkbenchApp) and (not app.keys.idle or app.message_queue_size):  # keys still to act
        if time.monotonic() > deadline:
            raise TimeoutError(f"{app.keys.held} keys still wait")
        await asyncio.sleep(0.01)
    while True:
        await pilot.pause()
        screen = pilot.app.screen
        if not isinstance(screen, MainScreen):
            await pilot.pause()
            return
        busy: list[object] = [w for w in pilot.app.workers if w.is_running]
        if isinstance(app, WorkbenchApp) and not app.keys.idle:
            busy.append(f"{app.keys.held} keys")
        if screen.opening:
            busy.append(f"opening {screen.path}")
        if not busy:
            await pilot.pause()
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"still busy: {busy}")
        await asyncio.sleep(0.02)


def drive(app: WorkbenchApp, script: Script, size: tuple[int, int] = SIZE) -> None:
    """Run ``script`` against the loaded app, headless."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await ready(pilot)
            await script(pilot)

    asyncio.run(main())


async def key_latency(pilot: Pilot[int], key: str, done: Callable[[], bool], timeout: float = 30.0) -> float:
    """Seconds from sending ``key`` until ``done()`` holds: how long the app took to act on it.

    Pilot's ``press`` waits for the *process* to go idle, which never happens
    while a loading thread computes; this sends the key as the terminal
    driver would and watches for its effect instead.
    """
    import unicodedata

    from textual.keys import _get_unicode_name_from_key

    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        char = key if len(key) == 1 else None
    start = time.perf_counter()
    send_key(pilot, key, char)
    while not done():
        if time.perf_counter() - start > timeout:
            raise TimeoutError(f"the app did not act on {key!r}")
        await asyncio.sleep(0.001)
    return time.perf_counter() - start



def screen_text(app: App[int]) -> list[str]:
    """The terminal's rows as text, read from the app's own screenshot (what a user sees, colour aside)."""
    import html
    import re

    from rich.cells import cell_len

    spans = re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>([^<]*)</text>',
                        app.export_screenshot())
    rows: dict[float, list[tuple[float, str]]] = {}
    cell = 0.0
    for match in spans:
        text = html.unescape(match.group(4)).replace("\xa0", " ").replace("\n", "")
        if text and not cell:
            cell = float(match.group(3)) / cell_len(text)
        rows.setdefault(float(match.group(2)), []).append((float(match.group(1)), text))
    out = []
    for _y, row in sorted(rows.items()):
        line = ""
        for x, text in sorted(row):
            line = line.ljust(round(x / cell)) + text
        out.append(line)
    return out


def loaded(screen: MainScreen) -> Workspace:
    """The workspace of a screen a test waited for (``ready``): its analysis is on screen."""
    assert screen.ws is not None, "the sync is not loaded yet"
    return screen.ws


def at(screen: MainScreen) -> tuple[str, int]:
    """The file on screen and the hunk decisions act on (a test expects the cursor on a hunk)."""
    assert screen.path is not None and screen.current is not None, "the cursor is on no hunk"
    return screen.path, screen.current


def place(screen: MainScreen) -> Position:
    """Where the cursor is: the file on screen and its hunk (None: a whole-file choice)."""
    assert screen.path is not None, "no file is on screen"
    return Position(screen.path, screen.current)


def main_screen(pilot: Pilot[int]) -> MainScreen:
    """The app's current screen, which a test expects to be the main one."""
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    return screen


def notifications(pilot: Pilot[int]) -> list[Notification]:
    """Every notification so far (Textual keeps them in a private list: this is the one place that reads it)."""
    return list(pilot.app._notifications)


def toasts(pilot: Pilot[int]) -> list[str]:
    """Every notification's text so far."""
    return [n.message for n in notifications(pilot)]


def send_key(pilot: Pilot[int], key: str, char: str | None) -> None:
    """Send a key as the terminal driver would, without waiting for the app to go idle (Textual's driver is
    private: this is the one place that reaches it)."""
    driver = pilot.app._driver
    assert driver is not None
    driver.send_message(events.Key(key, char))
