"""Soak: seeded random keys on the sample sync for a bounded time.

Every key the app binds (but quit and the command palette) is fair game,
including the in-app editor (typing, keeping with ctrl+s, cancelling),
writing, undo/redo, dialogs, help and themes.  After every few keys the
decisions journal must load back into a session equal to the live one; an
exception anywhere fails the test (Pilot re-raises it).

``WORKBENCH_SOAK_SECONDS`` (default 20) and ``WORKBENCH_SOAK_SEED`` (default
2026) make a run longer or different; a failure prints the seed and the keys.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable

import pytest
from textual.pilot import Pilot
from tui.pilot_tools import ready, settle

from workbench.resolve.session import Session
from workbench.sample import SampleSync
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.screens.main import MainScreen

SECONDS = float(os.environ.get("WORKBENCH_SOAK_SECONDS", "20"))
SEED = int(os.environ.get("WORKBENCH_SOAK_SEED", "2026"))
CHECK_EVERY = 8

KEYS = (
    # moving (weighted up: most of a session is moving)
    *["j", "k", "n", "p", "down", "up"] * 4, "N", "P", "pagedown", "pageup", "left", "right", "enter",
    "escape", "slash", "h",
    # deciding
    *["m", "d", "b"] * 3, "B", "M", "D", "x", "u", "u", "ctrl+r", "e", "ctrl+s", "w",
    # looking
    "a", "v", "z", "question_mark", "t",
    # typing (filter text, editor text, dialog answers)
    "o", "r", "s", "c", "1", "_", "backspace", "space",
)


def _state(session: Session) -> tuple[object, ...]:
    """Everything the journal's events define (the on-disk bookkeeping is re-read on open)."""
    return (
        dict(session._hunks),
        dict(session._file_choices),
        dict(session._notes),
        [(e.op, e.changes, e.label) for e in session._undo],
        [(e.op, e.changes, e.label) for e in session._redo],
        session.dirty_paths(),
        dict(session._baseline),
        dict(session._written),
    )


@pytest.mark.slow
def test_random_keys_never_raise_and_the_journal_replays_to_the_same_session(
    sample_in_progress: SampleSync, make_app: Callable[..., WorkbenchApp]
) -> None:
    rng = random.Random(SEED)
    app = make_app(sample_in_progress)
    pressed: list[str] = []
    checks = 0

    async def main() -> None:
        nonlocal checks
        async with app.run_test(size=(150, 42)) as pilot:
            screen = await ready(pilot)
            ws = screen.ws
            assert ws is not None
            deadline = time.monotonic() + SECONDS
            while time.monotonic() < deadline:
                key = rng.choice(KEYS)
                pressed.append(key)
                await pilot.press(key)
                assert app.is_running, f"the app exited after {pressed[-20:]}"
                if len(pressed) % CHECK_EVERY == 0:
                    await _check(pilot, ws)
                    checks += 1
            await _check(pilot, ws)
            assert isinstance(app.screen_stack[1], MainScreen)

    async def _check(pilot: Pilot[int], ws: Workspace) -> None:
        await settle(pilot)  # a write runs in a thread, journalling as it goes: compare once it is done
        session, events = ws.session, ws.journal.load()
        replayed = Session(session.analysis, events, read_blob=None)
        assert _state(replayed) == _state(session), f"seed {SEED}: journal and session differ after {pressed}"

    try:
        asyncio.run(main())
    except BaseException:
        print(f"soak failed with WORKBENCH_SOAK_SEED={SEED} after {len(pressed)} keys: {pressed}")
        raise
    decided = sum(1 for k in pressed if k in {"m", "d", "b", "B", "M", "D", "x"})
    print(f"\nsoak: {len(pressed)} keys in {SECONDS:.0f} s (seed {SEED}), {decided} decision keys, "
          f"{checks + 1} journal replays")
    assert len(pressed) > 50 and decided > 5, "the soak exercised the app"
