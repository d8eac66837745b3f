"""The work tree's file mode as ``git add`` records it, during a merge, beside what git stages."""

from __future__ import annotations

import os

import pytest
from helpers.histories import history
from helpers.syncs import analyze

from workbench.git.repo import GitRepo
from workbench.git.types import FileMode
from workbench.git.worktree import worktree_mode
from workbench.sample import RepoBuilder


def _staged_mode(builder: RepoBuilder, path: str) -> int:
    builder.git("add", "--", path)
    return int(builder.git("ls-files", "-s", "--", path).split()[0], 8)


def _conflict(builder: RepoBuilder) -> None:
    history(builder, base={"f.sh": "a\nb\nc\n"}, dev={"f.sh": "a\nDEV\nc\n"}, main={"f.sh": "a\nMAIN\nc\n"})


@pytest.mark.parametrize(("file_mode", "bits"), [
    ("false", 0o755),  # a file system that marks every file executable
    ("true", 0o755),
    ("true", 0o654),  # group may run it, its owner may not: git reads the owner's bit
])
def test_the_conflicted_files_mode_is_the_one_git_stages(builder: RepoBuilder, file_mode: str, bits: int) -> None:
    _conflict(builder)
    builder.git("config", "core.fileMode", file_mode)
    assert builder.merge("main") == 1
    target = builder.path / "f.sh"
    target.write_bytes(b"a\nRESOLVED\nc\n")
    os.chmod(target, bits)
    reported = analyze(builder.path).file("f.sh")
    assert reported is not None
    assert reported.result_mode == _staged_mode(builder, "f.sh")


def test_without_the_file_mode_setting_the_index_mode_is_kept_for_a_clean_path(builder: RepoBuilder) -> None:
    builder.write("run.sh", "x\n").chmod("run.sh").commit("executable")
    builder.git("config", "core.fileMode", "false")
    os.chmod(builder.path / "run.sh", 0o644)
    repo = GitRepo.open(builder.path)
    assert worktree_mode(repo, "run.sh", (builder.path / "run.sh").stat().st_mode) == FileMode.EXECUTABLE
    builder.git("update-index", "--add", "--", "run.sh")
    assert _staged_mode(builder, "run.sh") == FileMode.EXECUTABLE
