"""How fast the workbench feels on a real sync: Megatron-LM #4291.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/app_speed.py``
(skips, exit 0, without MEGATRON_GIT).  ``BENCH_IN_PROGRESS=PATH`` opens the
merge in progress there instead (a clone of it with dev, 7ff046b1c8, checked
out and ``git merge 28e13c484b`` stopped on the conflicts; the merge commit
is not named).  Measures, as a user would feel it:

* with a fresh analysis cache, twice in new processes (cold, then warm), and
  against ``git merge-tree --write-tree`` timed in the same run:
  time from start (before Textual is imported) to the outline's file list on
  screen (paths and kinds, counts pending), and to the full analysis on screen
  (hunks, history, risk), with the analysis started early in a thread exactly
  as ``workbench open`` does (``launch.start_loading``);
* time to re-render after moving between hunks of
  ``megatron/training/arguments.py`` (``n``/``p`` with Pilot), median of N:
  wall time from the action to the painted frame, and CPU time of a real
  key press (Pilot's ``press`` itself sleeps while waiting for idle, so its
  wall time says nothing about the app).

Megatron-LM fits the ``megatron`` policy preset and the benchmark configures
no policy, so once the analysis is in the app offers the preset in a
``ConfirmScreen`` over the ``MainScreen`` (``tui/actions/preset.py``).  The
timings read the ``MainScreen`` from the screen stack, not ``app.screen``
(the offer comes up once the full analysis is painted, so it is not in
those figures); before moving between hunks the offer is answered as a user
would, with its "Continue without" key (``c``), so the keys reach the
main screen.  Every wait has a deadline (``WAIT``) and fails naming what it
waited for.

Not a test: it prints figures, it asserts nothing about time.  Where the
environment sets PYTHONDONTWRITEBYTECODE, run it once without it first: a
user's install has bytecode caches, and otherwise every start times the compiler.
"""

from __future__ import annotations

import time

START = time.monotonic()

import asyncio  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # the benchmark imports the app's modules late, as the app does
    from textual.pilot import Pilot

    from workbench.tui.app import WorkbenchApp
    from workbench.tui.screens.main import Loader, MainScreen

SYNC = "66e55f9884"
DEV, MAIN = "7ff046b1c8b976ff33761976796c4302ebd0a7bc", "28e13c484bd9cdc3eca24d3d8ab2d88c437e3bf2"
FILE = "megatron/training/arguments.py"
MOVES = 40
WAIT = 600.0
"""Seconds any one wait may take (a cold analysis of the sync included) before the benchmark fails."""


def main() -> int:
    stopped = os.environ.get("BENCH_IN_PROGRESS")
    repo = stopped or os.environ.get("MEGATRON_GIT")
    if not repo or not Path(repo).is_dir():
        print("skipped: set MEGATRON_GIT to a Megatron-LM clone")
        return 0
    role = os.environ.get(_CHILD)
    if role is None:
        return _parent(repo)
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="workbench-bench-config-")
    from workbench.services.sync import SyncRequest, look_up
    from workbench.services.workspace import Workspace
    from workbench.tui.launch import start_loading

    git = float(os.environ[_GIT_SECONDS])
    request = SyncRequest(repo=repo, rev=None if stopped else SYNC)
    load = start_loading(request)
    outline, full = asyncio.run(_time_to_file_list(load))
    print(f"{role}:")
    print(f"  outline's file list on screen: {outline:.2f} s after start ({outline / git:.1f}x merge-tree)")
    print(f"  full analysis on screen:       {full:.2f} s after start ({full / git:.1f}x merge-tree)")
    if role != _ROLES[0]:
        return 0
    deadline = time.monotonic() + WAIT
    while not look_up(request).cached:  # stored behind the app, once it had the answer
        if time.monotonic() > deadline:
            raise Timeout("app_speed: the cold start never stored its analysis")
        time.sleep(0.02)
    analysis_start = time.perf_counter()
    Workspace.open(request)
    print(f"  analysis alone (open_sync + journal + disk state, now cached): {time.perf_counter() - analysis_start:.2f} s")
    wall, cpu = asyncio.run(_hunk_moves(lambda report: Workspace.open(request, report)))
    print(f"  moving between hunks of {FILE} ({len(wall)} + {len(cpu)} moves):")
    print(f"    action to painted frame: median {statistics.median(wall) * 1000:.1f} ms, max {max(wall) * 1000:.1f} ms")
    print(f"    CPU per key press + paint: median {statistics.median(cpu) * 1000:.1f} ms, max {max(cpu) * 1000:.1f} ms")
    return 0


_CHILD = "WORKBENCH_BENCH_APP_ROLE"
_GIT_SECONDS = "WORKBENCH_BENCH_MERGE_TREE_SECONDS"
_ROLES = ("cold start (empty cache)", "warm start (the analysis cached by the cold start)")


def _parent(repo: str) -> int:
    """Time git merge-tree, then start the app twice in fresh processes sharing one new cache."""
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(["git", "merge-tree", "--write-tree", DEV, MAIN], cwd=repo, capture_output=True, check=False)
        runs.append(time.perf_counter() - start)
    git = statistics.median(runs)
    try:
        load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    print(f"git merge-tree --write-tree: median {git:.3f} s (load average {load} on {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory(prefix="workbench-bench-cache-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update({"XDG_CACHE_HOME": cache, _GIT_SECONDS: str(git)})
        for role in _ROLES:
            subprocess.run([sys.executable, __file__], env={**env, _CHILD: role}, check=True)
    return 0


def _app(load: Loader, start_file: str | None = None) -> WorkbenchApp:
    """The app as ``launch.run_app`` makes it (its modules imported the same way), with default settings."""
    from workbench.tui.launch import loading_modules

    with loading_modules():
        from workbench.tui.app import WorkbenchApp
        from workbench.tui.config import Config
        from workbench.tui.themes import builtin_theme_dir, load_themes

    return WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), start_file=start_file)


