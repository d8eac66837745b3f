"""How fast the workbench feels on a real sync: Megatron-LM #4291.

Run: ``MEGATRON_GIT=/path/to/Megatron-LM uv run python tests/benchmarks/app_speed.py``
(skips, exit 0, without MEGATRON_GIT).  Measures, as a user would feel it:

* time from start (before Textual is imported) to the file list on screen,
  with the analysis started early in a thread exactly as ``workbench open`` does;
* time to re-render after moving between hunks of
  ``megatron/training/arguments.py`` (``n``/``p`` with Pilot), median of N.

Not a test: it prints figures, it asserts nothing about time.
"""

from __future__ import annotations

import time

START = time.monotonic()

import asyncio  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

SYNC = "66e55f9884"
FILE = "megatron/training/arguments.py"
MOVES = 40


def main() -> int:
    repo = os.environ.get("MEGATRON_GIT")
    if not repo or not Path(repo).is_dir():
        print("skipped: set MEGATRON_GIT to a Megatron-LM clone")
        return 0
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="workbench-bench-config-")
    from workbench.sync import SyncRequest
    from workbench.tui.workspace import Workspace

    request = SyncRequest(repo=repo, rev=SYNC)
    pool = ThreadPoolExecutor(max_workers=1)
    future = pool.submit(Workspace.open, request)
    file_list = asyncio.run(_time_to_file_list(future.result))
    print(f"file list on screen: {file_list:.2f} s after start (analysis in a thread from the first line)")
    analysis_start = time.perf_counter()
    Workspace.open(request)
    print(f"analysis alone (open_sync + journal + disk state): {time.perf_counter() - analysis_start:.2f} s")
    moves = asyncio.run(_hunk_moves(lambda: Workspace.open(request)))
    print(f"moving between hunks of {FILE}: median {statistics.median(moves) * 1000:.1f} ms, "
          f"max {max(moves) * 1000:.1f} ms over {len(moves)} moves")
    return 0


def _app(load, start_file=None):  # noqa: ANN001, ANN202
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.config import Config
    from workbench.tui.themes import builtin_theme_dir, load_themes

    return WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), start_file=start_file)


async def _time_to_file_list(load) -> float:  # noqa: ANN001
    app = _app(load)
    async with app.run_test(size=(160, 45)) as pilot:
        while getattr(app.screen, "loaded_at", None) is None:
            await pilot.pause(0.01)
        await pilot.pause()
        return app.screen.loaded_at - START


async def _hunk_moves(load) -> list[float]:  # noqa: ANN001
    app = _app(load, FILE)
    timings: list[float] = []
    async with app.run_test(size=(160, 45)) as pilot:
        screen = app.screen
        while getattr(screen, "view", None) is None or screen.current is None:
            await pilot.pause(0.02)
        await pilot.pause(0.2)
        hunks = len(screen.ws.entry(FILE).hunks)
        keys = (["n"] * (hunks - 1) + ["p"] * (hunks - 1)) * (MOVES // max(1, 2 * (hunks - 1)) + 1)
        for key in keys[:MOVES]:
            before = screen.current
            start = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            app.screen._compositor.render_update(full=True)  # paint, as a terminal refresh would
            timings.append(time.perf_counter() - start)
            assert screen.current != before and screen.path == FILE
    return timings


if __name__ == "__main__":
    sys.exit(main())
