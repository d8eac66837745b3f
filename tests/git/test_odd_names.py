"""File names git must never re-interpret (issue 18.9).

``git hash-object --stdin-paths`` C-unquotes a line that starts with ``"``
(``"quoted".txt`` was read from the file ``quoted``), drops a trailing ``\\r``
(git failed and took the whole analysis down) and cannot carry a newline (the
file looked absent, its hunk hand-resolved).  Every conflicted name below must
be read from its own file and stay conflicted.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import FileStatus, Taken
from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest, open_sync

NAMES = ['"quoted".txt', "ends in cr\r", "new\nline.txt", "sp ace.txt", os.fsdecode(b"caf\xe9 latin-1.txt")]


@pytest.fixture
def odd_names(builder: RepoBuilder) -> RepoBuilder:
    builder.write("quoted", "a decoy the unquoted name would read\n")
    for name in NAMES:
        builder.write(name, "one\ntwo\nthree\n")
    builder.commit("base")
    builder.branch("dev").checkout("dev")
    for name in NAMES:
        builder.write(name, "one\ndev\nthree\n")
    builder.commit("dev (#2)")
    builder.checkout("main")
    for name in NAMES:
        builder.write(name, "one\nmain\nthree\n")
    builder.commit("main (#3)")
    builder.checkout("dev")
    return builder


def test_conflicted_odd_names_in_a_merge_in_progress(odd_names: RepoBuilder) -> None:
    assert odd_names.merge("main") == 1
    _, analysis = open_analysis(odd_names.path)
    assert sorted(f.path for f in analysis.files) == sorted(NAMES)
    for name in NAMES:
        entry = analysis.file(name)
        assert entry is not None and entry.status is FileStatus.CONFLICTED, name
        assert [h.taken for h in entry.hunks] == [Taken.UNRESOLVED], name
        assert entry.result_bytes == Path(odd_names.path, name).read_bytes(), name


def test_odd_names_resolved_by_the_bot(odd_names: RepoBuilder) -> None:
    assert odd_names.merge("main", "theirs") == 0
    for request in (SyncRequest(repo=odd_names.path), SyncRequest(repo=odd_names.path, dev="dev^1", main="main")):
        _, analysis = open_sync(request)
        assert sorted(f.path for f in analysis.files) == sorted(NAMES)
        for entry in analysis.files:
            assert [h.taken for h in entry.hunks] == [Taken.MAIN], entry.path
