"""The worklist's sentences read as a person would write them."""

from __future__ import annotations

from workbench.analysis.worklist.why import places


def test_places_name_hunks_only_when_there_are_some() -> None:
    assert places(["a.py"], 3) == "in 3 hunks of a.py"
    assert places(["a.py"], 0) == "in a.py"
    assert places(["a.py", "b.py"], 5) == "in 5 hunks across 2 files"
    assert places(["a.py", "b.py"], 0) == "in 2 files", "not 'in 0 hunks across 2 files'"
