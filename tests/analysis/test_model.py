"""The analysis model's own behaviour: finding a file by path, and pickling (the cache's format)."""

from __future__ import annotations

import pickle
from dataclasses import replace

from helpers.syncs import analyze

from workbench.sample import SampleSync


def test_a_file_is_found_by_path_and_the_lookup_is_not_pickled(sample_merge_commit: SampleSync) -> None:
    analysis = analyze(sample_merge_commit.path, rev=sample_merge_commit.merge)
    assert len(analysis.files) > 3
    for entry in analysis.files:
        assert analysis.file(entry.path) is entry
    assert analysis.file("no/such/path.py") is None
    restored = pickle.loads(pickle.dumps(analysis))
    assert "_by_path" not in restored.__dict__ and restored == analysis
    assert restored.file(analysis.files[0].path) == analysis.files[0]
    fewer = replace(analysis, files=analysis.files[1:])  # a new analysis has its own lookup
    assert fewer.file(analysis.files[0].path) is None and fewer.file(analysis.files[1].path) is analysis.files[1]
