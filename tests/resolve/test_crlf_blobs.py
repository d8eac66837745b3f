"""Blobs that already hold CRs, in a clone with ``core.autocrlf`` set: written and staged as ``git merge -X`` does.

git's "safer autocrlf" rule leaves a file's CRs alone when its blob in the
index (dev's, during a merge) has some.  ``git hash-object`` reads no index,
so the work tree used to be read with every CRLF turned into LF: taking main
then staged LF lines where git keeps CRLF, or CRLF where the blobs mix both.
And ``git add`` of a checked-out blob need not give the blob back: a whole-file
choice staged main's LF blob with dev's CRs.  With ``merge.renormalize``
git merges the sides as if checked out and added afresh: it stages LF where
the blobs have CRLF, and the workbench must too.
"""

from __future__ import annotations

import pytest
from helpers.odd_repos import age_git_dir, git_dir_times
from helpers.syncs import open_session

from workbench.analysis.model import FileStatus
from workbench.resolve.events import FileChoice
from workbench.resolve.renormalize import as_git_stages
from workbench.resolve.splice import Choice
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

CASES = {  # autocrlf, attributes, (base, dev, main)
    "input-crlf": ("input", None, (b"one\r\ntwo\r\nthree\r\nfour\r\n", b"one\r\ntwo dev\r\nthree\r\nfour\r\n",
                                   b"one\r\ntwo main\r\nthree\r\nfour\r\n")),
    "true-mixed": ("true", None, (b"one\r\ntwo\nthree\r\nfour\n", b"one\r\ntwo dev\nthree\r\nfour\n",
                                  b"one\r\ntwo main\nthree\r\nfour\n")),
    "true-no-merge": ("true", "*.txt -merge\n", (b"one\ntwo\n", b"one\r\ntwo dev\r\n", b"one\ntwo main\n")),
    # dev's blob has no CR, main's has: git add of git's conflict text would drop main's CRs
    "input-dev-empty": ("input", None, (b"one\r\ntwo\r\n", b"", b"main\r\n")),
    "true-dev-unterminated": ("true", None, (b"", b"dev", b"main\r\n")),
    "input-dev-lf-main-crlf": ("input", None, (b"a\nb\nc\n", b"a\nb dev\nc\n", b"a\r\nb main\r\nc\r\n")),
    "renormalize-true-crlf": ("true", None, (b"a\r\nb\r\nc\r\n", b"a\r\nb dev\r\nc\r\n", b"a\r\nb main\r\nc\r\n")),
    "renormalize-input-crlf": ("input", None, (b"a\r\nb\r\nc\r\n", b"a\r\nb dev\r\nc\r\n", b"a\r\nb main\r\nc\r\n")),
    "renormalize-false-text-attr": ("false", "*.txt text eol=crlf\n", (b"a\r\nb\r\nc\r\n", b"a\r\nb dev\r\nc\r\n",
                                                                      b"a\r\nb main\r\nc\r\n")),
    "renormalize-true-mixed": ("true", None, (b"a\r\nb\nc\r\nd\n", b"a\r\nb dev\nc\r\nd\n", b"a\r\nb main\nc\r\nd\n")),
}


def _merged(b: RepoBuilder, case: str) -> RepoBuilder:
    autocrlf, attributes, sides = CASES[case]
    if attributes:
        b.write(".gitattributes", attributes)
    return _merge_stopped(b, sides, autocrlf, renormalize=case.startswith("renormalize"))


def _merge_stopped(b: RepoBuilder, sides: tuple[bytes, bytes, bytes], autocrlf: str | None,
                   renormalize: bool) -> RepoBuilder:
    """``a.txt`` as base, dev and main write it, the settings made after the commits (as in a clone), and dev's
    merge of main stopped on the conflict."""
    base, dev, main = sides
    b.write("a.txt", base).commit("base")
    b.branch("dev").checkout("dev").write("a.txt", dev).commit("dev (#2)")
    b.checkout("main").write("a.txt", main).commit("main (#3)")
    if autocrlf is not None:
        b.git("config", "core.autocrlf", autocrlf)
    if renormalize:
        b.git("config", "merge.renormalize", "true")
    b.checkout("dev").merge("main")
    return b


def _git_merge(b: RepoBuilder, favour: str) -> tuple[bytes, bytes]:
    """The staged entry and the work-tree file of ``git merge -X favour`` of the same tips."""
    b.git("worktree", "add", "-q", "--detach", str(b.path.parent / f"wt-{favour}"), b.rev("HEAD"))
    other = RepoBuilder.open(b.path.parent / f"wt-{favour}")
    other.merge("main", favour, check=True)
    return other.git("ls-files", "-s", "--", "a.txt"), other.read("a.txt")


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("choice", [Choice.MAIN, Choice.DEV])
def test_one_side_everywhere_stages_what_git_merge_x_stages(builder: RepoBuilder, case: str, choice: Choice) -> None:
    _merged(builder, case)
    repo, session = open_session(builder.path)
    entry = session.file("a.txt")
    if entry.hunks:
        session.decide_file("a.txt", choice)
    else:
        session.choose_file("a.txt", FileChoice.TAKE_MAIN if choice is Choice.MAIN else FileChoice.KEEP_DEV)
    outcome = write_file(repo, session, "a.txt")
    assert outcome.written and outcome.staged, outcome.message
    staged, worktree = _git_merge(builder, "theirs" if choice is Choice.MAIN else "ours")
    assert builder.git("ls-files", "-s", "--", "a.txt") == staged
    assert builder.read("a.txt") == worktree
    status = builder.git("status", "--porcelain", "--", "a.txt")
    assert status in (b"", b"M  a.txt\n")  # nothing left unstaged or unmerged (renormalized, dev's side is staged anew)
    assert check_write(repo, session, "a.txt").blocked is not Blocked.CHANGED_ON_DISK  # the file is as written


