"""RepoBuilder makes real, reproducible commits, isolated from the machine it runs on."""

from __future__ import annotations

import os
import pwd
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import ConfigLevel

from workbench.sample import Author, GitCommandError, RepoBuilder
from workbench.sample.builder import EPOCH, REPO_CONFIG, TICK


def _history(b: RepoBuilder) -> list[str]:
    """A small two-branch history; returns every commit id in order."""
    b.write("megatron/core/a.py", "x = 1\n")
    shas = [b.commit("Initial import")]
    b.branch("dev").checkout("dev").write("megatron/core/a.py", "x = 2\n")
    ada = Author("Ada", "a@example.com")
    shas.append(b.commit("[dev] Bump x (#101)", body="main PR: #201", author=ada))
    b.checkout("main").write("README.md", "# readme\n")
    shas.append(b.commit("Add README (#201)"))
    return shas


def test_init_writes_the_sealed_config_into_the_repository(builder: RepoBuilder) -> None:
    for key, value in REPO_CONFIG:
        assert builder.git("config", "--local", key).decode().strip() == value
    assert builder.git("symbolic-ref", "HEAD").decode().strip() == "refs/heads/main"


def test_commits_get_fixed_identities_and_minute_apart_dates(builder: RepoBuilder) -> None:
    _history(builder)
    log = builder.git("log", "--all", "--reverse", "--format=%an|%ae|%cn|%ce|%at|%ct").decode()
    rows = [line.split("|") for line in log.splitlines()]
    assert [row[:2] for row in rows] == [
        ["Workbench Sample", "sample@example.com"],
        ["Ada", "a@example.com"],
        ["Workbench Sample", "sample@example.com"],
    ]
    assert {(row[2], row[3]) for row in rows} == {("GitHub", "noreply@github.com")}
    times = [int(row[4]) for row in rows]
    assert times == [int((EPOCH + TICK * n).timestamp()) for n in (1, 2, 3)]
    assert [int(row[5]) for row in rows] == times


def test_message_body_is_recorded(builder: RepoBuilder) -> None:
    _history(builder)
    assert builder.git("log", "-1", "--format=%B", "dev").decode().strip() == (
        "[dev] Bump x (#101)\n\nmain PR: #201"
    )


def test_the_same_steps_give_the_same_commit_ids(tmp_path: Path) -> None:
    first = _history(RepoBuilder.init(tmp_path / "one"))
    second = _history(RepoBuilder.init(tmp_path / "two"))
    assert first == second
    other = RepoBuilder.init(tmp_path / "three")
    other.write("megatron/core/a.py", "x = 1\n\n")
    assert other.commit("Initial import") != first[0]


@pytest.mark.parametrize(
    "content",
    [
        b"line one\r\nline two\r\n",
        b"no newline at the end",
        b"",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\xff",
        "caf\u00e9 \u2014 na\u00efve\n",
    ],
    ids=["crlf", "no-trailing-newline", "empty", "binary", "utf8-str"],
)
def test_content_round_trips_byte_for_byte(builder: RepoBuilder, content: str | bytes) -> None:
    builder.write("data/f", content)
    builder.commit("Add f")
    expected = content.encode() if isinstance(content, str) else content
    assert builder.read("data/f") == expected
    assert builder.read("data/f", "HEAD") == expected


def test_nul_bytes_make_git_treat_the_file_as_binary(builder: RepoBuilder) -> None:
    builder.write("a.bin", b"\x00\x01").write("a.txt", "text\n").commit("Add")
    builder.write("a.bin", b"\x00\x02").write("a.txt", "more text\n").commit("Change")
    numstat = builder.git("diff", "--numstat", "HEAD~1", "HEAD").decode().splitlines()
    assert numstat == ["-\t-\ta.bin", "1\t1\ta.txt"]


def test_delete_rename_chmod_and_symlink_are_committed(builder: RepoBuilder) -> None:
    body = "".join(f"line {n}\n" for n in range(20))
    builder.write("old/name.py", body).write("gone.py", "x\n").write("run.sh", "#!/bin/sh\n")
    builder.commit("Initial import")
    builder.rename("old/name.py", "new/name.py").delete("gone.py").chmod("run.sh")
    builder.symlink("link.py", "new/name.py")
    builder.commit("Reshape")
    status = builder.git("diff", "--name-status", "-M", "HEAD~1", "HEAD").decode().splitlines()
    assert sorted(status) == ["A\tlink.py", "D\tgone.py", "M\trun.sh", "R100\told/name.py\tnew/name.py"]
    modes = {
        line.split("\t")[1]: line.split()[0]
        for line in builder.git("ls-tree", "HEAD").decode().splitlines()
    }
    assert modes["run.sh"] == "100755"
    assert modes["link.py"] == "120000"
    assert builder.read("link.py", "HEAD") == b"new/name.py"


