"""Edit hunks (what the result changed outside git's conflicts) beside conflicts and blank lines."""

from __future__ import annotations

from workbench.analysis.edits import edit_hunks
from workbench.analysis.hunks import build_hunks
from workbench.analysis.model import Taken
from workbench.analysis.xdiff import merge_lines, split_lines


def test_blank_lines_the_result_dropped_are_no_sides_text() -> None:
    """dev's clean change adds a blank line; the result drops both blank lines there: it holds nothing, which
    is not "dev's text" (it read ``dev`` once: all newlines compared equal to nothing)."""
    base = b"import a\nx = 1\n\ndef f():\n    pass\n"
    dev = b"import a\nx = 1\n\n\ndef f():\n    pass\n"
    main = b"import a\nx = 2\n\ndef f():\n    pass\n"
    merge = merge_lines(split_lines(base), split_lines(dev), split_lines(main))
    result = b"import a\nx = 2\ndef f():\n    pass\n"
    hunks = build_hunks(merge, result)
    (edit,) = edit_hunks(merge, result, None, [h.result for h in hunks if h.result is not None], len(hunks))
    assert edit.result_text == () and edit.taken is Taken.OTHER


def test_a_change_beside_a_conflict_main_emptied_is_an_edit() -> None:
    """base ``p b c d z``: dev edits b, main deletes it and changes d; the result keeps dev's line and drops
    ``c D-MAIN``: the drop is an edit (it touched the conflict's place and was dropped with it)."""
    merge = merge_lines(split_lines(b"p\nb\nc\nd\nz\n"), split_lines(b"p\nB-DEV\nc\nd\nz\n"),
                        split_lines(b"p\nc\nD-MAIN\nz\n"))
    result = b"p\nB-DEV\nz\n"
    (hunk,) = build_hunks(merge, result)
    assert hunk.taken is Taken.DEV
    assert hunk.result is not None
    (edit,) = edit_hunks(merge, result, None, [hunk.result], 1)
    assert b"D-MAIN\n" in edit.main_text and edit.result_text == ()
    assert b"B-DEV\n" not in edit.dev_text, "the region never reaches into the conflict"
