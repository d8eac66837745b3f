"""Where a hunk's span of the ``-X theirs`` output lands in a result, when the diff could place an inserted
block on either side of equal lines."""

from __future__ import annotations

from workbench.analysis.hunks import build_hunks
from workbench.analysis.model import Taken
from workbench.analysis.placement import Span, place_spans
from workbench.analysis.xdiff import Favor, merge_lines, split_lines

THEIRS = [b"import x\n", b"\n", b"\n", b"def f():\n"]
DEV_BLOCK = [b"\n", b"# kept from dev\n", b"Y = 1\n"]
"""Dev's text of a hunk whose main side is empty (at line 1 of ``THEIRS``): it starts with a blank line."""


def test_a_kept_block_that_can_slide_over_a_blank_line_is_the_hunks() -> None:
    """The diff puts the block after the blank line (``# kept``, ``Y = 1``, blank); slid up one line it is
    exactly dev's text at the span, so the span holds it."""
    result = [THEIRS[0], *DEV_BLOCK, *THEIRS[1:]]
    assert place_spans(THEIRS, [Span(1, 0)], result, [set(DEV_BLOCK)]) == [(1, 4)]


def test_a_block_that_is_not_the_hunks_own_stays_outside() -> None:
    """The same shape with lines dev never wrote (a maintainer's addition) is not slid into the hunk."""
    other = [b"\n", b"# a maintainer's note\n", b"Z = 2\n"]
    result = [THEIRS[0], *other, *THEIRS[1:]]
    assert place_spans(THEIRS, [Span(1, 0)], result, [set(DEV_BLOCK)]) == [(1, 1)]


def test_an_insertion_already_at_the_edge_is_not_moved() -> None:
    block = [b"# kept from dev\n", b"Y = 1\n"]
    result = [THEIRS[0], *block, *THEIRS[1:]]
    assert place_spans(THEIRS, [Span(1, 0)], result, [set(block)]) == [(1, 3)]


def test_a_hunk_resolved_as_dev_reads_as_dev() -> None:
    """End to end (as Megatron-LM #4291's ``muon.py``): main deleted a line that dev replaced with a block
    starting with a blank line, before two blank lines; the result keeps dev's block.

    Read back, the hunk is dev's (not main's empty side with an edit of the result's own beside it).
    """
    base = b"from typing import Any\nX = 0\n\n\ndef f():\n    pass\n"
    dev = b"from typing import Any\n\n# kept from dev\nY = 1\n\n\ndef f():\n    pass\n"
    main = b"from typing import Any\n\n\ndef f():\n    return 2\n"
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    (chunk,) = merge.conflicts
    assert chunk.chg2 == 0, "main's side of the hunk is empty"
    (hunk,) = build_hunks(merge, merge.render(Favor.OURS))
    assert hunk.taken is Taken.DEV
    assert hunk.result_text == hunk.dev_text