class Timeout(RuntimeError):
    """A wait ran out of time: the app never showed what the benchmark waited for."""


def _deadline(what: str, seconds: float = WAIT) -> Callable[[], None]:
    """A check to call in a wait loop: raises ``Timeout`` naming ``what`` after ``seconds``."""
    end = time.monotonic() + seconds

    def check() -> None:
        if time.monotonic() > end:
            raise Timeout(f"app_speed: gave up after {seconds:.0f} s waiting for {what}")

    return check


def _main_screen(app: WorkbenchApp) -> MainScreen | None:
    """The MainScreen in the app's screen stack (a dialog such as the preset offer may be above it), or None."""
    from workbench.tui.screens.main import MainScreen

    return next((screen for screen in reversed(app.screen_stack) if isinstance(screen, MainScreen)), None)


def _resolver(future: asyncio.Future[None]) -> Callable[[], None]:
    """A plain function resolving ``future``: Textual reads the signature of every callback it invokes, and a
    builtin's (``future.set_result``) is parsed from text, about a millisecond per node: the probe would time itself."""

    def resolve() -> None:
        future.set_result(None)

    return resolve


async def _settled(app: WorkbenchApp, screen: MainScreen) -> None:
    """Every message queued so far for the app and ``screen``'s widgets handled.

    ``Pilot._wait_for_screen`` for a screen that may not be on top: once the analysis is in, the
    preset offer may already cover the main screen, and it is the main screen's frame that is timed."""
    loop = asyncio.get_running_loop()
    handled: list[asyncio.Future[None]] = []
    for node in (app, *screen.walk_children(with_self=True)):
        future: asyncio.Future[None] = loop.create_future()
        if node.call_later(_resolver(future)):
            handled.append(future)
    try:
        await asyncio.wait_for(asyncio.gather(*handled), timeout=30)
    except TimeoutError:
        raise Timeout("app_speed: gave up after 30 s waiting for the main screen to handle its queued messages") from None


async def _time_to_file_list(load: Loader) -> tuple[float, float]:
    """(outline, full) seconds from START to each file list painted."""
    app = _app(load)
    outline = None
    async with app.run_test(size=(160, 45)):
        check = _deadline("the full analysis on the main screen (MainScreen.loaded_at)")
        while (screen := _main_screen(app)) is None or screen.loaded_at is None:
            check()
            if outline is None and screen is not None and screen.outline_at is not None:
                await _settled(app, screen)
                outline = time.monotonic() - START
            await asyncio.sleep(0.005)
        await _settled(app, screen)
        full = time.monotonic() - START
        if screen.outline_at is None:  # a cached analysis arrives whole: its list is the first one
            return full, full
        return outline if outline is not None else screen.outline_at - START, full


async def _decline_preset_offer(app: WorkbenchApp, pilot: Pilot[int], screen: MainScreen) -> None:
    """Answer the preset offer, if the screen makes one, with its "Continue without" key, as a user would.

    The offer is a worker of the main screen (group ``preset``, started once the analysis is painted)
    that pushes a ``ConfirmScreen``; it is made when ``fitting_preset`` finds one and no policy was
    asked for.  Done when it has been answered, its worker has finished and the main screen is on top."""
    from workbench.services.policy_offer import fitting_preset
    from workbench.tui.dialogs.confirm import ConfirmScreen

    ws = screen.ws
    assert ws is not None, "called once the analysis is on screen"
    pending = ws.request is not None and ws.request.policy is None and fitting_preset(ws.repo, ws.analysis) is not None
    check = _deadline("the preset offer to be answered and the main screen back on top")
    while (pending or any(worker.group == "preset" and not worker.is_finished for worker in app.workers)
           or app.screen is not screen):
        check()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("c")
            pending = False
        await pilot.pause(0.02)


async def _hunk_moves(load: Loader) -> tuple[list[float], list[float]]:
    """(wall, cpu) seconds per move between the file's hunks, bouncing between its ends.

    wall: from running the action to the frame painted, with every message
    handled (Pilot's own idle sleeps left out); cpu: process time for a real
    key press through Textual's key handling, plus the paint.
    """
    from workbench.services.workspace import Position

    app = _app(load, FILE)
    wall: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        check = _deadline(f"{FILE} open on the main screen (MainScreen.view and .current)")
        while (screen := _main_screen(app)) is None or screen.view is None or screen.current is None:
            check()
            await pilot.pause(0.02)
        await _decline_preset_offer(app, pilot, screen)
        screen.go(Position(FILE, 0))
        await pilot.pause(0.2)
        assert screen.ws is not None
        last = len(screen.ws.entry(FILE).hunks) - 1
        step = +1
        for k in range(2 * MOVES):
            if not 0 <= screen.current + step <= last:
                step = -step
            action, key = ("next_hunk", "n") if step > 0 else ("prev_hunk", "p")
            before = screen.current
            if k % 2 == 0:
                start = time.perf_counter()
                await screen.run_action(action)
                await pilot._wait_for_screen()
                screen._on_timer_update()
                wall.append(time.perf_counter() - start)
            else:
                start = time.process_time()
                await pilot.press(key)
                screen._on_timer_update()
                cpu.append(time.process_time() - start)
            assert screen.current == before + step and screen.path == FILE
    return wall, cpu


if __name__ == "__main__":
    sys.exit(main())
