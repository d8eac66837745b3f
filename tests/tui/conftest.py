"""Fixtures for the app tests: the workbench on a real sample repository, private settings.

Every test gets its own config file and ``XDG_CONFIG_HOME`` under tmp_path,
so nothing touches the user's settings; no editor is set unless a test sets one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.theme import Theme

from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config
from workbench.tui.loading import Report
from workbench.tui.screens.main import MainScreen
from workbench.tui.themes import builtin_theme_dir, load_themes


@pytest.fixture(scope="session")
def themes() -> list[Theme]:
    return load_themes(builtin_theme_dir())


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings live under tmp_path; no editor is configured unless a test sets one."""
    config_home = tmp_path / "config-home"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    for var in ("EDITOR", "VISUAL", "GIT_EDITOR"):
        monkeypatch.delenv(var, raising=False)
    return config_home / "workbench" / "config.toml"


@pytest.fixture
def make_app(themes: list[Theme], private_config: Path) -> Callable[..., WorkbenchApp]:
    """``make_app(sample_or_loader, **options)``: the app on a sample repository (or a loader)."""

    def make(source: SampleSync | Callable[[], Workspace], *, config: Config | None = None,
             start_file: str | None = None, theme: str | None = None,
             screen: type[MainScreen] = MainScreen) -> WorkbenchApp:
        if isinstance(source, SampleSync):
            path = source.path

            def load(report: Report) -> Workspace:
                return Workspace.open(SyncRequest(repo=path), report)
        else:
            plain = source

            def load(report: Report) -> Workspace:
                return plain()
        return WorkbenchApp(load, config or Config(path=private_config), themes, theme=theme, start_file=start_file,
                            screen=screen)

    return make
