"""The stages read a conflicted file's base, dev and main versions from the merge that holds them, byte for
byte the blobs git has, and never a version whose bytes are not the blob asked for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import ParamSpec, TypeVar

import pytest

from workbench.analysis import engine, pipeline
from workbench.analysis.model import ConflictKind, FileAnalysis, FileHistory, FileStatus, Side
from workbench.analysis.readers import HeldBlobs, git_blob_id
from workbench.analysis.xdiff import merge_lines, split_lines
from workbench.cli import main
from workbench.git.repo import GitRepo
from workbench.sample import SampleSync

BASE = b"def f(x):\n    return x\n\n\ndef g():\n    pass\n"
DEV = b"def f(x, y=0):\n    return x + y\n\n\ndef g():\n    pass\n"
P = ParamSpec("P")
R = TypeVar("R")

MAIN = b"def f(x):\n    return x\n\n\ndef g():\n    return None"  # no final newline: the last line is its own record


def _file(base: bytes, dev: bytes, main: bytes, *, dev_oid: str | None = None, packed: bool = True) -> FileAnalysis:
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    return FileAnalysis(
        path="m.py", status=FileStatus.THEIRS_RESOLVED, kind=ConflictKind.CONTENT,
        base=Side("m.py", git_blob_id(base), 0o100644),
        dev=Side("m.py", dev_oid or git_blob_id(dev), 0o100644),
        main=Side("m.py", git_blob_id(main), 0o100644),
        result_oid=None, result_present=True, hunks=(), history=FileHistory((), ()),
        merge=merge.packed() if packed else merge,
    )


@pytest.mark.parametrize("packed", [True, False], ids=["packed", "computed"])
def test_each_version_is_read_back_as_the_blob(packed: bool) -> None:
    held = HeldBlobs([_file(BASE, DEV, MAIN, packed=packed)])
    for data in (BASE, DEV, MAIN):
        assert held.get(git_blob_id(data)) == data
        assert held.get(git_blob_id(data)) == data, "asked again (its id checked once)"
    assert held.get(git_blob_id(b"other\n")) is None


def test_git_is_read_only_for_what_no_merge_holds() -> None:
    asked: list[str] = []

    def from_git(oid: str) -> bytes:
        asked.append(oid)
        return b"from git\n"

    read = HeldBlobs([_file(BASE, DEV, MAIN)]).over(from_git)
    assert read(git_blob_id(DEV)) == DEV
    assert read("0" * 40) == b"from git\n"
    assert asked == ["0" * 40]


def test_a_merge_that_is_not_the_blob_asked_for_is_never_served() -> None:
    """A side whose id names other bytes than the merge's lines (however that came about): git answers."""
    other = git_blob_id(b"something else\n")
    held = HeldBlobs([_file(BASE, DEV, MAIN, dev_oid=other)])
    assert held.get(other) is None
    assert held.over(lambda oid: b"something else\n")(other) == b"something else\n"


def test_files_without_a_merge_hold_nothing() -> None:
    """A binary file, a deletion: the analysis keeps no lines of it, so git is read."""
    held = HeldBlobs([replace(_file(BASE, DEV, MAIN), merge=None)])
    assert all(held.get(git_blob_id(data)) is None for data in (BASE, DEV, MAIN))


def _flagged(run: Callable[P, R], flag: list[bool]) -> Callable[P, R]:
    """``run``, with ``flag[0]`` true while it runs."""

    def flagged(*args: P.args, **kwargs: P.kwargs) -> R:
        flag[0] = True
        try:
            return run(*args, **kwargs)
        finally:
            flag[0] = False

    return flagged


def test_the_stages_read_no_held_version_from_git(
    sample_merge_commit: SampleSync, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the engine has merged the files, the stages (audit, policy, deleted files, risk) take every
    base, dev and main version of a conflicted file from its merge; the JSON is the same either way."""
    repo_reads: list[str] = []
    in_stages: list[bool] = [False]
    held_hits: list[str] = []
    read_blob, get = GitRepo.read_blob, HeldBlobs.get

    def recorded_read(self: GitRepo, oid: str) -> bytes:
        if in_stages[0]:
            repo_reads.append(oid)
        return read_blob(self, oid)

    def recorded_get(self: HeldBlobs, oid: str) -> bytes | None:
        found = get(self, oid)
        if found is not None:
            held_hits.append(oid)
        return found

    monkeypatch.setenv("WORKBENCH_JOBS", "1")
    monkeypatch.setattr(GitRepo, "read_blob", recorded_read)
    monkeypatch.setattr(engine, "run_stages", _flagged(pipeline.run_stages, in_stages))
    monkeypatch.setattr(HeldBlobs, "get", recorded_get)
    assert main(["analyze", "--json", "--no-cache", "--repo", str(sample_merge_commit.path)]) == 0
    served = capsys.readouterr().out
    assert held_hits, "the stages asked for some version the merges hold"
    assert not set(held_hits) & set(repo_reads)

    monkeypatch.setattr(HeldBlobs, "get", lambda self, oid: None)
    assert main(["analyze", "--json", "--no-cache", "--repo", str(sample_merge_commit.path)]) == 0
    assert capsys.readouterr().out == served
    assert set(held_hits) <= set(repo_reads), "without them, git is asked"
