"""The first screen offers a built-in policy preset when the repository looks made for it and has no policy."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui.pilot_tools import drive, settle, toasts

from workbench.analysis.policy.rules import preset
from workbench.sample import RepoBuilder
from workbench.services.policy_offer import fitting_preset
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.dialogs import confirm
from workbench.tui.dialogs.confirm import ConfirmScreen
from workbench.tui.screens.main import MainScreen

MakeApp = Callable[..., WorkbenchApp]


def _repo(tmp_path: Path, with_override_files: bool, moved: frozenset[str] = frozenset(),
          missing: frozenset[str] = frozenset()) -> Path:
    """A merge in progress with one conflict, in a tree holding the preset's override list (or not); each path
    in ``moved`` a package (``x/__init__.py`` for ``x.py``), none in ``missing``."""
    b = RepoBuilder.init(tmp_path / "repo")
    rules = [r.pattern for r in preset("megatron").override_from_main] if with_override_files else []
    for path in (p for p in rules if p not in missing):
        b.write(path.removesuffix(".py") + "/__init__.py" if path in moved else path, "x = 1\n")
    b.write("pyproject.toml", '[project]\nname = "p"\nversion = "1"\n')
    b.write("app.py", "a = 1\n")
    b.commit("base")
    b.branch("upstream")
    b.write("app.py", "a = 2\n").write("pyproject.toml", '[project]\nname = "p"\nversion = "2"\n').commit("dev")
    dev = b.current_branch()
    b.checkout("upstream")
    b.write("app.py", "a = 3\n").write("pyproject.toml", '[project]\nname = "p"\nversion = "3"\n').commit("main")
    b.checkout(dev or "main")
    assert b.merge("upstream") == 1
    return b.path


def test_fitting_preset_reads_the_presets_own_list(tmp_path: Path) -> None:
    fits = _repo(tmp_path / "a", True)
    plain = _repo(tmp_path / "b", False)
    repo, analysis = open_sync(SyncRequest(repo=fits))
    fit = fitting_preset(repo, analysis)
    assert fit is not None and fit.name == "megatron" and "pyproject.toml" in fit.keep_dev
    assert set(fit.evidence) == {r.pattern for r in preset("megatron").override_from_main}
    assert fitting_preset(*open_sync(SyncRequest(repo=plain))) is None
    assert fitting_preset(*open_sync(SyncRequest(repo=fits, policy="megatron"))) is None, "a policy is configured"


def test_the_offer_survives_a_module_that_became_a_package_and_one_missing_file(tmp_path: Path) -> None:
    """Today's layout: one listed module is now a package, another is gone; the rest still say "this is it"."""
    literal = [r.pattern for r in preset("megatron").override_from_main]
    moved = _repo(tmp_path / "a", True, moved=frozenset(literal[-1:]))
    fit = fitting_preset(*open_sync(SyncRequest(repo=moved)))
    assert fit is not None and fit.name == "megatron" and set(fit.evidence) == set(literal)
    one_gone = _repo(tmp_path / "b", True, moved=frozenset(literal[-1:]), missing=frozenset(literal[:1]))
    fit = fitting_preset(*open_sync(SyncRequest(repo=one_gone)))
    assert fit is not None and set(fit.evidence) == set(literal[1:])
    most_gone = _repo(tmp_path / "c", True, missing=frozenset(literal[:2]))
    assert fitting_preset(*open_sync(SyncRequest(repo=most_gone))) is None, "two of five listed files missing"


def test_the_first_screen_offers_the_preset_and_p_applies_it(tmp_path: Path, make_app: MakeApp,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = _repo(tmp_path, True)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=path)))

    async def script(pilot: Pilot[int]) -> None:
        for _ in range(200):
            if isinstance(pilot.app.screen, ConfirmScreen):
                break
            await pilot.pause(0.05)
        dialog = pilot.app.screen
        assert isinstance(dialog, ConfirmScreen)
        await pilot.pause()
        words = str(dialog.query_one("#question").render())
        assert "megatron" in words and "no sync policy is configured" in words and "pyproject.toml" in words
        assert confirm.UNASKED_GRACE > 0
        monkeypatch.setattr(confirm, "UNASKED_GRACE", 3600.0)  # however slow the machine, these keys come before the offer can be read
        await pilot.press("n", "p", "c")  # typed for the file list as the offer came up: they answer nothing
        await pilot.pause()
        assert not dialog.answered
        assert pilot.app.screen is dialog
        said = toasts(pilot)
        assert sum("answer nothing" in m for m in said) == 1, said  # told once, not dropped without a word
        monkeypatch.setattr(confirm, "UNASKED_GRACE", 0.0)  # read: now its keys answer it
        await pilot.press("p")
        for _ in range(200):
            screen = pilot.app.screen
            if isinstance(screen, MainScreen) and screen.ws is not None and screen.ws.analysis.policy is not None:
                break
            await pilot.pause(0.05)
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen) and screen.ws is not None
        assert screen.ws.analysis.policy is not None and screen.ws.analysis.policy.name == "megatron"
        assert screen.ws.entry("pyproject.toml").policy == "keep-dev"
        await settle(pilot)

    async def main() -> None:
        async with app.run_test(size=(160, 45)) as pilot:
            await script(pilot)

    import asyncio
    asyncio.run(main())


def test_no_offer_without_the_override_files(tmp_path: Path, make_app: MakeApp) -> None:
    path = _repo(tmp_path, False)
    app = make_app(lambda: Workspace.open(SyncRequest(repo=path)))

    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot)
        await pilot.pause(0.2)
        assert isinstance(pilot.app.screen, MainScreen)

    drive(app, script)
