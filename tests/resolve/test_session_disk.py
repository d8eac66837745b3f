"""What the session says the work tree holds: a blob id, None for no file, an error for a path outside the sync."""

from __future__ import annotations

import pytest
from helpers.syncs import open_analysis

from workbench.resolve.session import Session, SessionError
from workbench.sample import SampleSync


def test_disk_oid_is_the_loaded_result_then_what_was_written(sample_in_progress: SampleSync) -> None:
    repo, analysis = open_analysis(sample_in_progress.path)
    session = Session(analysis, read_blob=repo.read_blob)
    entry = next(f for f in analysis.files if f.result_present)
    assert session.disk_oid(entry.path) == entry.result_oid
    session.mark_written(entry.path, None)
    assert session.disk_oid(entry.path) is None, "a written deletion: no file there"
    with pytest.raises(SessionError, match="no such file in this sync: not/in/the/sync.py"):
        session.disk_oid("not/in/the/sync.py")
