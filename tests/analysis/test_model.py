"""The analysis model's own behaviour: finding a file by path, and pickling (the cache's format)."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pygit2
from helpers.syncs import analyze, analyze_preview

from workbench.analysis.model import FileStatus, Rendered
from workbench.git.blob_cache import BUDGET
from workbench.sample import RepoBuilder, SampleSync


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



def test_a_result_that_is_mains_rendering_is_not_kept(sample_merge_commit: SampleSync) -> None:
    """A file resolved as ``-X theirs`` keeps no copy of its text, yet reads as the merge commit's blob."""
    repo = pygit2.Repository(str(sample_merge_commit.path))
    texts = [f for f in analyze(sample_merge_commit.path, rev=sample_merge_commit.merge).files if f.merge is not None]
    assert texts and all(f.rendered is Rendered.BOTH and f.stored_result is None for f in texts)
    for entry in texts:
        blob = repo.revparse_single(f"{sample_merge_commit.merge}:{entry.path}")
        assert isinstance(blob, pygit2.Blob)
        assert entry.result_bytes == blob.data
    preview = [f for f in analyze_preview(sample_merge_commit.path).files if f.merge is not None]
    assert preview and all(f.stored_result is None and f.result_bytes == f.theirs_bytes for f in preview)



def test_any_other_result_is_kept(tmp_path: Path) -> None:
    """A merge stopped on its conflict: the work tree's text (markers and all) is kept as read."""
    b = RepoBuilder.init(tmp_path)
    b.write("a.py", "x = 1\ny = 2\n").commit("base")
    b.branch("dev").checkout("dev").write("a.py", "x = 10\ny = 2\n").commit("dev (#2)")
    b.checkout("main").write("a.py", "x = 100\ny = 2\n").commit("main (#3)")
    assert b.checkout("dev").merge("main") == 1
    (entry,) = analyze(b.path).files
    assert entry.status is FileStatus.CONFLICTED and entry.rendered is Rendered.THEIRS
    assert entry.result_bytes is entry.stored_result and entry.result_bytes == (b.path / "a.py").read_bytes()
    assert entry.theirs_bytes == b"x = 100\ny = 2\n"


def test_a_binary_resolved_as_main_is_kept_once(tmp_path: Path) -> None:
    """A binary file has no merge to render: main's blob is kept, and the result that is the same bytes is
    the same object (one copy of a large file, in memory, through the fork's pipe and in the cache)."""
    size = BUDGET // 4 + 1  # too large for the blob cache, which would otherwise hand out one object for both reads
    b = RepoBuilder.init(tmp_path)
    b.write("w.bin", b"\x00base".ljust(size, b"b")).commit("base")
    b.branch("dev").checkout("dev").write("w.bin", b"\x00dev".ljust(size, b"d")).commit("dev (#2)")
    b.checkout("main").write("w.bin", b"\x00main".ljust(size, b"m")).commit("main (#3)")
    b.checkout("dev").merge("main", "theirs", check=True)
    (entry,) = analyze(b.path, rev="HEAD").files
    assert entry.merge is None and entry.rendered is Rendered.NOTHING
    assert entry.theirs_bytes == b"\x00main".ljust(size, b"m") and entry.result_bytes is entry.theirs_bytes
