"""Attributes come from the merge, not from whatever is checked out (issue 18.8).

main adds ``notes.txt merge=union``; dev has no such attribute.  The real
merge runs in dev's work tree, so ``notes.txt`` conflicts.  Halfway through
(main's ``.gitattributes`` merged into the work tree) or with the finished
merge checked out, ``git merge-tree`` run in the work tree would union the
file and report nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import FileStatus, Taken
from workbench.sample import RepoBuilder


@pytest.fixture
def union_on_main(builder: RepoBuilder) -> RepoBuilder:
    builder.write("notes.txt", "one\ntwo\nthree\n").commit("base")
    builder.branch("dev").checkout("dev").write("notes.txt", "one\ndev\nthree\n").commit("dev (#2)")
    builder.checkout("main").write(".gitattributes", "notes.txt merge=union\n")
    builder.write("notes.txt", "one\nmain\nthree\n").commit("main (#3)")
    builder.checkout("dev")
    return builder


def _report_json(path: Path, *args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "workbench", "analyze", "--json", *args],
        cwd=path, capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def test_a_file_still_unmerged_in_the_index_is_listed(union_on_main: RepoBuilder) -> None:
    assert union_on_main.merge("main") == 1
    assert b"<<<<<<<" in union_on_main.read("notes.txt")
    assert union_on_main.read(".gitattributes") == b"notes.txt merge=union\n", "main's attribute is in the work tree"
    _, analysis = open_analysis(union_on_main.path)
    entry = analysis.file("notes.txt")
    assert entry is not None and entry.status is FileStatus.CONFLICTED
    assert [h.taken for h in entry.hunks] == [Taken.UNRESOLVED] and entry.exact is True
    assert [f["path"] for f in _report_json(union_on_main.path)["files"]] == ["notes.txt"]


def test_a_merge_commit_checked_out_shows_the_hunk_theirs_took(union_on_main: RepoBuilder) -> None:
    assert union_on_main.merge("main", "theirs") == 0
    assert union_on_main.read("notes.txt") == b"one\nmain\nthree\n"
    for args in ((), ("HEAD",), ("--dev", "HEAD^1", "--main", "HEAD^2")):
        files = _report_json(union_on_main.path, *args)["files"]
        assert [f["path"] for f in files] == ["notes.txt"], args
        assert [h["taken"] for h in files[0]["hunks"]] == ["main"], args


def test_an_attribute_dev_has_still_applies(builder: RepoBuilder) -> None:
    """dev's own ``merge=union`` is what the real merge used: no conflict, as git said."""
    builder.write(".gitattributes", "notes.txt merge=union\n").write("notes.txt", "one\ntwo\nthree\n")
    builder.write("plain.txt", "one\ntwo\n").commit("base")
    builder.branch("dev").checkout("dev").write("notes.txt", "one\ndev\nthree\n").write("plain.txt", "one\ndev\n")
    builder.commit("dev (#2)")
    builder.checkout("main").write(".gitattributes", "").write("notes.txt", "one\nmain\nthree\n")
    builder.write("plain.txt", "one\nmain\n").commit("main (#3)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    _, analysis = open_analysis(builder.path)
    assert [f.path for f in analysis.files] == ["plain.txt"]


def test_every_unmerged_index_path_is_listed_whatever_the_model_says(builder: RepoBuilder) -> None:
    """An attribute added after the merge stopped (here in .git/info) makes merge-tree merge cleanly; the index says otherwise."""
    builder.write("notes.txt", "one\ntwo\nthree\n").commit("base")
    builder.branch("dev").checkout("dev").write("notes.txt", "one\ndev\nthree\n").commit("dev (#2)")
    builder.checkout("main").write("notes.txt", "one\nmain\nthree\n").commit("main (#3)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    (builder.path / ".git" / "info" / "attributes").write_text("notes.txt merge=union\n")
    _, analysis = open_analysis(builder.path)
    entry = analysis.file("notes.txt")
    assert entry is not None and entry.status is FileStatus.CONFLICTED
    assert [h.taken for h in entry.hunks] == [Taken.UNRESOLVED]