def test_write_refuses_paths_outside_the_repository(builder: RepoBuilder) -> None:
    with pytest.raises(ValueError):
        builder.write("../escape.py", "x\n")


def test_squash_merge_lands_a_branch_as_one_single_parent_commit(builder: RepoBuilder) -> None:
    base = builder.write("f.py", "a\n").commit("Initial import")
    builder.branch("feature").checkout("feature")
    builder.write("f.py", "a\nb\n").commit("wip 1")
    builder.write("g.py", "c\n").commit("wip 2")
    builder.checkout("main")
    squash = builder.squash_merge("feature", "Add b and g (#201)", body="dev PR: #101")
    assert builder.git("rev-list", "--parents", "-1", squash).decode().split() == [squash, base]
    trees = builder.git("rev-parse", f"{squash}^{{tree}}", "feature^{tree}").decode().split()
    assert trees[0] == trees[1]
    message = builder.git("log", "-1", "--format=%B").decode().strip()
    assert message == "Add b and g (#201)\n\ndev PR: #101"


def _diverged(b: RepoBuilder) -> str:
    """dev and main change the same line of f.py; returns main's tip."""
    b.write("f.py", "one\ntwo\nthree\n").commit("Initial import")
    b.branch("dev")
    b.write("f.py", "one\nTWO (main)\nthree\n")
    main = b.commit("Main edit (#201)")
    b.checkout("dev").write("f.py", "one\nTWO (dev)\nthree\n").commit("[dev] Dev edit (#101)")
    return main


def test_a_conflicting_merge_stays_in_progress_with_index_stages(builder: RepoBuilder) -> None:
    main = _diverged(builder)
    assert builder.merge("main") == 1
    assert (builder.path / ".git" / "MERGE_HEAD").read_text().strip() == main
    stages = {line.split()[2] for line in builder.git("ls-files", "-u").decode().splitlines()}
    assert stages == {"1", "2", "3"}
    merged = builder.read("f.py").decode()
    assert "<<<<<<< HEAD\nTWO (dev)\n=======\nTWO (main)\n>>>>>>> main\n" in merged
    assert "|||||||" not in merged
    with pytest.raises(GitCommandError):
        builder.merge("main", check=True)


def test_merge_with_x_theirs_commits_main_side(builder: RepoBuilder) -> None:
    main = _diverged(builder)
    dev = builder.rev("dev")
    assert builder.merge("main", "theirs", message="Merge main into dev") == 0
    assert builder.git("rev-list", "--parents", "-1", "HEAD").decode().split()[1:] == [dev, main]
    assert builder.read("f.py", "HEAD") == b"one\nTWO (main)\nthree\n"
    assert builder.git("log", "-1", "--format=%s").decode().strip() == "Merge main into dev"


def test_merge_no_commit_stops_before_committing(builder: RepoBuilder) -> None:
    builder.write("f.py", "a\n").commit("Initial import")
    builder.branch("dev").write("g.py", "g\n").commit("Main adds g (#201)")
    builder.checkout("dev").write("h.py", "h\n").commit("[dev] Dev adds h (#101)")
    assert builder.merge("main", no_commit=True) == 0
    assert (builder.path / ".git" / "MERGE_HEAD").exists()
    assert builder.current_branch() == "dev"


def test_failures_raise_with_git_stderr(builder: RepoBuilder) -> None:
    with pytest.raises(GitCommandError, match="no-such-rev"):
        builder.git("rev-parse", "--verify", "no-such-rev")
    with pytest.raises(GitCommandError):
        builder.rev("no-such-rev")
    assert builder.current_branch() == "main"


def test_the_callers_git_environment_does_not_leak_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hostile = tmp_path / "hostile.gitconfig"
    hostile.write_text("[user]\n\tname = Leak\n[commit]\n\tgpgsign = true\n[core]\n\tautocrlf = true\n")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(hostile))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "not-a-repo"))
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Leak")
    b = RepoBuilder.init(tmp_path / "repo")
    b.write("crlf.py", b"a\r\n").commit("Add")
    assert b.git("log", "-1", "--format=%an|%cn").decode().strip() == "Workbench Sample|GitHub"
    assert b.read("crlf.py", "HEAD") == b"a\r\n"
    assert b"Leak" not in b.git("config", "--list")


def test_pygit2_sees_only_the_repositorys_own_config(builder: RepoBuilder) -> None:
    builder.write("f.py", "x\n").commit("Initial import")
    levels = {entry.level for entry in pygit2.Repository(str(builder.path)).config}
    assert levels == {ConfigLevel.LOCAL}


def test_home_is_an_empty_directory_not_the_users(dont_write_to_home_directory: Path) -> None:
    real_home = pwd.getpwuid(os.getuid()).pw_dir
    assert Path.home() == dont_write_to_home_directory
    assert os.path.realpath(Path.home()) != os.path.realpath(real_home)
