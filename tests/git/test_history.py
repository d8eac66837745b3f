"""A side's history: every path's blob in every commit of the range and its boundary, as git names it."""

from __future__ import annotations

from pathlib import Path

from workbench.git.history import side_history
from workbench.git.repo import GitRepo
from workbench.sample import RepoBuilder


def test_each_paths_blob_in_each_commit_is_the_one_git_names(tmp_path: Path) -> None:
    b = RepoBuilder.init(tmp_path)
    b.write("a.py", "a = 0\n").write("d/x.py", "x = 0\n").commit("base")
    base = b.rev("HEAD")
    b.branch("dev").checkout("dev")
    b.write("a.py", "a = 1\n").commit("one (#1)")
    b.write("d/x.py", "x = 1\n").write("d/new.py", "n = 1\n").commit("two (#2)")
    b.delete("a.py").commit("three (#3)")
    wanted = ["a.py", "d/x.py", "d/new.py", "gone.py", "a.py/under_a_file.py"]
    history = side_history(GitRepo.open(b.path), b.rev("dev"), base, wanted)
    assert len(history.commits) == 3 and history.in_range(history.commits[0])
    rows = [*history.commits, base]  # the range and its boundary (the base)
    for path in wanted[:4]:
        blobs = history.blobs[path]
        assert list(blobs) == [*history.commits, base] and len(blobs) == 4
        for sha in rows:
            named = b.run("rev-parse", "--verify", "-q", f"{sha}:{path}").stdout.decode().strip() or None
            assert blobs[sha] == blobs.get(sha) == named, (path, sha)
        assert list(blobs.values()) == [blobs[sha] for sha in rows]
        assert blobs.get("0" * 40, "absent") == "absent" and "0" * 40 not in blobs
    assert history.blobs["gone.py"].get(base) is None
    assert len(history.blobs["a.py"]) == 4 and len(history.blobs["a.py/under_a_file.py"]) == 0  # never read
