"""Odd arguments and repository states: one line naming what was given, exit 2, nothing written.

Issue 19 items 3, 4, 9 and 10 (mergetool's MERGED).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.odd_repos import tree_digest

from workbench.sample import RepoBuilder

HEADLESS = "textual.drivers.headless_driver:HeadlessDriver"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command line; should the app start, it runs headless and the test times out."""
    env = {**os.environ, "TEXTUAL_DRIVER": HEADLESS}
    return subprocess.run([sys.executable, "-m", "workbench", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, stdin=subprocess.DEVNULL, timeout=60, check=False)


def _one_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), proc.stderr
    return lines[0].removeprefix("workbench: error: ")


@pytest.fixture
def merging(builder: RepoBuilder) -> RepoBuilder:
    """dev and main changed the same line; ``git merge main`` stopped on the conflict in a.txt."""
    builder.write("a.txt", "a\nb\nc\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.txt", "a\nB\nc\n").commit("dev (#2)")
    builder.checkout("main").write("a.txt", "a\nBB\nc\n").commit("main (#3)")
    builder.checkout("dev")
    subprocess.run(["git", "merge", "-q", "main"], cwd=builder.path, capture_output=True, check=False)
    assert (builder.path / ".git" / "MERGE_HEAD").is_file()
    return builder


@pytest.mark.parametrize(("names", "kind"), [
    ("HEAD:a.txt", "a blob"),
    ("HEAD^{tree}", "a tree"),
    (None, "no object in this repository"),
])
def test_merge_head_naming_no_commit(merging: RepoBuilder, names: str | None, kind: str) -> None:
    oid = merging.git("rev-parse", names).decode().strip() if names else "1234567890" * 4
    (merging.path / ".git" / "MERGE_HEAD").write_text(oid + "\n")
    before = tree_digest(merging.path)
    for command in ("analyze", "report"):
        message = _one_line(_cli(command, cwd=merging.path))
        assert message == (f"MERGE_HEAD names no commit ({oid[:10]} is {kind}): "
                           "repair or abort the merge (git merge --abort)")
    assert tree_digest(merging.path) == before


@pytest.mark.parametrize(("rev", "shown"), [
    ("HEAD\nfoo", "'HEAD\\nfoo'"),
    ("main\x1b[31m", "'main\\x1b[31m'"),
    ("no-such", "no-such"),
])
def test_a_revision_is_named_as_given_escaped(merging: RepoBuilder, rev: str, shown: str) -> None:
    assert _one_line(_cli("analyze", rev, cwd=merging.path)) == f"unknown revision: {shown}"
    assert _one_line(_cli("report", "--dev", "dev", "--main", rev, cwd=merging.path)) == f"unknown revision: {shown}"


def _versions(merging: RepoBuilder, tmp_path: Path) -> list[str]:
    paths = []
    for stage, name in ((1, "BASE"), (2, "LOCAL"), (3, "REMOTE")):
        path = tmp_path / name
        path.write_bytes(merging.git("show", f":{stage}:a.txt"))
        paths.append(str(path))
    return paths


@pytest.mark.parametrize("merged", [
    ".git/hooks/pre-commit",
    ".git/config",
    "sub/../.git/config",
    "link-to-config",
    "../repo/.git/info/exclude",
])
def test_mergetool_never_takes_a_file_inside_git_as_merged(merging: RepoBuilder, tmp_path: Path,
                                                          merged: str) -> None:
    (merging.path / "sub").mkdir()
    (merging.path / "link-to-config").symlink_to(".git/config")
    before = tree_digest(merging.path)
    message = _one_line(_cli("mergetool", *_versions(merging, tmp_path), merged, cwd=merging.path))
    assert message == f"MERGED is inside the repository's .git directory, not a work-tree file: {merged}"
    assert tree_digest(merging.path) == before


def test_mergetool_merged_whose_directory_is_a_file(merging: RepoBuilder, tmp_path: Path) -> None:
    message = _one_line(_cli("mergetool", *_versions(merging, tmp_path), "a.txt/x", cwd=merging.path))
    assert message == f"MERGED's directory {merging.path / 'a.txt'} is a file, not a directory (MERGED: a.txt/x)"
    (merging.path / "sub").mkdir()
    message = _one_line(_cli("mergetool", *_versions(merging, tmp_path), "sub", cwd=merging.path))
    assert message == "MERGED is a directory, not a file: sub"