def test_renormalize_with_a_side_git_leaves_as_binary_is_refused(builder: RepoBuilder) -> None:
    """A lone CR makes git's text detection call dev's blob binary: renormalizing keeps its CRLFs while base and
    main lose theirs, so git's merge is no single pass over the model's (found by fuzzing: LF was staged)."""
    b = _merge_stopped(builder, (b"a\r\nb\r\nc\r\nd\r\ne\r\nf\r\n", b"a dev\r\nb\r\nc\r\nd\r\ne dev\rX\r\nf\r\n",
                                 b"a\r\nb\r\nc\r\nd\r\ne main\r\nf\r\n"), "true", renormalize=True)
    before = b.read("a.txt"), b.git("ls-files", "-s", "--", "a.txt")
    repo, session = open_session(b.path)
    session.decide_file("a.txt", Choice.MAIN)
    check = check_write(repo, session, "a.txt")
    assert check.blocked is Blocked.RENORMALIZE and "merge.renormalize" in check.message
    outcome = write_file(repo, session, "a.txt")
    assert not outcome.written and not outcome.staged
    assert (b.read("a.txt"), b.git("ls-files", "-s", "--", "a.txt")) == before


def test_renormalize_where_a_side_changed_only_line_ends_is_refused(builder: RepoBuilder) -> None:
    """Main only turned a line dev deleted into CRLF: a conflict to the model, none to git once it renormalizes
    (dev's deletion merges). Taking main for every hunk kept the line that -X theirs drops (found by fuzzing)."""
    b = _merge_stopped(builder, (b"keep\nold\nx\ny\nz\n", b"keep\nx\ny\nz dev\n",
                                 b"keep\r\nold\r\nx\r\ny\r\nz main\r\n"), "true", renormalize=True)
    repo, session = open_session(b.path)
    session.decide_file("a.txt", Choice.MAIN)
    check = check_write(repo, session, "a.txt")
    assert check.blocked is Blocked.RENORMALIZE, check.message


@pytest.mark.parametrize("choice", [Choice.MAIN, Choice.DEV])
@pytest.mark.parametrize("autocrlf", [None, "true"])
def test_renormalize_that_changes_no_side_writes_as_git_does(builder: RepoBuilder, choice: Choice,
                                                           autocrlf: str | None) -> None:
    """CRLF everywhere and no conversion configured, or a side git keeps as binary among LF-only ones:
    renormalizing leaves every side as it is, and so must the writer (it was refused, found by fuzzing)."""
    if autocrlf is None:
        sides = b"a\r\nb\r\nc\r\n", b"a\r\nb dev\r\nc\r\n", b"a\r\nb main\r\nc\r\n"
    else:
        sides = b"a\nb\nc\nd\ne\n", b"a dev\r\nb\nc\nd\ne dev\rX\n", b"a\nb\nc\nd\ne main\n"
    b = _merge_stopped(builder, sides, autocrlf, renormalize=True)
    repo, session = open_session(b.path)
    session.decide_file("a.txt", choice)
    outcome = write_file(repo, session, "a.txt")
    assert outcome.written and outcome.staged, outcome.message
    staged, worktree = _git_merge(b, "theirs" if choice is Choice.MAIN else "ours")
    assert b.git("ls-files", "-s", "--", "a.txt") == staged
    assert b.read("a.txt") == worktree


def test_renormalize_leaves_a_side_git_took_whole_as_it_is(builder: RepoBuilder) -> None:
    """git renormalizes only in a content merge: a file main left alone is dev's blob, CRs and all
    (found by fuzzing: keeping dev's side staged it with LF)."""
    b = builder
    b.write("a.txt", b"a\r\nb\r\n").write("c.md", b"1\n2\n3\n").commit("base")
    b.branch("dev").checkout("dev").write("a.txt", b"dev\r\na\nb\r\n").write("c.md", b"1\n2 dev\n3\n").commit("dev (#2)")
    b.checkout("main").write("c.md", b"1\n2 main\n3\n").commit("main (#3)")
    b.checkout("dev")
    (b.path / ".git" / "info" / "attributes").write_text("*.txt text eol=crlf\n")  # after the blobs, as in a clone
    b.git("config", "merge.renormalize", "true")
    b.merge("main")
    repo, session = open_session(b.path)
    data = b"dev\r\na\nb\r\n"
    assert b.git("cat-file", "blob", ":a.txt") == data  # git took dev's blob as it is
    assert session.file("a.txt").status is FileStatus.RESOLUTION_EDITED  # its checkout cleans to another blob
    assert as_git_stages(repo, session, "a.txt", data) == data
    session.choose_file("a.txt", FileChoice.KEEP_DEV)
    outcome = write_file(repo, session, "a.txt")
    assert outcome.written and outcome.staged, outcome.message
    assert b.git("cat-file", "blob", ":a.txt") == data


def test_a_renormalized_write_freshens_none_of_the_repositorys_objects(builder: RepoBuilder) -> None:
    """Checking the sides out and cleaning them again stores their blobs: in the quarantine, never touching a pack
    or loose object the repository already has (staging, left out here, writes to the repository by design)."""
    _merged(builder, "renormalize-true-crlf")
    builder.git("gc", "-q")
    age_git_dir(builder.path)
    objects = {path: t for path, t in git_dir_times(builder.path).items() if path.startswith(".git/objects/")}
    repo, session = open_session(builder.path)
    session.decide_file("a.txt", Choice.MAIN)
    outcome = write_file(repo, session, "a.txt", stage=False)
    assert outcome.written, outcome.message
    after = git_dir_times(builder.path)
    assert {path for path, t in objects.items() if after.get(path) != t} == set()
