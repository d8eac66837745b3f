"""A submodule conflict of a merge in progress is written as git records one: the chosen commit, as a gitlink.

Before: the writer read the commit as a blob ("missing blob ... (shallow or
damaged repository?)" about a healthy repository), and the analysis said the
work tree had no file at the path while the submodule was checked out there.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import ConflictKind, FileStatus
from workbench.resolve.events import FileChoice
from workbench.sample import RepoBuilder
from workbench.services.workspace import Workspace
from workbench.tui.fileview import SideFacts
from workbench.tui.presentation.result_preview import file_choice_preview


def _submodule_conflict(root: Path) -> tuple[RepoBuilder, dict[str, str]]:
    """dev and main move the submodule ``sub`` to different commits; the merge stops on it, ``sub`` checked out."""
    lib = RepoBuilder.init(root / "lib")
    lib.write("x", "0\n")
    commits = {"base": lib.commit("s0")}
    for name in ("dev", "main"):
        lib.checkout(commits["base"]).write("x", f"{name}\n")
        commits[name] = lib.commit(f"s-{name}")
    b = RepoBuilder.init(root / "repo")
    b.write("a.txt", "a\n")
    b.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "sub")
    RepoBuilder.open(b.path / "sub").git("checkout", "-q", commits["base"])
    b.git("add", "sub")
    b.commit("base")
    b.branch("dev")
    for name in ("main", "dev"):
        b.checkout(name)
        RepoBuilder.open(b.path / "sub").git("checkout", "-q", commits[name])
        b.git("add", "sub")
        b.commit(f"{name} moves sub")
    assert b.merge("main") == 1
    return b, commits


def _index(b: RepoBuilder) -> str:
    return b.git("ls-files", "-s").decode()


def _git_resolves(b: RepoBuilder, how: list[list[str]], tmp: Path) -> str:
    """The index git itself leaves after ``how`` (commands run in a copy, ``sub/`` ones in the submodule)."""
    copy = tmp / "by-git"
    shutil.copytree(b.path, copy, symlinks=True)
    other = RepoBuilder.open(copy)
    for args in how:
        where = RepoBuilder.open(copy / "sub") if args[0] == "sub/" else other
        where.git(*(args[1:] if args[0] == "sub/" else args))
    return _index(other)


@pytest.mark.parametrize(("choice", "side"), [(FileChoice.TAKE_MAIN, "main"), (FileChoice.KEEP_DEV, "dev")])
def test_a_submodule_conflict_is_staged_as_git_add_would(tmp_path: Path, choice: FileChoice, side: str) -> None:
    b, commits = _submodule_conflict(tmp_path)
    want = _git_resolves(b, [["sub/", "checkout", "-q", commits[side]], ["add", "sub"]], tmp_path)
    repo, analysis = open_analysis(b.path)
    ws = Workspace.load(repo, analysis)
    entry = ws.entry("sub")
    assert entry.kind is ConflictKind.SUBMODULE and entry.status is FileStatus.CONFLICTED
    ws.choose_file("sub", choice)
    check = ws.check("sub")
    assert check.ok, check.message
    outcome = ws.write("sub")
    assert outcome.written and outcome.staged, outcome.message
    assert _index(b) == want
    assert RepoBuilder.open(b.path / "sub").rev("HEAD") == commits["dev"], "the checkout is left as the merge left it"
    assert not ws.session.dirty_paths()


def test_deleting_a_conflicted_submodule_removes_it_from_the_index(tmp_path: Path) -> None:
    b, _ = _submodule_conflict(tmp_path)
    want = _git_resolves(b, [["rm", "-q", "--cached", "sub"]], tmp_path)
    repo, analysis = open_analysis(b.path)
    ws = Workspace.load(repo, analysis)
    ws.choose_file("sub", FileChoice.DELETE)
    assert ws.write("sub").staged
    assert _index(b) == want


def test_the_work_tree_holds_the_checked_out_submodule(tmp_path: Path) -> None:
    """The Result pane said "work tree now: no file (deleted)"."""
    b, commits = _submodule_conflict(tmp_path)
    repo, analysis = open_analysis(b.path)
    entry = analysis.file("sub")
    assert entry is not None and entry.result_present and entry.result_oid == commits["dev"]
    ws = Workspace.load(repo, analysis)
    sides = tuple(SideFacts(label, side.oid, None, side.mode)
                  for label, side in (("base", entry.base), ("dev", entry.dev), ("main", entry.main)))
    lines, _caption = file_choice_preview(ws, "sub", sides)
    assert "no file" not in lines[0].text and commits["dev"][:10] in lines[0].text, lines[0]
