"""``git mergetool`` with ``core.autocrlf=true`` or ``eol=crlf``: nothing changed MERGED, so nothing says it did.

git hands the tool its work-tree forms (CRLF); the writer checks the file
on disk as ``git add`` would store it (LF).  The loaded result must be held
the same way, or every write asks "changed on disk" (a guard that always
fires teaches people to press Overwrite).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.commands.mergetool import resolved
from workbench.resolve.session import Session
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder
from workbench.services.mergetool_file import analyse_mergetool, mergetool_repo, read_mergetool

BASE = "".join(f"v{i} = {i}\n" for i in range(10))


def _conflict(b: RepoBuilder, how: str) -> RepoBuilder:
    if how == "autocrlf":
        b.git("config", "core.autocrlf", "true")
    else:
        b.write(".gitattributes", "*.py text eol=crlf\n")
    b.write("x.py", BASE).commit("base")
    b.branch("dev").checkout("dev").write("x.py", BASE.replace("v2 = 2", "v2 = 20").replace("v7 = 7", "v7 = 70"))
    b.commit("dev")
    b.checkout("main").write("x.py", BASE.replace("v2 = 2", "v2 = 200").replace("v7 = 7", "v7 = 700")).commit("main")
    for branch in ("dev", "main"):  # the work tree as git checks it out (CRLF), whatever the builder wrote
        b.checkout(branch)
        (b.path / "x.py").unlink()
        b.git("checkout", "--", "x.py")
    b.checkout("dev").merge("main")
    assert b"\r\n" in (b.path / "x.py").read_bytes(), "git wrote the conflict in its work-tree form"
    return b


def _stages(b: RepoBuilder, path: str) -> dict[str, Path]:
    """What git mergetool hands a tool: BASE/LOCAL/REMOTE as temporary files (smudged: CRLF)."""
    out = b.git("checkout-index", "--stage=all", "--temp", "--", path).decode()
    names = out.split("\t")[0].split()
    return {role: b.path / name for role, name in zip(("BASE", "LOCAL", "REMOTE"), names, strict=True)}


def _sides(files: dict[str, Path]) -> tuple[str, str, str]:
    """BASE, LOCAL and REMOTE, as git mergetool passes them."""
    return str(files["BASE"]), str(files["LOCAL"]), str(files["REMOTE"])


@pytest.mark.parametrize("how", ["autocrlf", "eol-crlf"])
def test_writing_twice_never_says_changed_on_disk(builder: RepoBuilder, how: str) -> None:
    b = _conflict(builder, how)
    files = _stages(b, "x.py")
    given = read_mergetool(*_sides(files), str(b.path / "x.py"))
    repo, analysis = mergetool_repo(given), analyse_mergetool(given)
    (entry,) = analysis.files
    assert len(entry.hunks) == 2
    session = Session(analysis, read_blob=repo.read_blob)
    session.decide("x.py", 0, Decision(Choice.DEV))
    session.decide("x.py", 1, Decision(Choice.MAIN))
    first = write_file(repo, session, "x.py")
    assert first.written, first.message
    written = (b.path / "x.py").read_bytes()
    assert written == BASE.replace("v2 = 2", "v2 = 20").replace("v7 = 7", "v7 = 700").replace("\n", "\r\n").encode()
    session.decide("x.py", 1, Decision(Choice.DEV))
    second = write_file(repo, session, "x.py")
    assert second.written, second.message
    assert b"v7 = 70\r\n" in (b.path / "x.py").read_bytes()


@pytest.mark.parametrize("how", ["autocrlf", "eol-crlf"])
def test_a_written_file_counts_as_resolved_for_git(builder: RepoBuilder, how: str) -> None:
    """The exit status git trusts: MERGED holds what was written (compared as git stores it)."""
    from workbench.services.workspace import Workspace

    b = _conflict(builder, how)
    files = _stages(b, "x.py")
    given = read_mergetool(*_sides(files), str(b.path / "x.py"))
    workspace = Workspace.load(mergetool_repo(given), analyse_mergetool(given))
    workspace.decide("x.py", 0, Decision(Choice.DEV))
    workspace.decide("x.py", 1, Decision(Choice.MAIN))
    outcome = workspace.write("x.py")
    assert outcome.written, outcome.message
    assert resolved(workspace, b.path / "x.py")
