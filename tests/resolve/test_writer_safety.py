"""Ways a write could destroy work, each closed (found in review, reproduced here)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers.syncs import open_session

from workbench.analysis.model import Mode
from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def _fork(b: RepoBuilder, dev_text: str, main_text: str, path: str = "x.py") -> RepoBuilder:
    """base -> dev and main changing the same line of ``path``; dev checked out."""
    b.write(path, BASE).commit("base")
    b.branch("dev").checkout("dev").write(path, dev_text).commit("dev (#2)")
    b.checkout("main").write(path, main_text).commit("main (#3)")
    return b.checkout("dev")


def test_a_preview_and_a_merge_not_checked_out_write_nothing(builder: RepoBuilder) -> None:
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"))
    builder.merge("main", "theirs")
    builder.checkout("main")
    Path(builder.path, "x.py").write_text("MY UNCOMMITTED WORK\n")
    for request in ({"rev": "dev"}, {"dev": "dev^1", "main": "dev^2"}):
        repo, session = open_session(builder.path, **request)
        session.decide("x.py", 0, Decision(Choice.DEV))
        assert check_write(repo, session, "x.py").blocked is Blocked.NOT_WRITABLE
        assert not write_file(repo, session, "x.py").written
    assert Path(builder.path, "x.py").read_text() == "MY UNCOMMITTED WORK\n"


def test_local_edits_on_the_sync_branch_are_asked_about(builder: RepoBuilder) -> None:
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"))
    builder.merge("main", "theirs")
    Path(builder.path, "x.py").write_text(BASE.replace("line_5 = 5\n", "MAIN = 1\n") + "mine = 1\n")
    repo, session = open_session(builder.path)
    assert session.analysis.mode is Mode.MERGE_COMMIT
    session.decide("x.py", 0, Decision(Choice.DEV))
    assert check_write(repo, session, "x.py").blocked is Blocked.CHANGED_ON_DISK


def test_an_undecided_conflict_is_never_staged(builder: RepoBuilder) -> None:
    builder.write("gone.py", "a = 1\n").write("x.py", BASE).commit("base")
    builder.branch("dev").checkout("dev").write("gone.py", "a = 2\n").commit("dev (#2)")
    builder.checkout("main").delete("gone.py").commit("main (#3)")
    builder.checkout("dev").merge("main", "theirs")
    repo, session = open_session(builder.path)
    assert check_write(repo, session, "gone.py").blocked is Blocked.UNDECIDED
    assert "gone.py" in repo.index_unmerged()
    session.choose_file("gone.py", FileChoice.KEEP_DEV)
    assert write_file(repo, session, "gone.py").staged
    assert "gone.py" not in repo.index_unmerged()


def test_mains_executable_bit_survives_a_hunk_decision(builder: RepoBuilder) -> None:
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"))
    builder.checkout("main").chmod("x.py").commit("main: make it a script (#4)")
    builder.checkout("dev").merge("main", "theirs")
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.DEV))
    assert write_file(repo, session, "x.py").written
    assert os.access(Path(builder.path, "x.py"), os.X_OK)


def test_an_inherited_git_dir_does_not_redirect_staging(
    builder: RepoBuilder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoy = tmp_path / "decoy"
    subprocess.run(["git", "init", "-q", str(decoy)], check=True)
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"))
    builder.write("gone.py", "x\n").commit("more")
    repo, session = None, None
    builder.merge("main")  # plain merge: stops on the content conflict
    repo, session = open_session(builder.path)
    # Set once the repository is open (opening with a GIT_DIR git would pair with this work tree is refused:
    # tests/cli/test_git_environment.py): git's own commands must still stage here, not in the decoy.
    monkeypatch.setenv("GIT_DIR", str(decoy / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(decoy / ".git" / "index"))
    session.decide("x.py", 0, Decision(Choice.DEV))
    outcome = write_file(repo, session, "x.py")
    assert outcome.staged, outcome.message
    assert "x.py" not in repo.index_unmerged()


def test_autocrlf_files_are_compared_and_written_as_git_stores_them(builder: RepoBuilder) -> None:
    builder.git("config", "core.autocrlf", "true")
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"), "x.txt")
    builder.merge("main", "theirs")
    builder.git("rm", "-q", "--cached", "-r", ".")
    builder.git("reset", "-q", "--hard")
    repo, session = open_session(builder.path, rev=None)
    (entry,) = session.analysis.files
    assert entry.hunks[0].result is not None and entry.hunks[0].result.count == 1
    session.decide("x.txt", 0, Decision(Choice.DEV))
    assert session.preview("x.txt") == BASE.replace("line_5 = 5\n", "DEV = 1\n").encode()


def test_a_fix_line_next_to_a_hunk_survives_deciding_it(builder: RepoBuilder) -> None:
    _fork(builder, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"))
    builder.merge("main", "theirs")
    fixed = BASE.replace("line_5 = 5\n", "MAIN = 1\nFIX_ADDED_BY_MAINTAINER = 1\n")
    builder.write("x.py", fixed).commit("fix: unrelated line beside the hunk")
    repo, session = open_session(builder.path, rev="HEAD~1", result="HEAD")
    session.decide("x.py", 0, Decision(Choice.DEV))
    preview = session.preview("x.py")
    assert preview is not None and b"FIX_ADDED_BY_MAINTAINER" in preview and b"DEV = 1\n" in preview


def test_hand_edits_in_a_conflicted_file_are_kept(builder: RepoBuilder) -> None:
    dev = BASE.replace("line_2 = 2\n", "DEV_A = 1\n").replace("line_9 = 9\n", "DEV_B = 1\n")
    main = BASE.replace("line_2 = 2\n", "MAIN_A = 1\n").replace("line_9 = 9\n", "MAIN_B = 1\n")
    _fork(builder, dev, main)
    builder.merge("main")
    text = Path(builder.path, "x.py").read_text()
    start = text.rindex("<<<<<<< ")
    end = text.index(">>>>>>> main\n", start) + len(">>>>>>> main\n")
    Path(builder.path, "x.py").write_text("# HAND EDIT\n" + text[:start] + "B_RESOLVED_BY_HAND = 1\n" + text[end:])
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.DEV))
    session.decide("x.py", 1, Decision(Choice.MAIN))
    preview = session.preview("x.py")
    assert preview is not None
    assert preview.startswith(b"# HAND EDIT\n") and b"DEV_A = 1\n" in preview and b"MAIN_B = 1\n" in preview
