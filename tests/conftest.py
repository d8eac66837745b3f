"""Fixtures for the whole suite: a sealed git setup, a repo builder, and the demo sample.

Every test runs as if on a fresh machine: git and libgit2 read no global,
XDG or system config (pygit2 issue #989, gitui's ``sandbox_config_files``),
commits get a fixed identity and date, and HOME is an empty directory that
must still be empty when the session ends (pre-commit's
``dont_write_to_home_directory``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from workbench.sample import RepoBuilder, SampleSync, build_sample_sync
from workbench.sample.builder import EPOCH, isolated_env
from workbench.sample.scenarios import SampleState

_SEALED_LEVELS = (ConfigLevel.GLOBAL, ConfigLevel.XDG, ConfigLevel.SYSTEM)
Template = Callable[[SampleState], SampleSync]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the app tests first (in their usual order), then the rest.

    pytest-xdist hands tests out in collection order and the app tests are the
    longest ones: left to the end of the run (``tests/tui`` sorts last), one
    worker still drives apps while the other has run out of work.  With the
    short tests last, the workers finish together.  Every worker sorts the same
    way, so the collections still agree.
    """
    items.sort(key=lambda item: item.path.parent.name != "tui")


@pytest.fixture(autouse=True, scope="session")
def dont_write_to_home_directory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point HOME (and the XDG dirs under it) at an empty directory; fail if a test writes there."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(home))
        for var, sub in (
            ("XDG_CONFIG_HOME", ".config"),
            ("XDG_DATA_HOME", ".local/share"),
        ):
            mp.setenv(var, str(home / sub))
        # The analysis cache's secret (``$XDG_STATE_HOME/workbench/cache-key``), one for the session, outside HOME.
        mp.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        # The analysis cache of session- and module-wide fixtures (each test gets its own: isolated_cache).
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("session-cache")))
        yield home
    written = sorted(str(p.relative_to(home)) for p in home.rglob("*"))
    assert not written, f"tests wrote into HOME: {written}"


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets its own empty analysis cache (outside HOME), also for the processes it starts.

    No test sees another's cached analyses, and none writes the user's cache.
    """
    root = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root))
    return root / "workbench"


@pytest.fixture(autouse=True, scope="session")
def sealed_git(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No machine config for git or libgit2, and a fixed identity and date for any commit."""
    empty = tmp_path_factory.mktemp("no-git-config")
    saved = {level: pygit2.settings.search_path[level] for level in _SEALED_LEVELS}
    with pytest.MonkeyPatch.context() as mp:
        for var in [var for var in os.environ if var.startswith("GIT_")]:
            mp.delenv(var)
        for var, value in isolated_env(EPOCH).items():
            if var.startswith("GIT_"):
                mp.setenv(var, value)
        for level in _SEALED_LEVELS:
            pygit2.settings.search_path[level] = str(empty)
        try:
            yield
        finally:
            for level, path in saved.items():
                pygit2.settings.search_path[level] = path


@pytest.fixture
def builder(tmp_path: Path) -> RepoBuilder:
    """A fresh, empty repository on ``main`` at ``tmp_path/repo``."""
    return RepoBuilder.init(tmp_path / "repo")


@pytest.fixture(scope="session")
def sample_template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    """Build each state of the demo sample at most once per session; tests get copies."""
    built: dict[str, SampleSync] = {}

    def get(state: SampleState) -> SampleSync:
        if state not in built:
            built[state] = build_sample_sync(tmp_path_factory.mktemp(f"sample-{state}") / "repo", state)
        return built[state]

    return get


def _copy(template: SampleSync, tmp_path: Path) -> SampleSync:
    """A private copy of a built sample (symlinks kept), so tests may change it freely."""
    dest = tmp_path / "sample"
    shutil.copytree(template.path, dest, symlinks=True)
    return replace(template, path=dest)


@pytest.fixture
def sample_branches(sample_template: Template, tmp_path: Path) -> SampleSync:
    """The demo sample with just ``dev`` (checked out) and ``main``."""
    return _copy(sample_template("branches"), tmp_path)


@pytest.fixture
def sample_in_progress(sample_template: Template, tmp_path: Path) -> SampleSync:
    """The demo sample with the bot's ``-X theirs`` merge stopped on modify/delete conflicts."""
    return _copy(sample_template("in-progress"), tmp_path)


@pytest.fixture
def sample_merge_commit(sample_template: Template, tmp_path: Path) -> SampleSync:
    """The demo sample with the bot's finished merge commit checked out on ``main2dev/...``."""
    return _copy(sample_template("merge-commit"), tmp_path)
