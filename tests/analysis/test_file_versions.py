"""One constructor for the analysis of one file's versions: what it keeps of the texts is decided there only."""

from __future__ import annotations

import re
from pathlib import Path

from workbench.analysis.file_versions import file_analysis
from workbench.analysis.model import ConflictKind, FileStatus, Rendered, Side
from workbench.analysis.xdiff import Favor, MergeResult, text_model
from workbench.git.types import ResultFile

PACKAGE = Path(__file__).resolve().parents[2] / "workbench"
SIDES = (Side("a.py", "b" * 40, 0o100644), Side("a.py", "d" * 40, 0o100644), Side("a.py", "m" * 40, 0o100644))


def test_only_the_constructor_builds_a_file_analysis() -> None:
    """The engine (outline and files), the paths beyond git's merge and mergetool all go through it."""
    builders = sorted(
        str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
        if re.search(r"\bFileAnalysis\(", path.read_text(encoding="utf-8"))
    )
    assert builders == ["analysis/file_versions.py"]


def _merge() -> tuple[MergeResult, bytes]:
    merge = text_model(b"x = 0\n", b"x = 1\n", b"x = 2\n", rediff_shifted=False).packed()
    return merge, merge.render(Favor.THEIRS)


def test_a_result_that_is_what_theirs_writes_is_rendered_when_read() -> None:
    merge, theirs = _merge()
    entry = file_analysis("a.py", ConflictKind.CONTENT, FileStatus.THEIRS_RESOLVED, SIDES,
                          ResultFile(True, bytes(theirs), "r" * 40), merge=merge, theirs=theirs)
    assert entry.rendered is Rendered.BOTH and entry.stored_result is None and entry.stored_theirs is None
    assert entry.result_bytes == entry.theirs_bytes == theirs


def test_another_result_is_kept_and_theirs_rendered() -> None:
    merge, theirs = _merge()
    entry = file_analysis("a.py", ConflictKind.CONTENT, FileStatus.HAND_RESOLVED, SIDES,
                          ResultFile(True, b"x = 3\n", "r" * 40), merge=merge, theirs=theirs)
    assert entry.rendered is Rendered.THEIRS and entry.stored_result == b"x = 3\n" and entry.theirs_bytes == theirs


def test_without_theirs_the_result_is_kept_and_nothing_rendered() -> None:
    """A path git merged cleanly that the result changed: its merge is kept, ``-X theirs`` is not asked."""
    merge, _ = _merge()
    entry = file_analysis("a.py", ConflictKind.NONE, FileStatus.RESOLUTION_EDITED, SIDES,
                          ResultFile(True, b"x = 3\n", "r" * 40), merge=merge)
    assert entry.rendered is Rendered.NOTHING and entry.theirs_bytes is None and entry.result_bytes == b"x = 3\n"


def test_a_binary_resolved_as_main_keeps_one_copy() -> None:
    main, result = bytes(bytearray(b"\0main")), bytes(bytearray(b"\0main"))
    assert main is not result
    entry = file_analysis("a.bin", ConflictKind.BINARY, FileStatus.BINARY, SIDES, ResultFile(True, result, "m" * 40),
                          theirs=main)
    assert entry.stored_theirs is entry.stored_result is result
