"""A write that cannot be done says which file and why, leaves it as it was and keeps the decisions.

Issue 18.6, 18.7, 18.12, 18.14 and 19.2.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.syncs import open_session

from workbench.resolve.events import FileChoice
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

BASE = "".join(f"line_{i} = {i}\n" for i in range(12))
DEV = BASE.replace("line_5 = 5\n", "DEV = 1\n")
MAIN = BASE.replace("line_5 = 5\n", "MAIN = 1\n")


def _conflict(b: RepoBuilder, path: str = "x.py", base: str = BASE, dev: str = DEV, main: str = MAIN) -> RepoBuilder:
    """A merge of main into dev stopped on one content conflict in ``path``."""
    b.write(path, base).commit("base")
    b.branch("dev").checkout("dev").write(path, dev).commit("dev (#2)")
    b.checkout("main").write(path, main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def _unmerged(path: Path) -> list[str]:
    out = subprocess.run(["git", "diff", "--name-only", "--diff-filter=U"], cwd=path, capture_output=True, check=True)
    return out.stdout.decode().split()


# -- 18.6: git add that cannot work is found before the file is written -----------------------


def test_a_held_index_lock_writes_nothing_and_says_so(builder: RepoBuilder) -> None:
    _conflict(builder)
    before = builder.read("x.py")
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.DEV)
    Path(builder.path, ".git", "index.lock").touch()
    outcome = write_file(repo, session, "x.py")
    assert not outcome.written and not outcome.staged
    assert "index lock" in outcome.message and "x.py" in outcome.message
    assert check_write(repo, session, "x.py").blocked is Blocked.NOT_STAGEABLE
    assert builder.read("x.py") == before and _unmerged(builder.path) == ["x.py"]
    assert session.is_dirty("x.py"), "the decision is still to be written"
    Path(builder.path, ".git", "index.lock").unlink()
    assert write_file(repo, session, "x.py").staged


def test_a_path_outside_the_sparse_checkout_cone_is_not_announced_as_staged(builder: RepoBuilder) -> None:
    builder.write("in/keep.txt", "k\n")
    _conflict(builder, "out/x.py")
    builder.git("merge", "--abort")
    builder.git("sparse-checkout", "set", "in")
    builder.merge("main")
    assert _unmerged(builder.path) == ["out/x.py"]
    repo, session = open_session(builder.path)
    session.decide_file("out/x.py", Choice.DEV)
    outcome = write_file(repo, session, "out/x.py")
    assert not outcome.written and not outcome.staged and "sparse-checkout" in outcome.message, outcome.message
    assert _unmerged(builder.path) == ["out/x.py"]


# -- 18.7: permissions -----------------------------------------------------------------------


def test_a_private_file_stays_private(builder: RepoBuilder) -> None:
    _conflict(builder)
    target = Path(builder.path, "x.py")
    target.chmod(0o600)
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.MAIN)
    assert write_file(repo, session, "x.py").written
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.usefixtures("umask_027")
def test_a_new_file_gets_the_umask(builder: RepoBuilder) -> None:
    builder.write("gone.py", "a = 1\n").commit("base")
    builder.branch("dev").checkout("dev").write("gone.py", "a = 2\n").commit("dev (#2)")
    builder.checkout("main").delete("gone.py").commit("main (#3)")
    builder.checkout("dev").merge("main")
    Path(builder.path, "gone.py").unlink()
    repo, session = open_session(builder.path)
    session.choose_file("gone.py", FileChoice.KEEP_DEV)
    assert write_file(repo, session, "gone.py", overwrite_changed=True).written
    assert stat.S_IMODE(Path(builder.path, "gone.py").stat().st_mode) == 0o640


def test_an_executable_bit_set_while_the_app_is_open_is_asked_about(builder: RepoBuilder) -> None:
    _conflict(builder)
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.DEV)
    target = Path(builder.path, "x.py")
    target.chmod(0o755)
    check = check_write(repo, session, "x.py")
    assert check.blocked is Blocked.CHANGED_ON_DISK and "became executable" in check.message
    assert not write_file(repo, session, "x.py").written
    assert os.access(target, os.X_OK)


# -- 18.12: failures of the file system ------------------------------------------------------


def test_a_name_near_name_max_is_written(builder: RepoBuilder) -> None:
    name = "n" * 240 + ".py"
    _conflict(builder, name)
    repo, session = open_session(builder.path)
    session.decide_file(name, Choice.DEV)
    outcome = write_file(repo, session, name)
    assert outcome.written and outcome.staged, outcome.message
    assert builder.read(name) == DEV.encode()


def test_a_directory_in_the_way_is_reported_not_raised(builder: RepoBuilder) -> None:
    _conflict(builder, "pkg/x.py")
    repo, session = open_session(builder.path)
    session.decide_file("pkg/x.py", Choice.DEV)
    Path(builder.path, "pkg", "x.py").unlink()
    Path(builder.path, "pkg").rmdir()
    Path(builder.path, "pkg").write_text("a file where the folder was\n")
    outcome = write_file(repo, session, "pkg/x.py", overwrite_changed=True)
    assert not outcome.written and outcome.message.startswith("pkg/x.py not written: ")
    assert Path(builder.path, "pkg").read_text() == "a file where the folder was\n"
    assert session.is_dirty("pkg/x.py")


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 4 MB tmpfs of our own (needs the right to mount; skipped without it)."""
    where = tmp_path / "fs"
    where.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(where)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_no_space_left_keeps_the_file_and_the_decisions(small_fs: Path) -> None:
    builder = RepoBuilder.init(small_fs / "repo")
    _conflict(builder)
    before = builder.read("x.py")
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.DEV)
    filler = small_fs / "filler"
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError:
            pass
    outcome = write_file(repo, session, "x.py")
    assert not outcome.written, outcome.message
    assert "x.py" in outcome.message and "no space left" in outcome.message
    assert builder.read("x.py") == before and session.is_dirty("x.py")
    filler.unlink()
    assert write_file(repo, session, "x.py").staged


