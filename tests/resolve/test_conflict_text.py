"""The conflict text git wrote in the work tree, whatever its style, marker size or final newline (issue 18.1-3).

Each case merges for real with the configuration a user has, decides, writes,
and compares the written (and staged) file with git's own merge for the
chosen side (``git merge -X ours/theirs`` of the same commits).
"""

from __future__ import annotations

import pytest
from helpers.syncs import open_session

from workbench.analysis import conflict_map
from workbench.analysis.model import HunkKind, Taken
from workbench.analysis.xdiff import MergeResult
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import Blocked, check_write, write_file
from workbench.sample import RepoBuilder

BASE = "".join(f"line_{i} = {i}\n" for i in range(12))


def _fork(b: RepoBuilder, base: str, dev: str, main: str, path: str = "x.txt") -> RepoBuilder:
    b.write(path, base).commit("base")
    b.branch("dev").checkout("dev").write(path, dev).commit("dev (#2)")
    b.checkout("main").write(path, main).commit("main (#3)")
    return b.checkout("dev")


def _git_merge(b: RepoBuilder, favour: str, path: str) -> bytes:
    """What ``git merge -X favour`` of the same tips puts in ``path`` (computed in a throwaway branch)."""
    head = b.rev("HEAD")
    b.git("worktree", "add", "-q", "--detach", str(b.path.parent / f"wt-{favour}"), head)
    other = RepoBuilder.open(b.path.parent / f"wt-{favour}")
    other.merge("main", favour, check=True)
    return other.read(path)


def _decide_write(b: RepoBuilder, path: str, choice: Choice) -> bytes:
    repo, session = open_session(b.path)
    session.decide_file(path, choice)
    outcome = write_file(repo, session, path)
    assert outcome.written and outcome.staged, outcome.message
    return b.read(path)


def _two_conflicts(gap: int) -> tuple[str, str, str]:
    """Two conflicting lines ``gap`` unchanged lines apart (git's merge style joins them under 4)."""
    lines = BASE.splitlines(keepends=True)
    dev, main = list(lines), list(lines)
    dev[2], main[2] = "DEV_A = 1\n", "MAIN_A = 1\n"
    dev[3 + gap], main[3 + gap] = "DEV_B = 1\n", "MAIN_B = 1\n"
    return BASE, "".join(dev), "".join(main)


@pytest.mark.parametrize("style", ["diff3", "zdiff3"])
@pytest.mark.parametrize("gap", [1, 3, 5])
@pytest.mark.parametrize("choice", [Choice.MAIN, Choice.DEV])
def test_diff3_blocks_in_the_work_tree_are_replaced_whole(
    builder: RepoBuilder, style: str, gap: int, choice: Choice
) -> None:
    builder.git("config", "merge.conflictStyle", style)
    _fork(builder, *_two_conflicts(gap))
    builder.merge("main")
    assert b"|||||||" in builder.read("x.txt")
    written = _decide_write(builder, "x.txt", choice)
    assert written == _git_merge(builder, "theirs" if choice is Choice.MAIN else "ours", "x.txt")
    assert builder.git("diff", "--cached", "--name-only", "--diff-filter=U") == b""


EOF_CASES = {
    "dev-adds-unterminated": ("f\ne\n", "f\ne\nQ0", "f\ne\nQ1\nP2\n}3"),
    "both-replace-last": ("b\nf", "b\n0", "X2\n3"),
    "main-unterminated": ("a\n", "Z2", "1\na"),
    "one-side-terminated": ("d\nd\ne", "d\nZ1\ne", "d\nP0\n"),
}


@pytest.mark.parametrize("case", sorted(EOF_CASES))
@pytest.mark.parametrize("choice", [Choice.MAIN, Choice.DEV])
def test_a_conflict_at_the_end_of_a_file_without_final_newline(builder: RepoBuilder, case: str, choice: Choice) -> None:
    _fork(builder, *EOF_CASES[case])
    builder.merge("main")
    written = _decide_write(builder, "x.txt", choice)
    assert written == _git_merge(builder, "theirs" if choice is Choice.MAIN else "ours", "x.txt")


def test_a_larger_conflict_marker_size_is_read_as_a_conflict(builder: RepoBuilder) -> None:
    builder.write(".gitattributes", "*.rst conflict-marker-size=10\n")
    _fork(builder, BASE, BASE.replace("line_5 = 5\n", "DEV = 1\n"), BASE.replace("line_5 = 5\n", "MAIN = 1\n"), "x.rst")
    builder.merge("main")
    assert b"<<<<<<<<<< HEAD\n" in builder.read("x.rst")
    _repo, session = open_session(builder.path)
    (entry,) = session.analysis.files
    assert entry.exact is True
    assert [h.taken for h in entry.hunks] == [Taken.UNRESOLVED]
    written = _decide_write(builder, "x.rst", Choice.DEV)
    assert written == BASE.replace("line_5 = 5\n", "DEV = 1\n").encode()


def test_seven_character_markers_are_content_when_the_size_is_ten(builder: RepoBuilder) -> None:
    doc = "Title\n=====\n\n<<<<<<< ours\nexample\n=======\nexample\n>>>>>>> theirs\n\n" + BASE
    builder.write(".gitattributes", "*.rst conflict-marker-size=10\n")
    _fork(builder, doc, doc.replace("line_5 = 5\n", "DEV = 1\n"), doc.replace("line_5 = 5\n", "MAIN = 1\n"), "x.rst")
    builder.merge("main")
    written = _decide_write(builder, "x.rst", Choice.MAIN)
    assert written == doc.replace("line_5 = 5\n", "MAIN = 1\n").encode()


