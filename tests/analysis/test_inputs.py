"""Every conflict kind, odd encodings and hostile text: analysed, never crashing.

Also: `analyze` is read-only (the work tree and .git hash the same after).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.odd_repos import HOSTILE_PATH, age_git_dir, every_conflict_kind, git_dir_times, tree_digest
from helpers.syncs import open_analysis

from workbench.analysis.model import ConflictKind, FileStatus, Taken
from workbench.analysis.xdiff import Favor
from workbench.sample import RepoBuilder


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd, check=False
    )


@pytest.fixture
def odd(tmp_path: Path) -> RepoBuilder:
    return every_conflict_kind(tmp_path)


def test_every_kind_in_a_preview(odd: RepoBuilder) -> None:
    _, analysis = open_analysis(odd.path, dev="dev", main="main")
    kinds = {f.path: f.kind for f in analysis.files}
    assert kinds["bin.dat"] is ConflictKind.BINARY
    assert kinds["link"] is ConflictKind.SYMLINK
    assert kinds["subm"] is ConflictKind.SUBMODULE
    assert kinds["md_dev.py"] is ConflictKind.MODIFY_DELETE and kinds["md_main.py"] is ConflictKind.MODIFY_DELETE
    assert kinds["addadd.py"] is ConflictKind.ADD_ADD
    assert any(k is ConflictKind.RENAME for k in kinds.values())
    for entry in analysis.files:
        if entry.merge is not None:
            assert entry.exact, f"{entry.path}: hunk model differs from git"


def test_a_merge_in_progress_with_every_kind(odd: RepoBuilder) -> None:
    odd.merge("main", "theirs")
    _, analysis = open_analysis(odd.path)
    statuses = {f.path: f.status for f in analysis.files}
    assert statuses["md_dev.py"] is FileStatus.CONFLICTED
    assert statuses["subm"] is FileStatus.CONFLICTED
    assert statuses["crlf.py"] is FileStatus.THEIRS_RESOLVED


def test_crlf_no_newline_empty_and_latin1_keep_their_bytes(odd: RepoBuilder) -> None:
    odd.merge("main", "theirs")
    _, analysis = open_analysis(odd.path)
    for path in ("crlf.py", "nonl.txt", "empty.txt", "latin.txt"):
        entry = analysis.file(path)
        assert entry is not None and entry.merge is not None
        on_disk = Path(odd.path, path).read_bytes()
        assert entry.merge.render(Favor.THEIRS) == on_disk, path
        assert all(h.taken is Taken.MAIN for h in entry.hunks)
    assert b"\r\n" in Path(odd.path, "crlf.py").read_bytes()


def test_hostile_paths_and_messages_are_shown_literally(odd: RepoBuilder) -> None:
    odd.merge("main", "theirs")
    table = _cli("analyze", "--all", cwd=odd.path)
    assert table.returncode == 0, table.stderr
    assert "\x1b" not in table.stdout, "no raw escape reaches the terminal"
    assert "[bold]\\x1b[31mred.txt" in table.stdout
    data = json.loads(_cli("analyze", "--json", cwd=odd.path).stdout)
    assert HOSTILE_PATH in {f["path"] for f in data["files"]}
    subjects = {c["subject"] for f in data["files"] for c in f["history"]["dev"]}
    assert any("[link=https://evil]" in s for s in subjects)


def test_analyze_is_read_only(odd: RepoBuilder) -> None:
    """Bytes and times: git freshens (touches) an object it would write but has (issue 18.16)."""
    odd.git("gc", "-q")
    odd.merge("main", "theirs")
    age_git_dir(odd.path)
    before, times = tree_digest(odd.path), git_dir_times(odd.path)
    for args in (
        ["analyze"],
        ["analyze", "--json"],
        ["analyze", "--dev", "dev", "--main", "main", "--json"],
        ["report", "--format", "json"],
    ):
        assert _cli(*args, cwd=odd.path).returncode == 0
    assert tree_digest(odd.path) == before
    changed = {path for path, mtime in git_dir_times(odd.path).items() if times.get(path) != mtime}
    assert not changed, f"touched under .git: {sorted(changed)}"


def test_file_directory_conflict_is_the_path_with_the_name_git_gave_the_file(builder: RepoBuilder) -> None:
    """One conflict of ``y`` (not git's ``y~HEAD``), which knows where git put dev's file."""
    builder.write("y", "a file\n").write("x", "x\n").commit("base")
    builder.branch("dev").checkout("dev").write("y", "dev changed the file\n").commit("dev (#2)")
    builder.checkout("main").delete("y").write("y/f", "now a directory\n").commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    unmerged = set(__import__("workbench.git.repo", fromlist=["GitRepo"]).GitRepo.open(builder.path).index_unmerged())
    _, analysis = open_analysis(builder.path)
    assert not [f for f in analysis.files if f.path.startswith("y~")]
    entry = analysis.file("y")
    assert entry is not None and entry.directory == "main"
    assert entry.asides and entry.asides[0] in unmerged and entry.status is FileStatus.CONFLICTED
    assert entry.dev.path == "y" and entry.history.dev, "dev's history of y is found"