def test_a_read_only_file_system_keeps_the_file_and_the_decisions(small_fs: Path) -> None:
    builder = RepoBuilder.init(small_fs / "repo")
    _conflict(builder)
    before = builder.read("x.py")
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.DEV)
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    try:
        outcome = write_file(repo, session, "x.py")
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_fs)], check=True)
    assert not outcome.written and "x.py not written" in outcome.message, outcome.message
    assert "read-only" in outcome.message.lower()
    assert builder.read("x.py") == before and session.is_dirty("x.py")


# -- 18.14 and 19.2: the Python check --------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [" + ".join(["1"] * 3000), "-" * 100_000 + "1"],
    ids=["3000-chained-plus", "100k-unary-minus"],
)
def test_an_expression_too_deep_for_ast_does_not_crash_the_write(builder: RepoBuilder, expression: str) -> None:
    _conflict(builder)
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.CUSTOM, f"DEEP = {expression}\n".encode()))
    outcome = write_file(repo, session, "x.py")
    assert outcome.written and "too deeply nested to check" in outcome.message


NEW_SYNTAX = 'type Alias = int\n\n\ndef first[T](items: list[T]) -> T:\n    return items[0]\n\n\nNAME = f"{"nested"}"\n'


def test_python_newer_than_the_interpreter_is_written(builder: RepoBuilder) -> None:
    _conflict(builder, base=NEW_SYNTAX + BASE, dev=NEW_SYNTAX + DEV, main=NEW_SYNTAX + MAIN)
    repo, session = open_session(builder.path)
    session.decide_file("x.py", Choice.MAIN)
    outcome = write_file(repo, session, "x.py")
    assert outcome.written and outcome.staged, outcome.message
    assert builder.read("x.py") == (NEW_SYNTAX + MAIN).encode()


def test_broken_python_is_still_refused(builder: RepoBuilder) -> None:
    _conflict(builder)
    repo, session = open_session(builder.path)
    session.decide("x.py", 0, Decision(Choice.CUSTOM, b"def broken(:\n"))
    assert check_write(repo, session, "x.py").blocked is Blocked.SYNTAX
