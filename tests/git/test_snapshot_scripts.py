"""The snapshot's line scripts: git's for every text conflict, none for a large binary one.

git starts on the scripts before the versions are read: only a path with a
version over ``SCRIPTED_UNREAD`` bytes is read first (and left out when
binary); a small binary file's script is computed and never used, since the
engine tells binary conflicts apart itself and merges none of them.
"""

from __future__ import annotations

import pytest

from workbench.analysis.engine import analyze
from workbench.analysis.model import ConflictKind
from workbench.analysis.xdiff import Algorithm, diff_lines, split_lines
from workbench.git import snapshot as snapshot_module
from workbench.git.repo import GitRepo
from workbench.git.snapshot import load_sync
from workbench.sample import RepoBuilder

LARGE = 200
"""Bytes of the "large" versions, over the limit the test sets."""


def _text(word: str, size: int = 0) -> bytes:
    return b"one\n" + word.encode() + b"\n" + b"x" * max(0, size - 9) + b"\nthree\n"


def _binary(word: str, size: int = 0) -> bytes:
    return _text(word, size).replace(b"one", b"on\0")


SIDES = {  # path: (make base, make dev, make main)
    "text.py": (_text, _text, _text),
    "binary-base.dat": (_binary, _text, _text),
    "binary-dev.dat": (_text, _binary, _text),
    "binary-main.dat": (_text, _text, _binary),
}


@pytest.mark.parametrize("size", [0, LARGE], ids=["small", "large"])
def test_scripts_are_gits_for_text_conflicts_and_binary_conflicts_merge_nothing(
    builder: RepoBuilder, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    monkeypatch.setattr(snapshot_module, "SCRIPTED_UNREAD", LARGE // 2)
    for path, (make_base, _, _) in SIDES.items():
        builder.write(path, make_base("base", size))
    builder.commit("base")
    builder.branch("dev").checkout("dev")
    for path, (_, dev, _) in SIDES.items():
        builder.write(path, dev("dev", size))
    builder.commit("dev (#2)")
    builder.checkout("main")
    for path, (_, _, main) in SIDES.items():
        builder.write(path, main("main", size))
    builder.commit("main (#3)")
    repo = GitRepo.open(builder.path)
    snapshot = load_sync(repo, dev=builder.rev("dev"), main=builder.rev("main"))
    assert {c.path for c in snapshot.merge_tree.conflicts} == set(SIDES)
    binary = {path for path in SIDES if path.endswith(".dat")}
    assert set(snapshot.line_scripts) == (set(SIDES) if size < LARGE else set(SIDES) - binary)
    base = split_lines(_text("base", size))
    assert snapshot.line_scripts["text.py"] == (
        diff_lines(base, split_lines(_text("dev", size)), Algorithm.HISTOGRAM),
        diff_lines(base, split_lines(_text("main", size)), Algorithm.HISTOGRAM),
    )
    analysis = analyze(snapshot, repo.read_blob, repo.commit_info, repo.line_changes)
    kinds = {entry.path: (entry.kind, entry.merge is None) for entry in analysis.files}
    assert kinds == {path: (ConflictKind.BINARY if path in binary else ConflictKind.CONTENT, path in binary)
                     for path in SIDES}
