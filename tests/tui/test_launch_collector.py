"""The app's modules load with Python's cyclic collector paused, and what exists then is frozen."""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterator

import pytest

from workbench.tui.launch import loading_modules


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.unfreeze()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_paused_while_loading_and_what_was_loaded_is_frozen() -> None:
    gc.enable()
    inside = []
    with loading_modules():
        inside.append(gc.isenabled())
    assert inside == [False]
    assert gc.isenabled(), "the collector runs again once the modules are in"
    assert gc.get_freeze_count() > 0


def test_a_failed_import_still_restarts_the_collector() -> None:
    gc.enable()
    with pytest.raises(ImportError), loading_modules():
        importlib.import_module("workbench.no_such_module")
    assert gc.isenabled()


def test_a_collector_someone_paused_stays_paused() -> None:
    gc.disable()
    with loading_modules():
        pass
    assert not gc.isenabled()
