"""A whole-file choice writes the mode git merged: one side's ``chmod +x`` survives the other side's content."""

from __future__ import annotations

import pytest
from helpers.syncs import open_session

from workbench.resolve.events import FileChoice
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder


@pytest.mark.parametrize(("chmod_on", "choice", "favour"), [
    ("dev", FileChoice.TAKE_MAIN, "theirs"), ("main", FileChoice.KEEP_DEV, "ours"), ("dev", FileChoice.KEEP_DEV, "ours"),
])
def test_a_whole_file_choice_keeps_the_mode_git_merged(
    builder: RepoBuilder, chmod_on: str, choice: FileChoice, favour: str
) -> None:
    """Both sides change a binary file's bytes, one side makes it executable: git merges the mode apart
    from the content, so taking the other side's whole file keeps the ``chmod +x``, as ``-X`` does."""
    builder.write("tool.bin", b"\x00base\x00").commit("base")
    builder.branch("dev").checkout("dev").write("tool.bin", b"\x00dev\x00")
    if chmod_on == "dev":
        builder.chmod("tool.bin")
    builder.commit("dev (#2)")
    builder.checkout("main").write("tool.bin", b"\x00main\x00")
    if chmod_on == "main":
        builder.chmod("tool.bin")
    builder.commit("main (#3)")
    builder.checkout("dev").merge("main")
    repo, session = open_session(builder.path)
    session.choose_file("tool.bin", choice)
    assert write_file(repo, session, "tool.bin").staged
    staged = builder.git("ls-files", "-s", "--", "tool.bin").split()[0]
    builder.git("worktree", "add", "-q", "--detach", str(builder.path.parent / "wt"), builder.rev("HEAD"))
    other = RepoBuilder.open(builder.path.parent / "wt")
    other.merge("main", favour, check=True)
    assert staged == other.git("ls-files", "-s", "--", "tool.bin").split()[0] == b"100755"
    assert builder.read("tool.bin") == other.read("tool.bin")
