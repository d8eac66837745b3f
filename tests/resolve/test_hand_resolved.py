"""Conflicts a person already touched: read as they stand, decided over all they hold, written as git would.

Each case merges for real, edits the file as a person would (in an editor, or in the merge commit), then
reads it back as the app and ``analyze`` do and writes the decisions, comparing with ``git merge -X``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.syncs import analyze_repo, open_session

from workbench.analysis.model import HunkKind, Level, Taken
from workbench.analysis.serialize import analysis_to_json
from workbench.cli import main
from workbench.resolve.splice import Choice, Decision
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder

F = "f.txt"


def _merge(b: RepoBuilder, base: str, dev: str, main: str, style: str = "merge") -> RepoBuilder:
    b.git("config", "merge.conflictStyle", style)
    b.write(F, base).commit("base")
    b.branch("dev").checkout("dev").write(F, dev).commit("dev (#2)")
    b.checkout("main").write(F, main).commit("main (#3)")
    b.checkout("dev")
    assert b.merge("main") == 1
    return b


def _git_merge(b: RepoBuilder, favour: str) -> bytes:
    """What ``git merge -X favour`` of the same tips puts in the file (in a throwaway work tree)."""
    b.git("worktree", "add", "-q", "--detach", str(b.path.parent / f"wt-{favour}"), b.rev("HEAD"))
    other = RepoBuilder.open(b.path.parent / f"wt-{favour}")
    other.merge("main", favour, check=True)
    return other.read(F)


def _decide_and_write(b: RepoBuilder, choice: Choice, rev: str | None = None) -> bytes:
    repo, session = open_session(b.path, rev=rev)
    for hunk in session.file(F).hunks:
        session.decide(F, hunk.index, Decision(choice))
    for edit in session.file(F).edits:
        session.decide(F, edit.index, Decision(Choice.MERGED))
    outcome = write_file(repo, session, F)
    assert outcome.written, outcome.message
    return b.read(F)


# -- a hand-edited block where main deleted the lines ---------------------------------------------------------

DELETED_BY_MAIN = ("a\nb\nc\n", "a\nB-DEV\nc\n", "a\nc\n")
HAND = {"fixed": "B-DEV-fixed\n", "plus one": "B-DEV\none more\n", "comment": "# dropped on purpose\n"}


@pytest.mark.parametrize("hand", sorted(HAND))
def test_a_block_main_deleted_resolved_by_hand_is_the_hunks(builder: RepoBuilder, hand: str) -> None:
    """The hunk holds the hand's text (it read ``main`` at risk 0, placed after it, and ``d`` wrote both)."""
    _merge(builder, *DELETED_BY_MAIN)
    builder.write(F, "a\n" + HAND[hand] + "c\n")
    (entry,) = analyze_repo(builder.path).files
    (hunk,) = entry.hunks
    assert hunk.taken is Taken.OTHER
    assert hunk.result is not None and hunk.result.start == 2 and hunk.result_text == tuple(
        line.encode() + b"\n" for line in HAND[hand].splitlines())
    assert not entry.edits


@pytest.mark.parametrize("choice", [Choice.DEV, Choice.MAIN])
def test_taking_a_side_replaces_the_hand_edited_block(builder: RepoBuilder, choice: Choice) -> None:
    _merge(builder, *DELETED_BY_MAIN)
    builder.write(F, "a\nB-DEV\none more\nc\n")
    written = _decide_and_write(builder, choice)
    assert written == _git_merge(builder, "ours" if choice is Choice.DEV else "theirs")
    assert builder.git("diff", "--cached", "--name-only", "--diff-filter=U") == b""


def test_a_merge_commit_that_edited_the_line_main_deleted(builder: RepoBuilder) -> None:
    _merge(builder, *DELETED_BY_MAIN)
    builder.write(F, "a\nB-DEV-fixed\nc\n")
    merge = builder.commit("merge main, fixed by hand")
    (entry,) = analyze_repo(builder.path, merge).files
    (hunk,) = entry.hunks
    assert hunk.taken is Taken.OTHER and hunk.result_text == (b"B-DEV-fixed\n",)
    assert not entry.edits
    assert _decide_and_write(builder, Choice.DEV, merge) == b"a\nB-DEV\nc\n"


# -- diff3/zdiff3: one hunk over two of git's blocks, one resolved by hand ------------------------------------

TWO_BLOCKS = ("a\nb\nc\nd\ne\nf\ng\nh\n", "a\nB1\nc\nd\ne\nF1\ng\nh\n", "a\nB2\nc\nd\ne\nF2\ng\nh\n")


