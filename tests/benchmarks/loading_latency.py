"""Whether the app stays responsive while a large sync loads: key latency during the analysis.

Run: ``uv run python tests/benchmarks/loading_latency.py`` (about two minutes).
It builds the synthetic large sync (``workbench/sample/large.py``,
BENCH_LOADING_FILES conflicting files, default 2,000; BENCH_LARGE_REPO=PATH
reuses one built before, with its ``dev`` and ``main`` branches), starts
loading it exactly as ``workbench open`` does (``launch.start_loading``: the
analysis in a forked process where a second core allows), and, from the
moment the outline's file list is on screen until the full analysis is,
moves down the file list, as ``j`` does, at a person's pace (every 50 ms):

* action to painted frame: from running the list's ``cursor_down`` to the
  frame painted with every message handled, median and maximum over the
  moves made while the analysis was still running.

The issue's goal is a median under 50 ms.  Not a test: it prints figures, it
asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.tui.screens.main import Loader

FILES = int(os.environ.get("BENCH_LOADING_FILES", "2000"))
PACE = 0.05
"""Seconds between two moves (a key held down repeats about this fast)."""
WAIT = 900.0


def main() -> int:
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="workbench-bench-config-")
    reuse = os.environ.get("BENCH_LARGE_REPO")
    with tempfile.TemporaryDirectory(prefix="workbench-loading-") as tmp:
        if reuse:
            path, dev, main_ = Path(reuse), "dev", "main"
            print(f"synthetic large sync (reused): {path}")
        else:
            from workbench.sample.large import build_large_sync

            start = time.perf_counter()
            large = build_large_sync(Path(tmp) / "large", files=FILES, conflicting=FILES)
            path, dev, main_ = large.path, large.dev, large.main
            print(f"synthetic large sync: {len(large.conflicting)} conflicting files, {large.conflict_hunks} "
                  f"conflict hunks (built in {time.perf_counter() - start:.0f} s)")
        from workbench.services.sync import SyncRequest
        from workbench.tui.launch import start_loading

        started = time.perf_counter()
        load = start_loading(SyncRequest(repo=str(path), dev=dev, main=main_, cache=False))
        moves, files, outline, full = asyncio.run(_moves_while_loading(load, started))
    print(f"  outline's file list on screen: {outline:.1f} s after start; full analysis: {full:.1f} s")
    if not moves:
        print("  no move was made while loading (the analysis came before the list could be moved)")
        return 0
    print(f"  moving down the list of {files} files while the analysis ran ({len(moves)} moves, one every "
          f"{PACE * 1000:.0f} ms):")
    print(f"    action to painted frame: median {statistics.median(moves) * 1000:.1f} ms, "
          f"max {max(moves) * 1000:.1f} ms")
    return 0


async def _moves_while_loading(load: Loader, started: float) -> tuple[list[float], int, float, float]:
    """Seconds per move made between the outline and the full analysis on screen, the list's length,
    and when each of the two was on screen (seconds after ``started``)."""
    from app_speed import _app, _main_screen, _settled

    from workbench.tui.widgets.file_list import FileList

    app = _app(load)
    moves: list[float] = []
    end = time.monotonic() + WAIT
    async with app.run_test(size=(160, 45)) as pilot:
        while (screen := _main_screen(app)) is None or screen.outline_at is None:
            if time.monotonic() > end:
                raise SystemExit("loading_latency: the outline never came")
            await asyncio.sleep(0.01)
        outline = time.perf_counter() - started
        files = len(screen.query_one(FileList).shown_paths)
        options = screen.query_one(FileList).options
        while screen.loaded_at is None:
            if time.monotonic() > end:
                raise SystemExit("loading_latency: the full analysis never came")
            if options.highlighted is not None and options.highlighted + 1 >= files:
                options.highlighted = 0
            start = time.perf_counter()
            await options.run_action("cursor_down")
            await pilot._wait_for_screen()
            screen._on_timer_update()
            if screen.loaded_at is None:  # only moves made while the analysis still ran count
                moves.append(time.perf_counter() - start)
            await asyncio.sleep(PACE)
        await _settled(app, screen)
        full = time.perf_counter() - started
    return moves, files, outline, full


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    sys.exit(main())
