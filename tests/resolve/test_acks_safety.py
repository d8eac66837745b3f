"""The acknowledgements file is never read or written through a symlink, and names the reviewer as git would.

A branch can commit ``.workbench/acks.toml`` (or ``.workbench``) as a symlink
to a file outside the repository: ``ack`` would read the target, write its
content plus the new entry, and tell the user to commit it.  Refused in one
line, exit 2, nothing written.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.syncs import open_analysis

from workbench.analysis.model import ACKS_PATH
from workbench.cli import main
from workbench.resolve.acks import who_am_i
from workbench.sample import RepoBuilder, SampleSync

SECRET = '[registry]\ntoken = "s3cr3t"\n'


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _first_hunk(sync: SampleSync) -> str:
    _, analysis = open_analysis(sync.path)
    return next(f.path for f in analysis.files if f.hunks)


def _ack(capsys: pytest.CaptureFixture[str], sync: SampleSync, path: str) -> tuple[int, str, str]:
    return _cli(capsys, "ack", "--repo", str(sync.path), "--file", path, "--hunk", "1", "--reason", "reviewed")


@pytest.mark.parametrize("linked", ["file", "directory"])
def test_ack_refuses_a_symlinked_record(sample_merge_commit: SampleSync, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str], linked: str) -> None:
    path = _first_hunk(sample_merge_commit)
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "acks.toml"
    secret.write_text(SECRET)
    record = sample_merge_commit.path / ACKS_PATH
    if linked == "file":
        record.parent.mkdir()
        record.symlink_to(secret)
    else:
        record.parent.symlink_to(outside)
    code, out, err = _ack(capsys, sample_merge_commit, path)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "symlink" in err and ".workbench" in err
    assert secret.read_text() == SECRET and sorted(p.name for p in outside.iterdir()) == ["acks.toml"]
    assert (record if linked == "file" else record.parent).is_symlink()


def test_a_committed_symlink_is_refused_by_the_report(sample_merge_commit: SampleSync, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "credentials.toml"
    secret.write_text(SECRET)
    record = sample_merge_commit.path / ACKS_PATH
    record.parent.mkdir()
    record.symlink_to(secret)
    b = RepoBuilder.open(sample_merge_commit.path)
    b.git("add", ACKS_PATH)
    b.git("commit", "-q", "-m", "acks as a link")
    code, out, err = _cli(capsys, "report", "HEAD~1", "--repo", str(sample_merge_commit.path), "--result", "HEAD")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "symlink" in err and ACKS_PATH in err


def test_the_preview_report_does_not_read_through_a_symlink(sample_branches: SampleSync, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    secret = tmp_path / "credentials.toml"
    secret.write_text(SECRET)
    record = sample_branches.path / ACKS_PATH
    record.parent.mkdir()
    record.symlink_to(secret)
    code, out, err = _cli(capsys, "report", "--repo", str(sample_branches.path), "--dev", "dev", "--main", "main")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "symlink" in err


def test_the_reviewer_is_who_git_says(sample_merge_commit: SampleSync, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """``git var GIT_AUTHOR_IDENT``: GIT_AUTHOR_NAME beats user.name, and GIT_CONFIG_GLOBAL is the global file."""
    from workbench.git.repo import GitRepo

    repo = GitRepo.open(sample_merge_commit.path)
    RepoBuilder.open(sample_merge_commit.path).git("config", "user.name", "Configured Name")
    RepoBuilder.open(sample_merge_commit.path).git("config", "user.email", "configured@example.com")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Author From Env")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "env@example.com")
    assert who_am_i(repo) == "Author From Env <env@example.com>"
    RepoBuilder.open(sample_merge_commit.path).git("config", "--unset", "user.name")
    RepoBuilder.open(sample_merge_commit.path).git("config", "--unset", "user.email")
    for var in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "EMAIL"):
        monkeypatch.delenv(var, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Home File\n\temail = home@example.com\n")
    chosen = tmp_path / "global.gitconfig"
    chosen.write_text("[user]\n\tname = Chosen Global\n\temail = chosen@example.com\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(chosen))
    assert who_am_i(repo) == "Chosen Global <chosen@example.com>"
    assert os.environ["HOME"] == str(home)
