"""Keys one at a time, each when the screen can take it, so a burst acts as the same keys typed slowly.

Textual hands every key to the focused widget at once and runs its binding
when the key bubbles back to the app; what an action sets going (a file
prepared in a thread, a dialog being mounted, a move the file list tells the
screen by message) lands later still.  So the keys of a burst used to act on
the state before the keys ahead of them had done their work: on no hunk (the
file still opening), on the previous file's hunk, or on the screen under a
dialog that was not up yet.  ``KeyGate`` queues the keys and hands out the
next only when the one before it has been handled (a marker sent behind it
came back to the app), every widget of the screen on top has handled its
messages, and that screen does not ask it to wait (``WaitsForKeys``: the
main screen while a file opens or a command runs).  No key is dropped: a key
that cannot be queued (far too many typed ahead) is refused with a notice.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from textual import events
from textual.app import App
from textual.message import Message
from textual.message_pump import MessagePump
from textual.timer import Timer

POLL = 0.005
"""Seconds between looks while a key waits (a file opening, a dialog mounting, widgets handling messages)."""
SLOW_POLL = 0.05
"""Seconds between looks once a key has waited ``SLOW_AFTER`` (a big file, a write)."""
SLOW_AFTER = 0.2
STALE = 5.0
"""Seconds a screen whose widgets never stop handling messages is waited for before the next key goes anyway."""
LOST = 60.0
"""Seconds after which a marker whose widget is still there counts as lost (a safety net: a busy app takes
as long as it takes, and the next key must not overtake the one before it)."""
TELL_AFTER = 0.75
"""Seconds a key waits for the screen before the user is told why."""
MOST_AHEAD = 400
"""Keys typed ahead that are kept, at most; more are refused with a notice."""
UNGATED = frozenset({"ctrl+q", "ctrl+c"})
"""Keys that always go at once: quitting or its hint must work whatever the app is waiting for."""


class KeyDone(Message):
    """Sent behind a key to the widget the key was handed to: when it reaches the app, the key was handled."""

    def __init__(self, key: events.Key) -> None:
        super().__init__()
        self.key = key


@runtime_checkable
class WaitsForKeys(Protocol):
    """A screen that may ask keys to wait (the main screen)."""

    def key_wait(self, key: str) -> str | None:
        """Why ``key`` must wait now (a few words, the start of a notice), or None: it may act."""
        ...


def settling(screen: Any) -> bool:
    """Whether the screen or one of its widgets still has messages to handle: a move told by message (the file
    list's highlight) must reach the screen before the next key asks where the user is."""
    return bool(screen.message_queue_size) or any(node.message_queue_size for node in screen.walk_children())


CATCHING_UP = "The screen is catching up"
"""Why keys wait while the screen still handles messages: said only until a more telling cause is known."""


class KeyGate:
    """The app's keys, in the order typed, each handed on once the screen can take it."""

    def __init__(self, app: App[Any], deliver: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app = app
        self._deliver = deliver
        """Textual's own handling of a key from the terminal (priority bindings, then the focused widget)."""
        self._held: deque[events.Key] = deque()
        self._in_flight: KeyDone | None = None
        self._carrier: MessagePump | None = None
        """The widget (or screen) the key in flight and its marker were handed to."""
        self._sent_at = 0.0
        self._waiting_since: float | None = None
        """When the key at the head of the queue started waiting (None: it is not waiting)."""
        self._settling_since: float | None = None
        """When the screen was first seen still handling messages for the key at the head (None: it is not)."""
        self._told: str | None = None
        """Why the keys were last said to wait, in this wait (None: not said yet)."""
        self._timer: Timer | None = None

    @property
    def held(self) -> int:
        """Keys typed and not yet handed on."""
        return len(self._held)

    @property
    def idle(self) -> bool:
        """No key waits and none is being handled."""
        return not self._held and self._in_flight is None

    async def arrived(self, key: events.Key) -> None:
        """A key from the terminal."""
        if key.key in UNGATED:
            await self._deliver(key)
            return
        if len(self._held) >= MOST_AHEAD:
            self._app.notify(f"{MOST_AHEAD} keys are already waiting: {key.key} was ignored.", severity="warning")
            return
        self._held.append(key)
        await self.pump()

    def done(self, marker: KeyDone) -> None:
        """A marker came back: the key ahead of it was handled.  The next goes after what that key's action
        queued for the app itself (``focus()`` moves the focus in a callback: a key handed on before it would
        go to the widget that had the focus)."""
        if marker is self._in_flight:
            self._in_flight = None
            self._app.call_later(self.pump)

    async def pump(self) -> None:
        """Hand on the keys that may go now, one at a time; look again later for the rest."""
        while self._held and self._app.screen_stack:  # (no screen: the app is closing)
            now = time.monotonic()
            if self._in_flight is not None:
                carrier = self._carrier
                if carrier is not None and carrier.is_attached and now - self._sent_at < LOST:
                    self._look_later(now, SLOW_POLL)  # its marker will call again (or its widget go away)
                    return
                self._app.log.warning(f"key {self._in_flight.key.key!r}: its marker never came back")
                self._in_flight = None
            why = self._why_wait(self._held[0].key, now)
            if why is not None:
                self._tell(why, now)
                self._look_later(now)
                return
            key = self._held.popleft()
            self._waiting_since = self._settling_since = None
            await self._deliver(key)
            target = self._app.focused or self._app.screen
            marker = KeyDone(key)
            if target.post_message(marker):
                self._in_flight, self._carrier, self._sent_at = marker, target, time.monotonic()
        self._told = None

    def _why_wait(self, key: str, now: float) -> str | None:
        screen = self._app.screen
        if self._waiting_since is None:
            self._waiting_since = now
        why = "The dialog is opening" if not screen.is_mounted else (
            screen.key_wait(key) if isinstance(screen, WaitsForKeys) else None)
        if why is not None:
            self._settling_since = None
            return why
        if not settling(screen):
            return None
        if self._settling_since is None:
            self._settling_since = now
        if now - self._settling_since < STALE:
            return CATCHING_UP
        self._app.log.warning(f"key {key!r}: the screen kept handling messages; it goes anyway")
        return None

    def _tell(self, why: str, now: float) -> None:
        """Say why keys wait, once per wait, when the wait is long enough to notice; a busy screen's general
        word is followed once by the cause it turns into (on a loaded machine the screen may be busy first)."""
        if self._waiting_since is None or now - self._waiting_since < TELL_AFTER:
            return
        if self._told is not None and (self._told != CATCHING_UP or why == CATCHING_UP):
            return
        self._told = why
        count = len(self._held)
        keys = "the key you typed acts" if count == 1 else f"the {count} keys you typed act, in order,"
        self._app.notify(f"{why}: {keys} once it is done.")

    def _look_later(self, now: float, interval: float | None = None) -> None:
        if self._timer is not None:
            return
        waited = now - (self._waiting_since or now)
        interval = interval or (SLOW_POLL if waited > SLOW_AFTER else POLL)

        async def look() -> None:
            self._timer = None
            await self.pump()

        self._timer = self._app.set_timer(interval, look)
