"""Each region of a merge says whose change it is by name (``ChunkMode``), not by xdiff's bare codes."""

from __future__ import annotations

from workbench.analysis.xdiff import ChunkMode, merge_lines, split_lines


def _lines(*words: str) -> list[bytes]:
    return split_lines("".join(f"{w}\n" for w in words).encode())


def test_each_region_names_whose_change_it_is() -> None:
    base = _lines("a", "1", "2", "3", "4", "b", "5", "6", "7", "8", "c", "9", "10", "11", "12", "d")
    ours = _lines("A", "1", "2", "3", "4", "ours", "5", "6", "7", "8", "c", "9", "10", "11", "12", "D")
    theirs = _lines("a", "1", "2", "3", "4", "theirs", "5", "6", "7", "8", "C", "9", "10", "11", "12", "D")
    merge = merge_lines(base, ours, theirs)
    assert [c.mode for c in merge.chunks] == [ChunkMode.OURS_ONLY, ChunkMode.CONFLICT, ChunkMode.THEIRS_ONLY]
    assert all(type(c.mode) is ChunkMode for c in merge.chunks)
    assert merge.conflicts == (merge.chunks[1],)
