"""Where a hunk's span of the ``-X theirs`` output lands in a result, when the diff could place an inserted
block on either side of equal lines."""

from __future__ import annotations

from workbench.analysis.edits import edit_hunks
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
    assert place_spans(THEIRS, [Span(1, 0)], result, [DEV_BLOCK]) == [(1, 4)]


def test_a_block_that_is_not_the_hunks_own_stays_outside() -> None:
    """The same shape with lines dev never wrote (a maintainer's addition) is not slid into the hunk."""
    other = [b"\n", b"# a maintainer's note\n", b"Z = 2\n"]
    result = [THEIRS[0], *other, *THEIRS[1:]]
    assert place_spans(THEIRS, [Span(1, 0)], result, [DEV_BLOCK]) == [(1, 1)]


def test_an_insertion_already_at_the_edge_is_not_moved() -> None:
    block = [b"# kept from dev\n", b"Y = 1\n"]
    result = [THEIRS[0], *block, *THEIRS[1:]]
    assert place_spans(THEIRS, [Span(1, 0)], result, [block]) == [(1, 3)]


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


def test_a_hand_resolution_where_main_deleted_the_lines_is_the_hunks() -> None:
    """main deleted a line dev edited (an empty span); the file holds the user's own line there: the hunk holds
    it (it once read main's empty side placed after it, and taking dev then wrote both lines)."""
    theirs = [b"a\n", b"c\n"]
    assert place_spans(theirs, [Span(1, 0)], [b"a\n", b"B-DEV-fixed\n", b"c\n"], [[b"B-DEV\n"]]) == [(1, 2)]
    assert place_spans(theirs, [Span(1, 0)], [b"a\n", b"B-DEV\n", b"one more\n", b"c\n"], [[b"B-DEV\n"]]) == [(1, 3)]


def test_dev_kept_where_main_deleted_and_main_changed_the_next_line_dropped() -> None:
    """base ``p b c d``: dev edits b, main deletes b and changes d; the result ``p B-DEV`` replaced main's
    ``c D-MAIN`` with dev's line: the hunk holds dev's line, the lines it replaced stay outside (an edit)."""
    theirs = [b"p\n", b"c\n", b"D-MAIN\n", b"z\n"]
    assert place_spans(theirs, [Span(1, 0)], [b"p\n", b"B-DEV\n", b"z\n"], [[b"B-DEV\n"]]) == [(1, 2)]
    fixed = [b"p\n", b"C-FIX\n", b"D-MAIN\n", b"z\n"]  # a fix of the next line alone is not the hunk's
    assert place_spans(theirs, [Span(1, 0)], fixed, [[b"B-DEV\n"]]) == [(1, 1)]


def test_a_line_deleted_just_after_a_hunk_leaves_the_hunk_whole() -> None:
    """It once mapped the span's end back over the deletion: the hunk read empty (``other``)."""
    theirs = [b"a\n", b"M\n", b"c\n", b"d\n"]
    assert place_spans(theirs, [Span(1, 1)], [b"a\n", b"M\n", b"d\n"], [[b"D\n"]]) == [(1, 2)]


def test_the_apps_own_write_of_dev_everywhere_reads_as_dev() -> None:
    """main's side empty, dev's a line equal to the one after it: the diff put the kept line after the equal one
    (main's side, then an edit of the result's own); a file made of choices reads back as those choices."""
    base, dev, main = b"c\n    pass\n", b"    pass\n    pass\n", b"    pass\nc\na\n}\n"
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    (hunk,) = build_hunks(merge, merge.render(Favor.OURS))
    assert hunk.taken is Taken.DEV
    held = [h.result for h in (hunk,) if h.result is not None]
    assert edit_hunks(merge, merge.render(Favor.OURS), None, held, 1) == ()


def test_dev_kept_beside_a_dropped_equal_line_reads_as_dev() -> None:
    """dev's text ends with the line main's clean change after it adds; the resolution kept dev's text and
    dropped main's line: a diff against main's text matched dev's last line with main's (the hunk read
    ``DEV`` alone, ``other``); against dev's text, the hunk is dev's, the drop an edit beside it."""
    base = b"a\nb\nc\n"
    dev = b"a\nDEV\n}\nc\n"
    main = b"a\nMAIN\nc\n}\n"
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    result = b"a\nDEV\n}\nc\n"
    (hunk,) = build_hunks(merge, result)
    assert hunk.result_text == (b"DEV\n", b"}\n")
    assert hunk.taken is Taken.DEV
