"""git's own environment: ``GIT_DIR``/``GIT_WORK_TREE`` name the repository as they do for git, and a
repository git cannot read is one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.sample import RepoBuilder, SampleSync


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_git_dir_and_work_tree_name_the_repository(sample_merge_commit: SampleSync, builder: RepoBuilder,
                                                    capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """In repository B, with GIT_DIR and GIT_WORK_TREE pointing at A, the analysis is A's (as git's would be)."""
    wanted = _cli(capsys, "analyze", "--json", "--repo", str(sample_merge_commit.path), "--no-cache")
    assert wanted[0] == 0
    builder.write("other.txt", "another repository\n").commit("other")
    monkeypatch.chdir(builder.path)
    monkeypatch.setenv("GIT_DIR", str(sample_merge_commit.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(sample_merge_commit.path))
    assert _cli(capsys, "analyze", "--json", "--no-cache") == wanted
    assert _cli(capsys, "analyze", "--json") == wanted  # the cache's identity reads the same repository


def test_a_relative_git_dir_at_the_top_is_what_hooks_get(sample_merge_commit: SampleSync,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    wanted = _cli(capsys, "analyze", "--json", "--repo", str(sample_merge_commit.path), "--no-cache")
    monkeypatch.chdir(sample_merge_commit.path)
    monkeypatch.setenv("GIT_DIR", ".git")
    assert _cli(capsys, "analyze", "--json", "--no-cache") == wanted


def test_a_git_dir_git_would_pair_with_another_work_tree_is_refused(sample_merge_commit: SampleSync,
                                                                     builder: RepoBuilder,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """GIT_DIR alone makes git take the current directory as A's work tree: nothing is analysed or written."""
    builder.write("other.txt", "another repository\n").commit("other")
    monkeypatch.chdir(builder.path)
    monkeypatch.setenv("GIT_DIR", str(sample_merge_commit.path / ".git"))
    code, out, err = _cli(capsys, "analyze", "--json", "--no-cache")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "GIT_DIR" in err


@pytest.mark.parametrize("head", [b"garbage\n", b"ref: \n", b"\x00\x01\x02", b""])
def test_a_garbage_head_is_one_line_and_exit_2(sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str],
                                               head: bytes) -> None:
    (Path(sample_merge_commit.path) / ".git" / "HEAD").write_bytes(head)
    for command in (["analyze", "--json"], ["report"], ["analyze", "HEAD~0"]):
        code, out, err = _cli(capsys, *command, "--repo", str(sample_merge_commit.path))
        assert (code, out) == (2, ""), err
        assert err.count("\n") == 1 and "internal error" not in err