def test_a_block_edited_by_hand_is_announced_and_written_only_whole(builder: RepoBuilder) -> None:
    builder.git("config", "merge.conflictStyle", "diff3")
    _fork(builder, *_two_conflicts(5))
    builder.merge("main")
    edited = builder.read("x.txt").replace(b"MAIN_A = 1\n", b"MAIN_A = 2\n")
    builder.write("x.txt", edited)
    repo, session = open_session(builder.path)
    (entry,) = session.analysis.files
    assert any("does not match the hunks" in s.message and "M/D" in s.message for s in entry.signals), entry.signals
    session.decide("x.txt", 0, Decision(Choice.DEV))
    session.decide("x.txt", 1, Decision(Choice.MAIN))
    check = check_write(repo, session, "x.txt")
    assert check.blocked is Blocked.CONFLICT_TEXT and "whole file" in check.message
    assert builder.read("x.txt") == edited
    session.decide_file("x.txt", Choice.MAIN)
    assert write_file(repo, session, "x.txt").staged
    assert builder.read("x.txt") == _git_merge(builder, "theirs", "x.txt").replace(b"MAIN_A = 1\n", b"MAIN_A = 2\n")


@pytest.mark.parametrize("choice", [Choice.MAIN, Choice.DEV, Choice.BOTH])
def test_a_diff3_block_holding_a_line_both_sides_share(builder: RepoBuilder, choice: Choice) -> None:
    """Both sides terminate the base's last line; dev adds one more: git's block holds the shared line,
    the model's hunk only dev's addition (found by the soak; ``both`` is not a whole side, so it needs the match)."""
    builder.git("config", "merge.conflictStyle", "diff3")
    _fork(builder, "a\nb\nc\nd\ne\nlast", "a\nb\nc\nd\ne\nlast\nDEV\n", "MAIN\na\nb\nc\nd\ne\nlast\n")
    builder.merge("main")
    assert b"|||||||" in builder.read("x.txt")
    written = _decide_write(builder, "x.txt", choice)
    assert written == _git_merge(builder, "theirs" if choice is Choice.MAIN else "ours", "x.txt")


def _shared_addition() -> tuple[str, str, str]:
    """Both sides add the same function but for one line: the model's hunk is that line, while a diff3
    block (never refined) holds the whole function, its shared lines on both sides."""
    lines = BASE.splitlines(keepends=True)
    body = ["def added():\n", *(f"    step_{i} = {i}\n" for i in range(8)), "    return step_7\n"]
    dev = [*lines[:6], *body[:4], "    only = 'dev'\n", *body[4:], *lines[6:]]
    main = [*lines[:6], *body[:4], "    only = 'main'\n", *body[4:], *lines[6:]]
    return BASE, "".join(dev), "".join(main)


@pytest.mark.parametrize("style", ["merge", "diff3", "zdiff3"])
def test_lines_both_sides_share_inside_git_s_block_are_no_edit_of_the_resolution(
    builder: RepoBuilder, style: str
) -> None:
    """The untouched conflict text of a merge in progress holds the conflict hunk alone, whatever the
    style: deciding it decides the file (what `git mergetool` checks before telling git it is resolved)."""
    builder.git("config", "merge.conflictStyle", style)
    _fork(builder, *_shared_addition())
    builder.merge("main")
    assert (b"|||||||" in builder.read("x.txt")) is (style != "merge")
    repo, session = open_session(builder.path)
    (entry,) = session.analysis.files
    assert [(h.kind, h.taken) for h in entry.all_hunks] == [(HunkKind.CONFLICT, Taken.UNRESOLVED)], entry.all_hunks
    session.decide("x.txt", 0, Decision(Choice.MAIN))
    assert session.all_decided
    assert write_file(repo, session, "x.txt").staged
    assert builder.read("x.txt") == _git_merge(builder, "theirs", "x.txt")


def test_a_hand_edit_beside_a_diff3_block_is_still_an_edit(builder: RepoBuilder) -> None:
    builder.git("config", "merge.conflictStyle", "diff3")
    _fork(builder, *_shared_addition())
    builder.merge("main")
    builder.write("x.txt", builder.read("x.txt").replace(b"line_10 = 10\n", b"line_10 = 'edited'\n"))
    _repo, session = open_session(builder.path)
    (entry,) = session.analysis.files
    edits = [h for h in entry.all_hunks if h.kind is HunkKind.EDIT]
    assert any(b"line_10 = 'edited'\n" in (h.result_text or ()) for h in edits), edits


def test_the_engine_reads_each_file_s_conflict_text_once(builder: RepoBuilder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Placing the hunks, the mismatch warning and the edits beside the blocks share one reading of a file: the
    work tree's diff3 text, then the same file drawn in git's default style, which the analysis reads."""
    builder.git("config", "merge.conflictStyle", "diff3")
    _fork(builder, *_shared_addition())
    builder.merge("main")
    reads: list[bytes] = []
    original = conflict_map.locate

    def counted(result: bytes, merge: MergeResult) -> conflict_map.Located | None:
        reads.append(result)
        return original(result, merge)

    monkeypatch.setattr(conflict_map, "locate", counted)
    monkeypatch.setenv("WORKBENCH_JOBS", "1")
    _repo, session = open_session(builder.path)
    (entry,) = session.analysis.files
    assert [h.kind for h in entry.all_hunks] == [HunkKind.CONFLICT]
    assert len(reads) == 2 and reads[0] == builder.read("x.txt") and reads[1] == entry.result_bytes
    assert b"|||||||" in reads[0] and b"|||||||" not in reads[1]
