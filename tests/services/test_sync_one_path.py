"""``SyncRequest(paths=...)``, which git mergetool relies on: one file's analysis equals the whole sync's for it.

The API audit, asked about one path, still reads the files that use what
that path's hunks define: the evidence against a hunk can sit in a caller
elsewhere.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from workbench.git.repo import GitRepo
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


@pytest.mark.parametrize("committed", [False, True])
def test_one_path_beyond_git_merge_equals_the_whole_syncs(builder: RepoBuilder, committed: bool) -> None:
    """Edits beyond git's merge in two clean files and a conflicted one: each asked alone reads as in the whole."""
    from workbench.analysis.serialize import file_to_json

    clean = {f"pkg/c{k}.py": "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(5)) for k in range(2)}
    for path, text in clean.items():
        builder.write(path, text)
    builder.write("pkg/conflict.py", "value = 0\n").commit("base")
    builder.branch("dev").checkout("dev")
    builder.write("pkg/conflict.py", "value = 1\n").commit("[dev] Dev (#1)")
    builder.checkout("main")
    for path, text in clean.items():
        builder.write(path, text.replace("return 3\n", "return fused(3)\n"))
    builder.write("pkg/conflict.py", "value = 2\n").commit("Main (#2)")
    builder.checkout("dev")
    assert builder.merge("main", no_commit=True) == 1
    for path, text in clean.items():
        builder.write(path, text)  # the resolution undoes main's clean change in both
    rev = None
    if committed:
        builder.write("pkg/conflict.py", "value = 1\n").git("add", "-A")
        rev = builder.commit("Merge main into dev")
    _, whole = open_sync(SyncRequest(repo=builder.path, rev=rev, cache=False))
    assert {f.path for f in whole.files} >= {*clean, "pkg/conflict.py"}
    for path in (*clean, "pkg/conflict.py"):
        _, one = open_sync(SyncRequest(repo=builder.path, rev=rev, paths=(path,), cache=False))
        assert [f.path for f in one.files] == [path]
        entry, expected = one.file(path), whole.file(path)
        assert entry is not None and expected is not None
        assert file_to_json(entry) == file_to_json(expected)
        assert entry.edits or path == "pkg/conflict.py"


def test_one_path_during_a_merge_cleans_only_the_work_files_it_reads(
    builder: RepoBuilder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A merge in progress: asked about one conflicted file, the audit reads (and cleans, as ``git add``
    would) the conflicted module it imports, not every other conflicted file; its answer is the whole
    sync's for that file."""
    from workbench.analysis.serialize import file_to_json
    from workbench.git import worktree_read

    builder.write("pkg/__init__.py", "").write("pkg/lib.py", LIB).write("pkg/other.py", "value = 0\n")
    builder.write("pkg/user.py", "from pkg.lib import scale\n\nprint(scale(1))\n").commit("base")
    builder.branch("dev").checkout("dev")
    builder.write("pkg/lib.py", LIB.replace("return 2 * x", "return 3 * x")).write("pkg/other.py", "value = 1\n")
    builder.write("pkg/user.py", "from pkg.lib import scale\n\nprint(scale(2))\n").commit("Dev (#1)")
    builder.checkout("main")
    builder.write("pkg/lib.py", LIB.replace("return 2 * x", "return 4 * x")).write("pkg/other.py", "value = 2\n")
    builder.write("pkg/user.py", "from pkg.lib import scale\n\nprint(scale(3))\n").commit("Main (#2)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    _, whole = open_sync(SyncRequest(repo=builder.path, cache=False))
    assert {f.path for f in whole.files} == {"pkg/lib.py", "pkg/other.py", "pkg/user.py"}
    cleaned: list[str] = []
    real = worktree_read.clean_contents

    def spy(repo: GitRepo, paths: Sequence[str]) -> dict[str, tuple[str, bytes]]:
        cleaned.extend(paths)
        return real(repo, paths)

    monkeypatch.setattr("workbench.git.repo_files.clean_contents", spy)
    _, one = open_sync(SyncRequest(repo=builder.path, paths=("pkg/user.py",), cache=False))
    entry, expected = one.file("pkg/user.py"), whole.file("pkg/user.py")
    assert entry is not None and expected is not None
    assert file_to_json(entry) == file_to_json(expected)
    assert cleaned == ["pkg/lib.py"], "the module pkg/user.py imports, read from the work tree; no other file"
