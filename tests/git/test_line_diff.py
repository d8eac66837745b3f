"""Blame's line diff: the shared head and tail left out, still a true edit script of the whole files."""

from __future__ import annotations

import pygit2
import pytest
from helpers.texts import LINES, edited, texts
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.xdiff import split_lines
from workbench.git import line_diff
from workbench.git.line_diff import line_changes
from workbench.git.types import Edit, Script


def _whole(old: bytes, new: bytes) -> Script:
    """libgit2 on the whole files (what blame used before the ends were left out)."""
    patch = pygit2.Patch.create_from(old, new, flag=pygit2.enums.DiffOption.FORCE_TEXT, context_lines=0)
    return tuple(Edit(h.old_start if h.old_lines == 0 else h.old_start - 1, h.old_lines,
                      h.new_start if h.new_lines == 0 else h.new_start - 1, h.new_lines) for h in patch.hunks)


def _assert_true_script(old: bytes, new: bytes, script: Script) -> None:
    """Runs in order and in range, and every line outside them is the same line on both sides."""
    a, b = split_lines(old), split_lines(new)
    i = j = 0
    for run in script:
        assert run.i1 >= i and run.i2 >= j and run.i1 - i == run.i2 - j, script
        assert a[i:run.i1] == b[j:run.i2], script
        i, j = run.i1 + run.chg1, run.i2 + run.chg2
        assert (run.chg1 or run.chg2) and i <= len(a) and j <= len(b), script
    assert a[i:] == b[j:] and len(a) - i == len(b) - j, script


@st.composite
def _long_pairs(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """Two versions of a file with long shared runs around the edits (repeated lines included)."""
    head = b"".join(draw(st.lists(st.sampled_from(LINES), max_size=40)))
    tail = b"".join(draw(st.lists(st.sampled_from(LINES), max_size=40)))
    middle = draw(texts())
    end = b"" if draw(st.integers(0, 5)) else b"last"
    return head + middle + tail + end, head + draw(edited(middle)) + tail + end


@pytest.mark.parametrize("margin", [0, 1, 3])
@settings(max_examples=150, deadline=None)
@given(pair=_long_pairs())
def test_the_script_is_true_of_the_whole_files(margin: int, pair: tuple[bytes, bytes]) -> None:
    old, new = pair
    saved, line_diff.MARGIN = line_diff.MARGIN, margin
    try:
        _assert_true_script(old, new, line_changes(old, new))
    finally:
        line_diff.MARGIN = saved


@settings(max_examples=150, deadline=None)
@given(pair=_long_pairs())
def test_with_its_margin_it_is_libgit2s_script_on_these_files(pair: tuple[bytes, bytes]) -> None:
    old, new = pair
    assert line_changes(old, new) == _whole(old, new)


def test_a_change_in_a_long_file_is_placed_where_it_is() -> None:
    lines = [f"line {n}\n".encode() for n in range(400)]
    new = lines.copy()
    new[200:201] = [b"changed\n", b"added\n"]
    assert line_changes(b"".join(lines), b"".join(new)) == (Edit(200, 1, 200, 2),)
    assert line_changes(b"".join(lines), b"".join(lines)) == ()
