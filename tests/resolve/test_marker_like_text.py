"""A side's own lines that look like conflict markers, inside git's blocks: read as text, never as markers.

git copies a side's lines into its section as they are: a table rule of
seven ``|``, a reST underline of seven ``=``.  Read as markers, they cut a
section short, and taking that side once wrote the file without the lines
after them (and staged it).  Each case merges for real in the user's style,
decides every hunk one way, writes, and compares with ``git merge -X``.
"""

from __future__ import annotations

import pytest
from helpers.syncs import open_session

from workbench.analysis import conflict_map
from workbench.analysis.conflict_text import Section, readings
from workbench.analysis.hunks import build_hunks
from workbench.analysis.xdiff import merge_lines, split_lines
from workbench.resolve.splice import Choice, ConflictTextError, Decision, splice_conflicted
from workbench.resolve.writer import write_file
from workbench.sample import RepoBuilder

CASES = {  # (base, dev, main): dev's side of the conflict holds a marker-like line
    "base-marker-mid-section": ("a\nb\nc\n", "a\ndev 1\n|||||||\ndev 2\nc\n", "a\nmain\nc\n"),
    "base-marker-last-line": ("a\nb\n", "a\ndev 1\n|||||||\n", "a\nmain\n"),
    "separator-underline": ("t\n", "Heading\n=======\n\ndev\n", "Heading\n=======\n\nmain\n"),
    "separator-alone": ("a\nb\nc\n", "a\n=======\nc\n", "a\nmain b\nc\n"),
    "both-sides": ("a\nb\nc\n", "a\n|||||||\ndev\nc\n", "a\nmain\n=======\nc\n"),
}


def _merged(b: RepoBuilder, style: str, case: str) -> RepoBuilder:
    base, dev, main = CASES[case]
    b.git("config", "merge.conflictStyle", style)
    b.write("notes.txt", base).commit("base")
    b.branch("dev").checkout("dev").write("notes.txt", dev).commit("dev (#2)")
    b.checkout("main").write("notes.txt", main).commit("main (#3)")
    b.checkout("dev").merge("main")
    return b


def _git_merge(b: RepoBuilder, favour: str) -> bytes:
    """What ``git merge -X favour`` of the same tips puts in the file (in a throwaway work tree)."""
    b.git("worktree", "add", "-q", "--detach", str(b.path.parent / f"wt-{favour}"), b.rev("HEAD"))
    other = RepoBuilder.open(b.path.parent / f"wt-{favour}")
    other.merge("main", favour, check=True)
    return other.read("notes.txt")


@pytest.mark.parametrize("style", ["merge", "diff3", "zdiff3"])
@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("choice", [Choice.DEV, Choice.MAIN])
def test_every_hunk_one_way_writes_what_git_merge_x_writes(
    builder: RepoBuilder, style: str, case: str, choice: Choice
) -> None:
    _merged(builder, style, case)
    repo, session = open_session(builder.path)
    entry = session.file("notes.txt")
    for hunk in entry.all_hunks:
        session.decide("notes.txt", hunk.index, Decision(choice))
    outcome = write_file(repo, session, "notes.txt")
    assert outcome.written and outcome.staged, outcome.message
    assert builder.read("notes.txt") == _git_merge(builder, "ours" if choice is Choice.DEV else "theirs")
    assert builder.git("diff", "--cached", "--name-only", "--diff-filter=U") == b""


@pytest.mark.parametrize("style", ["merge", "diff3", "zdiff3"])
def test_the_reading_that_agrees_with_the_model_is_found(builder: RepoBuilder, style: str) -> None:
    """The plain reading takes dev's ``|||||||`` for diff3's base marker; another reading of the same text
    puts it back in dev's section, and that one matches the hunks."""
    _merged(builder, style, "base-marker-mid-section")
    _, session = open_session(builder.path)
    entry = session.file("notes.txt")
    assert entry.result_bytes is not None and entry.merge is not None
    found = conflict_map.locate(entry.result_bytes, entry.merge)
    assert found is not None and found.agrees
    assert [b"|||||||\n" in block.ours for block in found.text.blocks] == [True]


def test_readings_vary_the_separators_inside_each_block_and_prefer_sections_that_fit() -> None:
    text = b"<<<<<<< a\nx\n=======\ny\n=======\nz\n>>>>>>> b\n"
    every = readings(text, 7, lambda _side, _lines: True)
    assert every is not None and every.sure == frozenset()
    assert [[(b.ours, b.theirs) for b in r.blocks] for r in every.texts()] == [
        [((b"x\n",), (b"y\n", b"=======\n", b"z\n"))], [((b"x\n", b"=======\n", b"y\n"), (b"z\n",))]
    ]

    def z_is_main(side: str, lines: tuple[bytes, ...]) -> bool:
        return side != "theirs" or lines == (b"z\n",)

    one = readings(text, 7, z_is_main)
    assert one is not None and one.sure == {Section.THEIRS}  # dev's x, = and y fit dev either way
    assert [r.blocks[0].ours for r in one.texts()] == [(b"x\n", b"=======\n", b"y\n")]
    by_hand = readings(text, 7, lambda _side, _lines: False)  # no side fits: every reading kept, none sure
    assert by_hand is not None and len(by_hand.choices[0]) == 2 and by_hand.sure == frozenset()
    assert readings(b"<<<<<<< a\nx\n>>>>>>> b\n", 7, lambda _side, _lines: True) is None  # no separator
    assert readings(b">>>>>>> b\n<<<<<<< a\nx\n=======\ny\n", 7, lambda _side, _lines: True) is None  # not in order


def test_a_whole_side_is_not_written_from_blocks_that_read_two_ways() -> None:
    """Model and file disagree (main's section edited by hand), and dev's section holds ``|||||||``: is it
    diff3's base marker or dev's line?  Main's section is the same either way and is written; dev's is not."""
    base, dev, main = b"a\nb\nc\n", b"a\ndev 1\n|||||||\ndev 2\nc\n", b"a\nmain\nc\n"
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    hunks = build_hunks(merge, None, unmerged=True)
    result = b"a\n<<<<<<< HEAD\ndev 1\n|||||||\ndev 2\n=======\nmain, edited by hand\n>>>>>>> main\nc\n"
    found = conflict_map.locate(result, merge)
    assert found is not None and not found.agrees and found.sure == {Section.THEIRS}
    written = splice_conflicted(result, hunks, [Decision(Choice.MAIN)] * len(hunks), merge)
    assert written == b"a\nmain, edited by hand\nc\n"
    with pytest.raises(ConflictTextError, match="looks like a marker"):
        splice_conflicted(result, hunks, [Decision(Choice.DEV)] * len(hunks), merge)

