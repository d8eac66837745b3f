"""Reading work-tree files as ``git add`` stores them, through a private copy of the index."""

from __future__ import annotations

import os
import subprocess

from workbench.git.repo import GitRepo
from workbench.git.worktree_read import disk_oid
from workbench.sample import RepoBuilder


def test_a_file_changed_within_the_indexs_tick_is_read_again(builder: RepoBuilder) -> None:
    """git rereads an entry no older than the index file (racy git): the private copy keeps the index's times."""
    builder.git("config", "core.trustctime", "false")
    builder.write("f.txt", "AAAA\n")
    target, index = builder.path / "f.txt", builder.path / ".git" / "index"
    written = target.stat().st_mtime_ns - 10_000_000_000
    os.utime(target, ns=(written, written))  # older than the index git writes now: staged as clean
    builder.git("add", "f.txt")
    target.write_text("BBBB\n", encoding="utf-8")  # same size, and below, the same time as the staged file
    os.utime(target, ns=(written, written))
    os.utime(index, ns=(written, written))
    expected = subprocess.run(["git", "-C", str(builder.path), "hash-object", "f.txt"], capture_output=True,
                              check=True, text=True).stdout.strip()
    assert disk_oid(GitRepo.open(builder.path), "f.txt") == expected
