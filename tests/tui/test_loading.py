"""Progressive loading: the outline's file list at once, keys work while the rest loads, then the swap.

The loaders here are real (``Workspace.open`` with its progress) with a gate
after the outline, so the test decides how long "still loading" lasts; the
slow test loads a 2,000-file synthetic sync with no gate at all, and the
10,000-row test measures key latency on the virtualised list.
"""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import pace
from textual.pilot import Pilot
from textual.theme import Theme
from textual.widgets import ContentSwitcher, ProgressBar
from tui.pilot_tools import key_latency, ready

from workbench.analysis.model import ConflictKind, FileAnalysis, FileHistory, FileStatus, Mode, Side, SyncAnalysis
from workbench.sample import SampleSync
from workbench.services import worklist
from workbench.services.sync import LoadProgress, SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.dialogs.help import HelpScreen
from workbench.tui.loading import ProgressRelay, Report, Throttle, describe, fraction
from workbench.tui.screens.main import MainScreen
from workbench.tui.widgets.file_list import FileList

SIZE = (160, 45)
PRESS_SECONDS = 15.0
"""How long the slow test keeps pressing keys while the 2,000-file sync loads."""


def _gated(path: Path, gate: threading.Event) -> Callable[[Report], Workspace]:
    """A real loader that stops after the outline until ``gate`` opens."""

    def load(report: Report) -> Workspace:
        def relay(progress: LoadProgress) -> None:
            report(progress)
            if progress.phase == "outline":
                gate.wait(30)

        return Workspace.open(SyncRequest(repo=path), relay)

    return load


async def _outline(pilot: Pilot[int], timeout: float = 60.0) -> MainScreen:
    deadline = time.monotonic() + timeout
    while True:
        screen = pilot.app.screen
        if isinstance(screen, MainScreen) and screen.outline_at is not None:
            await pilot.pause()
            return screen
        if time.monotonic() > deadline:
            raise TimeoutError("no outline")
        await pilot.pause(0.02)


def _app(load: Callable[[Report], Workspace], themes: list[Theme], config: Path) -> WorkbenchApp:
    return WorkbenchApp(load, Config(path=config), themes)


def test_the_outline_is_browsable_and_the_full_analysis_keeps_the_users_file(
    sample_in_progress: SampleSync, themes: list[Theme], private_config: Path
) -> None:
    gate = threading.Event()
    app = _app(_gated(sample_in_progress.path, gate), themes, private_config)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = await _outline(pilot)
            files = screen.query_one(FileList)
            assert screen.ws is None
            assert list(files.shown_paths) == sorted(files.shown_paths), "the outline lists paths in order"
            assert all("⋯" in files.options.row_text(i) for i in range(len(files.shown_paths))), "counts pending"
            assert str(screen.query_one("#file-summary").render()).startswith("loading")
            assert screen.query_one("#views", ContentSwitcher).current == "placeholder"
            assert screen.query_one("#load-progress", ProgressBar).display
            # Moving, deciding (refused quietly), filtering and help all answer while loading.
            first = files.highlighted_path
            await pilot.press("j", "j")
            assert files.highlighted_path == files.shown_paths[2]
            await pilot.press("m", "n", "enter")
            assert screen.ws is None and screen.path is None
            await pilot.press("slash", *"rms_norm")
            assert files.shown_paths and all("rms_norm" in p for p in files.shown_paths)
            await pilot.press(*["backspace"] * 8, "escape")
            chosen = files.highlighted_path
            assert len(files.shown_paths) == len(screen.query_one(FileList).paths)
            assert chosen is not None and "rms_norm" in chosen and chosen != first
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("question_mark")
            assert app.screen_stack[-1] is screen, "help closed"
            gate.set()
            await ready(pilot)
            assert screen.ws is not None and screen.ws.analysis.complete
            assert files.highlighted_path == chosen and screen.path == chosen, "the user's file is kept"
            assert not any("⋯" in files.options.row_text(i) for i in range(len(files.shown_paths)))
            assert screen.outline_at <= screen.loaded_at
            assert "loading" not in str(screen.query_one("#file-summary").render())

    asyncio.run(main())


