"""The sentences the app says: counts in the right number, deletions called deletions, each mode's write."""

from __future__ import annotations

import pytest

from workbench.analysis.model import Mode
from workbench.tui.glyphs import counted
from workbench.tui.present import write_summary


def test_counted_agrees_in_number() -> None:
    assert [counted(n, "file") for n in (0, 1, 2)] == ["0 files", "1 file", "2 files"]


@pytest.mark.parametrize(
    ("written", "deleted", "mode", "expected"),
    [
        (["a.py"], [], Mode.IN_PROGRESS, "1 file written and staged."),
        (["a.py", "b.py"], [], Mode.MERGE_COMMIT, "2 files written to the work tree (commit a fix-up)."),
        ([], ["gone.py"], Mode.IN_PROGRESS, "gone.py deleted and the deletion staged."),
        ([], ["gone.py"], Mode.MERGE_COMMIT, "gone.py deleted from the work tree (commit a fix-up)."),
        ([], ["x", "y"], Mode.IN_PROGRESS, "2 files deleted and the deletions staged."),
        (["a.py"], ["gone.py"], Mode.IN_PROGRESS, "1 file written and gone.py deleted, all staged."),
        (["a.py"], ["gone.py"], Mode.MERGE_COMMIT, "1 file written and gone.py deleted in the work tree (commit a fix-up)."),
    ],
)
def test_write_summary_says_what_happened(written: list[str], deleted: list[str], mode: Mode, expected: str) -> None:
    assert write_summary(written, deleted, mode) == expected


def test_write_summary_shows_a_hostile_path_literally() -> None:
    assert "\\x1b[2J" in write_summary([], ["\x1b[2J.py"], Mode.IN_PROGRESS)