def _resolve_first_block(b: RepoBuilder, into: str) -> None:
    text = b.read(F).decode()
    start = text.index("<<<<<<<")
    end = text.index(">>>>>>> main\n") + len(">>>>>>> main\n")
    b.write(F, text[:start] + into + text[end:])


@pytest.mark.parametrize("style", ["diff3", "zdiff3"])
@pytest.mark.parametrize("into", ["B2\n", "", "B-HAND\n"], ids=["accepted", "emptied", "own"])
@pytest.mark.parametrize("choice", [Choice.DEV, Choice.MAIN])
def test_a_side_taken_over_two_blocks_one_resolved_by_hand_is_git_merge_x(
    builder: RepoBuilder, style: str, into: str, choice: Choice
) -> None:
    _merge(builder, *TWO_BLOCKS, style=style)
    assert builder.read(F).count(b"<<<<<<<") == 2
    _resolve_first_block(builder, into)
    _, session = open_session(builder.path)
    (hunk,) = session.file(F).hunks
    assert hunk.taken is Taken.UNRESOLVED
    assert _decide_and_write(builder, choice) == _git_merge(builder, "ours" if choice is Choice.DEV else "theirs")


# -- a resolution that drops main's clean change next to such a block -----------------------------------------

def test_main_s_change_dropped_beside_the_block_is_an_edit_and_fails_the_gate(builder: RepoBuilder) -> None:
    """base ``p b c d z1 z2``; dev edits b; main deletes b and changes d; the resolution keeps dev's line and
    drops main's change (once: one hunk ``main``, low, nothing lost, D-MAIN nowhere, the gate passed)."""
    _merge(builder, "p\nb\nc\nd\nz1\nz2\n", "p\nB-DEV\nc\nd\nz1\nz2\n", "p\nc\nD-MAIN\nz1\nz2\n")
    builder.write(F, "p\nB-DEV\nz1\nz2\n")
    merge = builder.commit("merge main (bot resolution)")
    (entry,) = analyze_repo(builder.path, merge).files
    (hunk,) = entry.hunks
    assert hunk.taken is Taken.DEV
    (edit,) = entry.edits
    assert edit.kind is HunkKind.EDIT and b"D-MAIN\n" in edit.main_text and edit.result_text == ()
    assert edit.level is not Level.LOW and edit.lost_lines.main
    repo = str(builder.path)
    assert main(["report", merge, "--repo", repo, "--format", "json", "--fail-on", "medium"]) == 1
    assert _decide_and_write(builder, Choice.DEV, merge) == b"p\nB-DEV\nc\nD-MAIN\nz1\nz2\n"


# -- the app's own write, read back --------------------------------------------------------------------------

def test_a_file_written_as_dev_everywhere_reads_back_as_dev(builder: RepoBuilder) -> None:
    """Written as ``git merge -X ours`` writes it, the file once read back as an ``other`` hunk plus an edit
    outside git's conflicts that nothing could decide."""
    _merge(builder, "c\n    pass\n", "    pass\n    pass\n", "    pass\nc\na\n}\n")
    written = _decide_and_write(builder, Choice.DEV)
    assert written == _git_merge(builder, "ours")
    (entry,) = analyze_repo(builder.path).files
    assert [h.taken for h in entry.hunks] == [Taken.DEV] and not entry.edits


# -- the same merge in every conflict style --------------------------------------------------------------------

STYLED = (
    "import os\n\n\ndef f(a):\n    x = 1\n    y = 2\n    z = 3\n    w = 4\n    return a\n\n\nclass K:\n    pass\n",
    "import os\n\n\ndef f(a, b):\n    x = 10\n    y = 2\n    z = 3\n    w = 40\n    return a + b\n\n\nclass K:\n    pass\n",
    "import os\nimport sys\n\n\ndef f(a):\n    x = 11\n    y = 2\n    z = 3\n    w = 41\n    return sys.argv\n\n\n"
    "class K:\n    value = 1\n",
)


def _styled(tmp_path_factory: pytest.TempPathFactory, style: str) -> dict[str, Any]:
    b = _merge(RepoBuilder.init(tmp_path_factory.mktemp(style) / "repo"), *STYLED, style=style)
    document: dict[str, Any] = json.loads(json.dumps(analysis_to_json(analyze_repo(b.path))))
    for entry in document["files"]:
        entry["sides"]["result"]["oid"] = None  # the work tree's bytes, which git drew in the style
    return document


def test_the_analysis_does_not_depend_on_the_conflict_style(tmp_path_factory: pytest.TempPathFactory) -> None:
    merge_style = _styled(tmp_path_factory, "merge")
    assert _styled(tmp_path_factory, "diff3") == merge_style
    assert _styled(tmp_path_factory, "zdiff3") == merge_style