def test_without_a_move_the_full_analysis_opens_on_the_first_items_hunk(
    sample_in_progress: SampleSync, themes: list[Theme], private_config: Path
) -> None:
    gate = threading.Event()
    app = _app(_gated(sample_in_progress.path, gate), themes, private_config)

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = await _outline(pilot)
            gate.set()
            await ready(pilot)
            assert screen.ws is not None
            # the worklist is the way in: the first item's first open hunk (the file list then highlights its file)
            first = worklist.start_of(screen.ws, worklist.items(screen.ws)[0])
            assert first is not None and screen.path == first.path == screen.query_one(FileList).highlighted_path

    asyncio.run(main())


def test_the_loaded_analysis_is_left_out_of_full_collections_until_the_app_exits(
    sample_in_progress: SampleSync, themes: list[Theme], private_config: Path
) -> None:
    gate = threading.Event()
    app = _app(_gated(sample_in_progress.path, gate), themes, private_config)
    frozen: list[int] = []

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _outline(pilot)
            frozen.append(gc.get_freeze_count())
            gate.set()
            await ready(pilot)
            frozen.append(gc.get_freeze_count())

    gc.unfreeze()
    asyncio.run(main())
    assert frozen[0] == 0, "nothing is frozen before the analysis is in"
    assert frozen[1] > 0, "the analysis (and the app) are frozen once it is in"
    assert gc.get_freeze_count() == 0, "the app unfreezes them when it exits: a process running apps one after another keeps no garbage"


def test_progress_words_fractions_throttle_and_relay() -> None:
    assert describe(LoadProgress("files", 57, 126)) == "hunks and history: 57/126 files"
    assert describe(LoadProgress("audit_api", 1, 4)) == "API audit (2/4)"
    assert fraction(LoadProgress("files", 57, 126), 126) == (57, 130)
    assert fraction(LoadProgress("files", 90, 180), 126) == (63, 130)  # 54 paths beyond the conflicts
    assert fraction(LoadProgress("score_risk", 3, 4), 126) == (129, 130)
    heard: list[LoadProgress] = []
    throttle = Throttle(heard.append, interval=60)
    for done in range(1, 101):
        throttle(LoadProgress("files", done, 100))
    throttle(LoadProgress("score_risk", 3, 4))
    assert [p.done for p in heard] == [1, 100, 3], "first, last and every stage pass; the rest waits"
    relay = ProgressRelay()
    outline = LoadProgress("outline", 0, 3, None)
    relay(outline)
    relay(LoadProgress("files", 1, 3))
    relay(LoadProgress("files", 2, 3))
    late: list[LoadProgress] = []
    relay.attach(late.append)
    relay(LoadProgress("files", 3, 3))
    assert [(p.phase, p.done) for p in late] == [("outline", 0), ("files", 2), ("files", 3)]


# -- scale --------------------------------------------------------------------------------------


def _synthetic_outline(count: int) -> SyncAnalysis:
    """An outline of ``count`` conflicting files (no repository needed to draw the list)."""
    files = tuple(
        FileAnalysis(
            path=f"megatron/core/area{i % 37}/module_{i:05d}.py",
            status=FileStatus.THEIRS_RESOLVED,
            kind=ConflictKind.CONTENT,
            base=Side(f"megatron/core/area{i % 37}/module_{i:05d}.py", "1" * 40, 0o100644),
            dev=Side(f"megatron/core/area{i % 37}/module_{i:05d}.py", "2" * 40, 0o100644),
            main=Side(f"megatron/core/area{i % 37}/module_{i:05d}.py", "3" * 40, 0o100644),
            result_oid="3" * 40,
            result_present=True,
            hunks=(),
            history=FileHistory(),
        )
        for i in range(count)
    )
    return SyncAnalysis(Mode.PREVIEW, "2" * 40, "3" * 40, None, None, files, complete=False)


class _Keys:
    """Keys whose effect on the file list (or the screen stack) can be watched, with their latencies."""

    def __init__(self, pilot: Pilot[int], files: FileList) -> None:
        self.pilot = pilot
        self.files = files
        self.seconds: dict[str, list[float]] = {}

    def index(self) -> int:
        return self.files.options.cursor

    async def press(self, key: str, name: str | None = None) -> None:
        files, app = self.files, self.pilot.app
        before = self.index()
        query = files.filter_text
        checks: dict[str, Callable[[], bool]] = {
            "j": lambda: self.index() == min(before + 1, len(files.shown_paths) - 1),
            "k": lambda: self.index() == max(before - 1, 0),
            "pagedown": lambda: self.index() > before or before == len(files.shown_paths) - 1,
            "end": lambda: self.index() == len(files.shown_paths) - 1,
            "slash": lambda: files.filtering,
            "escape": lambda: not files.filtering,
            "backspace": lambda: files.filter_text == query[:-1].strip(),
            "question_mark": (lambda: isinstance(app.screen, HelpScreen)) if not isinstance(app.screen, HelpScreen)
            else (lambda: isinstance(app.screen, MainScreen)),
        }
        done = checks.get(key, lambda: files.filter_text == (query + key).strip())
        seconds = await key_latency(self.pilot, key, done)
        self.seconds.setdefault(name or key, []).append(seconds)

    def report(self, title: str) -> float:
        print(f"\n{title}")
        for name, values in self.seconds.items():
            values = sorted(values)
            print(f"  {name}: median {values[len(values) // 2] * 1000:.1f} ms, max {values[-1] * 1000:.1f} ms"
                  f" ({len(values)} keys)")
        return max(max(values) for values in self.seconds.values())


