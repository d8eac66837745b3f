"""Export the user guide's screenshots (docs/img/*.svg) from the real app on the demo sample.

Run: ``uv run python docs/screenshots.py``.  Each picture is what Textual
itself draws, at 150x42, after the keys listed beside it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from textual.pilot import Pilot

IMG = Path(__file__).resolve().parent / "img"
SIZE = (150, 42)
LAYER = "megatron/core/transformer/transformer_layer.py"
CONFLICTED = "megatron/core/optimizer/distrib_optimizer.py"
"""A file a plain ``git merge main`` of the sample's dev leaves conflicted (git mergetool's kind of file)."""
SHOTS: list[tuple[str, str | None, str | None, tuple[str, ...]]] = [
    ("overview", None, None, ()),
    ("hunk-decided", LAYER, None, ("b",)),
    ("base-column", LAYER, None, ("a",)),
    ("both-diffs", LAYER, None, ("D", "v")),
    ("whole-file", "docs/source/images/moe/token_dispatch.png", None, ()),
    ("commit-diff", LAYER, None, ("h", "enter")),
    ("help", None, None, ("question_mark",)),
    ("light-theme", LAYER, "workbench-light", ()),
    ("zoomed", LAYER, None, ("f",)),
]
NARROW_SHOTS: list[tuple[str, str | None, tuple[str, ...], tuple[int, int]]] = [
    ("inline", LAYER, ("f",), (80, 24)),
]
"""Pictures at a terminal size of their own: the inline view is what 80 columns get by default."""


async def _shoot(repo: Path, name: str, start_file: str | None, theme: str | None, keys: tuple[str, ...],
                 size: tuple[int, int] = SIZE) -> None:
    from workbench.services.sync import SyncRequest
    from workbench.services.workspace import Workspace
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.config import Config
    from workbench.tui.screens.main import MainScreen
    from workbench.tui.themes import builtin_theme_dir, load_themes

    app = WorkbenchApp(lambda report: Workspace.open(SyncRequest(repo=repo), report), Config(), load_themes(builtin_theme_dir()),
                       theme=theme, start_file=start_file)
    async with app.run_test(size=size) as pilot:
        await _ready(pilot, MainScreen)
        for key in keys:
            await pilot.press(key)
            await _idle(pilot)
        await _idle(pilot)
        app.save_screenshot(f"{name}.svg", str(IMG))


async def _ready(pilot: Pilot, main: type) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        screen = pilot.app.screen
        if isinstance(screen, main) and screen.view is not None and (screen.view.layout is None or screen.current is not None):
            return
        await pilot.pause(0.05)
    raise TimeoutError("the app did not load")


async def _idle(pilot: Pilot) -> None:
    for _ in range(50):
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers if w.group != "write"):
            break
    await pilot.pause(0.1)


async def _shoot_first_look(name: str) -> None:
    """docs/mergetool.md's picture: git mergetool's first look at a conflicted file, its evidence still being read."""
    import subprocess
    import threading

    from workbench.errors import WorkbenchError
    from workbench.sample import build_sample_sync
    from workbench.services.mergetool_file import FIRST_LOOK_PENDING, first_look, read_mergetool
    from workbench.services.workspace import Workspace
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.config import Config
    from workbench.tui.launch import start_first_look
    from workbench.tui.loading import Report
    from workbench.tui.screens.main import MainScreen
    from workbench.tui.themes import builtin_theme_dir, load_themes

    repo = Path(tempfile.mkdtemp(prefix="workbench-shots-")) / "megatron-sample"
    build_sample_sync(repo, "branches")
    subprocess.run(["git", "-c", "user.name=shots", "-c", "user.email=shots@example.com", "merge", "--no-edit", "main"],
                   cwd=repo, capture_output=True, check=False)  # stops on the conflicts
    listed = subprocess.run(["git", "checkout-index", "--stage=all", "--temp", "--", CONFLICTED], cwd=repo,
                            capture_output=True, check=True).stdout.decode()
    base, local, remote = (str(repo / n) for n in listed.split("\t")[0].split())
    given = read_mergetool(base, local, remote, str(repo / CONFLICTED))
    evidence = threading.Event()

    def load(_report: Report) -> Workspace:
        evidence.wait(60)  # the picture is taken while the merge's evidence is still "being read"
        raise WorkbenchError("the picture is taken")

    look = start_first_look(lambda: Workspace.first_look(*first_look(given), FIRST_LOOK_PENDING))
    app = WorkbenchApp(load, Config(), load_themes(builtin_theme_dir()), first_look=look)
    async with app.run_test(size=SIZE) as pilot:
        await _ready(pilot, MainScreen)
        await pilot.pause(0.3)
        app.save_screenshot(f"{name}.svg", str(IMG))
        evidence.set()


QUIZ_SHOTS: list[tuple[str, tuple[str, ...]]] = [
    ("training-reveal", ("m", "r")),
    ("training-score", ("m", "n", "d", "s")),
]
"""docs/training.md's pictures: the quiz on sample:squash-chain-dev-ahead after these keys."""


async def _shoot_quiz(name: str, keys: tuple[str, ...]) -> None:
    from workbench.services.exercises import build_sample_exercise
    from workbench.services.workspace import Workspace
    from workbench.tui.app import WorkbenchApp
    from workbench.tui.config import Config
    from workbench.tui.screens.quiz import QuizScreen
    from workbench.tui.themes import builtin_theme_dir, load_themes

    path, merge, result = build_sample_exercise(
        "squash-chain-dev-ahead", Path(tempfile.mkdtemp(prefix="workbench-shots-")) / "repo")
    app = WorkbenchApp(lambda report: Workspace.open_quiz(path, merge, result, "ana", "sample:squash-chain-dev-ahead"),
                       Config(), load_themes(builtin_theme_dir()), screen=QuizScreen)
    async with app.run_test(size=SIZE) as pilot:
        await _ready(pilot, QuizScreen)
        for key in keys:
            await pilot.press(key)
            await _idle(pilot)
        await _idle(pilot)
        app.save_screenshot(f"{name}.svg", str(IMG))


def main() -> int:
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="workbench-shots-")
    from workbench.sample import build_sample_sync

    IMG.mkdir(exist_ok=True)
    for name, start_file, theme, keys in SHOTS:
        repo = Path(tempfile.mkdtemp(prefix="workbench-shots-")) / "megatron-sample"
        build_sample_sync(repo, "in-progress")
        asyncio.run(_shoot(repo, name, start_file, theme, keys))
        print(f"docs/img/{name}.svg")
    for name, start_file, keys, size in NARROW_SHOTS:
        repo = Path(tempfile.mkdtemp(prefix="workbench-shots-")) / "megatron-sample"
        build_sample_sync(repo, "in-progress")
        asyncio.run(_shoot(repo, name, start_file, None, keys, size))
        print(f"docs/img/{name}.svg")
    asyncio.run(_shoot_first_look("mergetool-first-look"))
    print("docs/img/mergetool-first-look.svg")
    for name, keys in QUIZ_SHOTS:
        os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="workbench-shots-")
        asyncio.run(_shoot_quiz(name, keys))
        print(f"docs/img/{name}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
