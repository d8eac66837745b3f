"""Fixtures for the app tests: the workbench on a real sample repository, private settings.

Every test gets its own config file and ``XDG_CONFIG_HOME`` under tmp_path,
so nothing touches the user's settings; no editor is set unless a test sets one.
Every test opens its own copy of a sample, but the analysis of an unchanged
copy is shared by the session (``analysed.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from textual.theme import Theme
from tui.analysed import SharedAnalyses

from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest, open_sync
from workbench.services.workspace import Workspace
from workbench.tui.app import WorkbenchApp
from workbench.tui.config import Config, StartPane
from workbench.tui.loading import Report
from workbench.tui.screens.main import MainScreen
from workbench.tui.themes import builtin_theme_dir, load_themes


@pytest.fixture(scope="session")
def themes() -> list[Theme]:
    return load_themes(builtin_theme_dir())


@pytest.fixture(scope="session")
def shared_analyses() -> SharedAnalyses:
    return SharedAnalyses()


@pytest.fixture(autouse=True)
def private_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Settings live under tmp_path; no editor is configured unless a test sets one."""
    config_home = tmp_path / "config-home"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config_home))
    for var in ("EDITOR", "VISUAL", "GIT_EDITOR"):
        monkeypatch.delenv(var, raising=False)
    return config_home / "workbench" / "config.toml"


@pytest.fixture
def make_app(themes: list[Theme], private_config: Path, shared_analyses: SharedAnalyses) -> Callable[..., WorkbenchApp]:
    """``make_app(sample_or_loader, **options)``: the app on a sample repository (or a loader); ``worklist=False``
    drops the analysis' worklist, so N/P and o/O move hunk by hunk (as on a first look or in a quiz);
    ``shared=False`` analyses the sample afresh, reporting its progress (the loading's own tests)."""

    def make(source: SampleSync | Callable[[], Workspace], *, config: Config | None = None,
             start_file: str | None = None, theme: str | None = None,
             screen: type[MainScreen] = MainScreen, worklist: bool = True, shared: bool = True) -> WorkbenchApp:
        if isinstance(source, SampleSync):
            path = source.path
            opener = shared_analyses.opener(path) if shared else open_sync

            def opened(report: Report) -> Workspace:
                return Workspace.open(SyncRequest(repo=path), report, opener=opener)
        else:
            plain = source

            def opened(report: Report) -> Workspace:
                return plain()

        def load(report: Report) -> Workspace:
            ws = opened(report)
            if not worklist:  # the hunk-by-hunk moves (a first look, a quiz, a sync without a worklist)
                ws.analysis = replace(ws.analysis, worklist=None)
            return ws
        # The file list first: these tests read the file list's flows; the worklist's own tests ask for it
        # (``test_worklist_app.py``), as the users' default does.
        config = config or Config(path=private_config, start=StartPane.FILES)
        return WorkbenchApp(load, config, themes, theme=theme, start_file=start_file, screen=screen)

    return make
