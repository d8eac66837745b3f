"""A packed merge reads, renders, compares and pickles exactly as the tuples it replaces."""

from __future__ import annotations

import itertools
import pickle
from array import array

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.analysis.xdiff import Favor, MergeResult, Style, joined, merge_lines, split_lines
from workbench.analysis.xdiff.packed import Lines, pack

_LINE = st.sampled_from([b"a\n", b"b\n", b"c\r\n", b"\n", b"x = 1\n", b"", b"no newline"])


def _text(lines: list[bytes]) -> bytes:
    """A file's text: a line without a newline can only be its last."""
    return b"".join(line if line.endswith(b"\n") else line + b"\n" for line in lines[:-1]) + (lines[-1] if lines else b"")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_LINE, max_size=12), min_size=1, max_size=3))
def test_packed_versions_read_as_their_lines(versions: list[list[bytes]]) -> None:
    packed = pack(versions)
    for lines, original in zip(packed, versions, strict=True):
        assert len(lines) == len(original)
        assert list(lines) == original
        assert [lines[i] for i in range(-len(original), len(original))] == original + original
        assert lines[1:-1] == tuple(original[1:-1]) and list(lines[1:-1]) == original[1:-1]
        assert lines[::2] == tuple(original[::2]) and lines[::-1].join(0, len(original)) == b"".join(original[::-1])
        assert lines == tuple(original) and tuple(original) == lines and lines == original
        assert hash(lines) == hash(tuple(original))
        for start in range(-2, len(original) + 2):
            for stop in range(-2, len(original) + 2):
                assert lines.join(start, stop) == b"".join(original[start:stop])
                assert joined(lines, start, stop) == joined(original, start, stop) == b"".join(original[start:stop])
        assert joined(lines) == joined(original) == b"".join(original)
    for one, other in itertools.combinations(range(len(versions)), 2):
        assert (packed[one] == packed[other]) == (versions[one] == versions[other])


@settings(max_examples=200, deadline=None)
@given(st.lists(_LINE, max_size=10), st.lists(_LINE, max_size=10), st.lists(_LINE, max_size=10),
       st.sampled_from(list(Style)))
def test_a_packed_merge_renders_and_pickles_as_the_merge(base: list[bytes], ours: list[bytes], theirs: list[bytes],
                                                          style: Style) -> None:
    merge = merge_lines(split_lines(_text(base)), split_lines(_text(ours)), split_lines(_text(theirs)), style=style)
    packed = merge.packed()
    assert packed == merge
    for favor in Favor:
        assert packed.render(favor, ("dev", "main", "base")) == merge.render(favor, ("dev", "main", "base"))
    again = pickle.loads(pickle.dumps(packed))
    assert again == merge
    assert again.render() == merge.render()


def test_the_three_versions_share_one_pool_and_pickle_it_once() -> None:
    line = b"a line long enough to be counted if it were pickled three times over\n"
    base, ours, theirs = pack([[line] * 50, [line] * 50 + [b"ours\n"], [b"theirs\n"] + [line] * 50])
    assert base.join(0, 50) == line * 50 and ours.join(49, 51) == line + b"ours\n"
    assert len(base._pool) == 50 * len(line) + len(b"ours\n") + len(b"theirs\n")  # the first laid out whole
    data = pickle.dumps(MergeResult(base, ours, theirs, ()))
    assert data.count(base._pool) == 1 and len(data) < 2 * len(base._pool)
    again = pickle.loads(data)
    assert again.ours._pool is again.theirs._pool
    assert again.theirs[0] == b"theirs\n" and again.ours[-1] == b"ours\n"


def test_lines_differ_from_other_lines_and_from_text() -> None:
    (lines,) = pack([[b"a\n", b"b\n"]])
    assert lines != (b"a\n",)
    assert lines != (b"a\n", b"c\n")
    assert lines != b"a\nb\n"
    assert lines != "a\nb\n"
    assert lines != 2
    assert repr(lines) == "Lines((b'a\\n', b'b\\n'))"
    other = Lines(lines._pool, lines._starts, array("I", [1, 0]))
    assert other != lines and list(other) == [b"b\n", b"a\n"]
