"""Sides of different types at one path, and files added with different modes: described, scored, written as git would.

A symlink dev turned into a file while main retargeted it used to read
"dev deleted this file", dev's content listed apart under git's temporary
``link~HEAD`` at risk 0, and "keep dev" deleted ``link``; a file/directory
conflict was ``d~HEAD`` at risk 0.  ``run.sh`` added executable on dev and
not on main never showed the mode conflict, and taking main staged 100755.
Every write is compared with the index and work tree git's own commands
leave (``git rm``, ``git checkout SIDE -- PATH``, ``git checkout --theirs``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import SignalKind
from workbench.git.types import FileMode
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.sample import RepoBuilder
from workbench.services.workspace import Workspace


def _type_change(b: RepoBuilder) -> RepoBuilder:
    """dev turns the symlink ``link`` into a regular file; main retargets it; the merge stops."""
    b.symlink("link", "target-a").write("keep.txt", "k\n").commit("base")
    b.branch("dev")
    b.symlink("link", "target-b").commit("main retargets link (#3)")
    b.checkout("dev").delete("link").write("link", "dev content\n").commit("dev makes link a file (#2)")
    assert b.merge("main") == 1
    return b


def _file_directory(b: RepoBuilder) -> RepoBuilder:
    """dev changes the file ``d``; main replaces it with the directory ``d/``; the merge stops."""
    b.write("d", "base\n").write("keep.txt", "k\n").commit("base")
    b.branch("dev")
    b.delete("d").write("d/x", "inner\n").write("d/y", "other\n").commit("main makes d a directory (#3)")
    b.checkout("dev").write("d", "dev d\n").commit("dev changes d (#2)")
    assert b.merge("main") == 1
    return b


def _state(path: Path) -> tuple[str, dict[str, str]]:
    """The index listing and every work-tree path (file bytes, link targets), .git left out."""
    listing = RepoBuilder.open(path).git("ls-files", "-s").decode()
    found = {}
    for root, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if d != ".git"]
        for name in names + [d for d in dirs if Path(root, d).is_symlink()]:
            full = Path(root, name)
            key = str(full.relative_to(path))
            found[key] = f"-> {os.readlink(full)}" if full.is_symlink() else full.read_bytes().decode()
    return listing, found


def _by_git(b: RepoBuilder, commands: list[list[str]], tmp: Path) -> tuple[str, dict[str, str]]:
    """What git's own commands leave, run in a copy of the repository."""
    copy = tmp / "by-git"
    shutil.copytree(b.path, copy, symlinks=True)
    other = RepoBuilder.open(copy)
    for args in commands:
        other.git(*args)
    return _state(copy)


def _write(b: RepoBuilder, path: str, choice: FileChoice) -> str:
    repo, analysis = open_analysis(b.path)
    ws = Workspace.load(repo, analysis)
    ws.choose_file(path, choice)
    check = ws.check(path)
    assert check.ok, check.message
    outcome = ws.write(path)
    assert outcome.written and outcome.staged, outcome.message
    return outcome.message


def test_a_symlink_turned_file_is_one_conflict_that_says_what_each_side_did(builder: RepoBuilder) -> None:
    _type_change(builder)
    _, analysis = open_analysis(builder.path)
    assert [f.path for f in analysis.files] == ["link"], "git's link~HEAD is not a file of its own"
    entry = analysis.files[0]
    assert entry.dev.mode == FileMode.REGULAR and entry.main.mode == FileMode.SYMLINK and entry.asides == ("link~HEAD",)
    (signal,) = [s for s in entry.signals if s.kind is SignalKind.TYPE_CONFLICT]
    assert "dev turned the symlink into a regular file" in signal.message
    assert "main changed the symlink's target" in signal.message
    assert "keeping dev's loses main's symlink target, taking main's loses dev's file" in signal.message
    assert signal.weight > 0 and entry.risk > 0
    assert not any(s.kind is SignalKind.DEV_DELETED_FILE for s in entry.signals)


def test_a_preview_of_a_type_change_reads_the_same(builder: RepoBuilder) -> None:
    _type_change(builder).git("merge", "--abort")
    _, analysis = open_analysis(builder.path, dev="dev", main="main")
    assert [f.path for f in analysis.files] == ["link"]
    assert any(s.kind is SignalKind.TYPE_CONFLICT for s in analysis.files[0].signals)


TYPE_CHANGE_BY_GIT = {
    FileChoice.KEEP_DEV: [["rm", "-q", "link~HEAD"], ["checkout", "dev", "--", "link"]],
    FileChoice.TAKE_MAIN: [["rm", "-q", "link~HEAD"], ["checkout", "main", "--", "link"]],
    FileChoice.DELETE: [["rm", "-q", "link~HEAD"], ["rm", "-q", "link"]],
}


@pytest.mark.parametrize("choice", TYPE_CHANGE_BY_GIT, ids=[c.value for c in TYPE_CHANGE_BY_GIT])
def test_a_type_change_is_written_as_git_would(builder: RepoBuilder, tmp_path: Path, choice: FileChoice) -> None:
    _type_change(builder)
    want = _by_git(builder, TYPE_CHANGE_BY_GIT[choice], tmp_path)
    _write(builder, "link", choice)
    assert _state(builder.path) == want
    assert builder.git("diff", "--name-only", "--diff-filter=U") == b""