def test_ten_thousand_rows_move_and_filter_quickly(themes: list[Theme], private_config: Path) -> None:
    """Key latency on a 10,000-row list: from the key sent to its effect on the list."""
    release = threading.Event()
    outline = _synthetic_outline(10_000)

    def load(report: Report) -> Workspace:
        report(LoadProgress("outline", 0, len(outline.files), outline))
        release.wait(60)
        raise RuntimeError("never loads: the test only needs the outline")

    app = _app(load, themes, private_config)
    keys: _Keys | None = None

    async def main() -> None:
        nonlocal keys
        async with app.run_test(size=SIZE) as pilot:
            screen = await _outline(pilot)
            files = screen.query_one(FileList)
            assert len(files.shown_paths) == 10_000
            keys = _Keys(pilot, files)
            for key in ("j", "j", "j", "k", "pagedown", "pagedown", "end"):
                await keys.press(key)
                await pilot.pause()
            assert files.highlighted_path == files.shown_paths[-1]
            await keys.press("slash")
            for key in "42":
                await keys.press(key, "filter keystroke")
                await pilot.pause()
            assert files.shown_paths and all("42" in p for p in files.shown_paths)
            for _ in range(2):
                await keys.press("backspace", "filter backspace")
                await pilot.pause()
            assert len(files.shown_paths) == 10_000
            release.set()
            await pilot.pause(0.2)

    asyncio.run(main())
    assert keys is not None
    slowest = keys.report("key latency on 10,000 rows (key sent -> list changed):")
    assert slowest < pace.limit(1.0), f"a key took {slowest:.2f} s on 10,000 rows (load {pace.busy_factor():.1f}x)"


@pytest.mark.slow
def test_a_2000_file_sync_stays_responsive_while_it_loads(
    tmp_path: Path, themes: list[Theme], private_config: Path
) -> None:
    """A real 2,000-conflict synthetic sync, no gate: keys are answered while the analysis runs."""
    from workbench.sample.large import build_large_sync

    large = build_large_sync(tmp_path / "large", files=2000, conflicting=2000, dev_commits=20)
    request = SyncRequest(repo=large.path, dev=large.dev, main=large.main)
    app = _app(lambda report: Workspace.open(request, report), themes, private_config)
    keys: _Keys | None = None
    rounds = 0

    async def main() -> None:
        nonlocal keys, rounds
        async with app.run_test(size=SIZE) as pilot:
            screen = await _outline(pilot, timeout=120)
            files = screen.query_one(FileList)
            assert len(files.shown_paths) == len(large.conflicting)
            keys = _Keys(pilot, files)
            script = ["j", "j", "pagedown", "k", "question_mark", "question_mark", "slash", "7", "backspace", "escape"]
            pressing_until = time.monotonic() + PRESS_SECONDS
            while screen.ws is None and time.monotonic() < pressing_until:
                for key in script:
                    if screen.ws is not None:
                        break
                    await keys.press(key)
                    await asyncio.sleep(0.05)
                rounds += 1
            still_loading = screen.ws is None
            moved = files.highlighted_path
            await ready(pilot, timeout=300)
            if still_loading and moved != screen.outline_first:
                assert screen.path == moved == files.highlighted_path, "the file the user moved to is kept"

    asyncio.run(main())
    assert keys is not None and rounds >= 2, "keys were pressed while the analysis ran"
    slowest = keys.report(f"key latency while a 2,000-file sync loads ({rounds} rounds):")
    assert slowest < pace.limit(1.0), f"a key waited {slowest:.2f} s for the analysis (load {pace.busy_factor():.1f}x)"
