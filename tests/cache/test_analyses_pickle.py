"""Cached analyses load as the records they were: rebuilt by their constructors where that is exact."""

from __future__ import annotations

import dataclasses
import pickletools
from pathlib import Path

from workbench.analysis.model import FileAnalysis, Hunk, LineRange, Signal, SyncAnalysis
from workbench.cache import DiskCache
from workbench.cache.analyses import by_constructor, load_analysis, rebuilt_by_constructor, save_analysis
from workbench.sample import SampleSync
from workbench.services.sync import SyncRequest, open_sync


def test_a_saved_analysis_loads_equal_with_its_records_rebuilt_by_their_constructors(
        sample_merge_commit: SampleSync, tmp_path: Path) -> None:
    _repo, analysis = open_sync(SyncRequest(repo=str(sample_merge_commit.path), cache=False))
    cache = DiskCache(tmp_path / "cache")
    assert save_analysis(cache, "key", analysis)
    loaded = load_analysis(cache, "key")
    assert loaded == analysis and loaded is not analysis
    assert {LineRange, Hunk, Signal, FileAnalysis, SyncAnalysis} <= by_constructor().keys()
    payload = cache.get("key")
    assert payload is not None
    ops = [op.name for op, _arg, _pos in pickletools.genops(bytes(payload))]
    assert "BUILD" not in ops, "a record was pickled with its state set after, Python's slow way for slots"
    assert ops.count("REDUCE") > len(analysis.files)


def test_a_record_that_derives_fields_is_left_to_pythons_own_pickling() -> None:
    @dataclasses.dataclass(frozen=True)
    class Derived:
        a: int
        b: int = dataclasses.field(init=False, default=0)

    @dataclasses.dataclass(frozen=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            object.__setattr__(self, "a", abs(self.a))

    @dataclasses.dataclass(frozen=True, slots=True)
    class Plain:
        a: int
        b: str

    assert not rebuilt_by_constructor(Derived)
    assert not rebuilt_by_constructor(Checked)
    assert rebuilt_by_constructor(Plain)
    assert not rebuilt_by_constructor(int)
