"""``SyncRequest(paths=...)``, which git mergetool relies on: one file's analysis equals the whole sync's for it.

The API audit, asked about one path, still reads the files that use what
that path's hunks define: the evidence against a hunk can sit in a caller
elsewhere.
"""

from __future__ import annotations

import pytest

from workbench.sample import RepoBuilder
from workbench.services.sync import SyncRequest, open_sync

LIB = "def helper(x):\n    return x\n\n\ndef scale(x):\n    return 2 * x\n"


@pytest.fixture
def dropped_callee(builder: RepoBuilder) -> str:
    """dev adds ``shift`` beside ``scale`` and calls it from another file; main rewrites ``scale``; the bot's
    ``-X theirs`` merge drops ``shift``.  Returns the merge commit."""
    builder.write("pkg/__init__.py", "").write("pkg/lib.py", LIB)
    builder.write("pkg/other.py", "from pkg.lib import helper\n\nprint(helper(1))\n").commit("base")
    builder.branch("dev").checkout("dev")
    shifted = "def scale(x):\n    return 3 * x\n\n\ndef shift(x, by):\n    return x + by\n"
    builder.write("pkg/lib.py", LIB.replace("def scale(x):\n    return 2 * x\n", shifted)).commit("Add shift (#1)")
    builder.write("pkg/user.py", "from pkg.lib import shift\n\nprint(shift(1, 2))\n").commit("Use shift (#2)")
    builder.checkout("main")
    factor = "def scale(x, factor=2):\n    return factor * x\n"
    builder.write("pkg/lib.py", LIB.replace("def scale(x):\n    return 2 * x\n", factor))
    builder.commit("Scale by a factor (#3)")
    builder.checkout("dev").merge("main", "theirs", check=True)
    return builder.rev("HEAD")


def test_one_paths_analysis_keeps_a_callers_evidence(builder: RepoBuilder, dropped_callee: str) -> None:
    _, whole = open_sync(SyncRequest(repo=builder.path, rev=dropped_callee))
    _, one = open_sync(SyncRequest(repo=builder.path, rev=dropped_callee, paths=("pkg/lib.py",)))
    expected = whole.file("pkg/lib.py")
    assert expected is not None and [f.path for f in one.files] == ["pkg/lib.py"]
    (entry,) = one.files
    assert entry.hunks == expected.hunks and entry.history == expected.history
    kinds = {s.kind for h in entry.hunks for s in h.signals}
    assert "api-mismatch-callee" in kinds, "dev's pkg/user.py still imports the shift the hunk drops"
    assert [m.path for m in one.api_mismatches] == ["pkg/user.py"]


def test_a_path_without_conflicts_gives_an_empty_analysis(builder: RepoBuilder, dropped_callee: str) -> None:
    _, one = open_sync(SyncRequest(repo=builder.path, rev=dropped_callee, paths=("pkg/other.py",)))
    assert one.files == () and one.api_mismatches == () and one.deleted_files == ()