def test_a_file_directory_conflict_is_one_conflict_scored(builder: RepoBuilder) -> None:
    _file_directory(builder)
    _, analysis = open_analysis(builder.path)
    assert [f.path for f in analysis.files] == ["d"], "git's d~HEAD is not a file of its own"
    entry = analysis.files[0]
    assert entry.directory == "main" and entry.dev.present and entry.asides == ("d~HEAD",)
    (signal,) = [s for s in entry.signals if s.kind is SignalKind.TYPE_CONFLICT]
    assert "dev changed the file; main replaced the file with a directory" in signal.message
    assert "keeping dev's loses main's directory d/" in signal.message and entry.risk > 0
    assert not any(s.kind is SignalKind.MAIN_DELETED_FILE for s in entry.signals)


FILE_DIRECTORY_BY_GIT = {
    FileChoice.KEEP_DEV: [["rm", "-q", "d~HEAD"], ["rm", "-rqf", "d"], ["checkout", "dev", "--", "d"]],
    FileChoice.TAKE_MAIN: [["rm", "-q", "d~HEAD"]],
    FileChoice.DELETE: [["rm", "-q", "d~HEAD"]],
}


@pytest.mark.parametrize("choice", FILE_DIRECTORY_BY_GIT, ids=[c.value for c in FILE_DIRECTORY_BY_GIT])
def test_a_file_directory_conflict_is_written_as_git_would(builder: RepoBuilder, tmp_path: Path,
                                                          choice: FileChoice) -> None:
    _file_directory(builder)
    want = _by_git(builder, FILE_DIRECTORY_BY_GIT[choice], tmp_path)
    _write(builder, "d", choice)
    assert _state(builder.path) == want
    assert builder.git("diff", "--name-only", "--diff-filter=U") == b""


def test_a_directory_holding_untracked_work_is_not_removed(builder: RepoBuilder) -> None:
    _file_directory(builder)
    Path(builder.path, "d", "notes.txt").write_text("mine\n")
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    ws.choose_file("d", FileChoice.KEEP_DEV)
    check = ws.check("d")
    assert not check.ok and "d/notes.txt" in check.message and "does not track" in check.message
    assert not ws.write("d").written
    assert Path(builder.path, "d", "notes.txt").read_text() == "mine\n"


def test_an_edited_side_copy_is_not_removed(builder: RepoBuilder) -> None:
    _type_change(builder)
    Path(builder.path, "link~HEAD").write_text("dev content, fixed by hand\n")
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    ws.choose_file("link", FileChoice.TAKE_MAIN)
    check = ws.check("link")
    assert not check.ok and "link~HEAD" in check.message
    assert Path(builder.path, "link~HEAD").read_text() == "dev content, fixed by hand\n"


def _add_add_modes(b: RepoBuilder) -> RepoBuilder:
    """dev adds ``run.sh`` executable, main adds it not executable, with different content."""
    b.write("keep.txt", "k\n").commit("base")
    b.branch("dev")
    b.write("run.sh", "#!/bin/sh\necho main\n").commit("main adds run.sh (#3)")
    b.checkout("dev").write("run.sh", "#!/bin/sh\necho dev\n").chmod("run.sh").commit("dev adds run.sh (#2)")
    assert b.merge("main") == 1
    return b


def test_an_add_add_mode_conflict_is_shown(builder: RepoBuilder) -> None:
    _add_add_modes(builder)
    _, analysis = open_analysis(builder.path)
    entry = analysis.file("run.sh")
    assert entry is not None
    (signal,) = [s for s in entry.signals if s.kind is SignalKind.MODE_CONFLICT]
    assert "executable (100755)" in signal.message and "not executable (100644)" in signal.message


@pytest.mark.parametrize(("choice", "by_git"), [(Choice.MAIN, "--theirs"), (Choice.DEV, "--ours")])
def test_an_add_add_mode_conflict_stages_the_side_taken(builder: RepoBuilder, tmp_path: Path, choice: Choice,
                                                        by_git: str) -> None:
    _add_add_modes(builder)
    want = _by_git(builder, [["checkout", by_git, "--", "run.sh"], ["add", "run.sh"]], tmp_path)
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    for hunk in ws.entry("run.sh").hunks:
        ws.decide("run.sh", hunk.index, Decision(choice))
    outcome = ws.write("run.sh")
    assert outcome.staged, outcome.message
    assert _state(builder.path) == want
    side = "main" if choice is Choice.MAIN else "dev"
    assert f"{side}'s" in outcome.message and "modes differ" in outcome.message
    assert os.access(Path(builder.path, "run.sh"), os.X_OK) is (choice is Choice.DEV)


def test_a_mixed_choice_keeps_the_work_trees_mode_and_says_so(builder: RepoBuilder) -> None:
    _add_add_modes(builder)
    repo, analysis = open_analysis(builder.path)
    ws = Workspace.load(repo, analysis)
    for hunk in ws.entry("run.sh").hunks:
        ws.decide("run.sh", hunk.index, Decision(Choice.BOTH))
    outcome = ws.write("run.sh")
    assert outcome.staged and "as the work tree has it" in outcome.message, outcome.message
    assert builder.git("ls-files", "-s", "run.sh").startswith(b"100755 ")
