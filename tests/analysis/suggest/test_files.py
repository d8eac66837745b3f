"""One choice per file: lock files keep dev's and regenerate, measured values take main's."""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import (
    ConflictKind,
    FileAnalysis,
    FileHistory,
    FileRung,
    FileStatus,
    FileTake,
    Hunk,
    LineRange,
    Side,
    Signal,
    SignalKind,
    Taken,
)
from workbench.analysis.suggest.files import suggest_file


def hunk(dev: tuple[bytes, ...], main: tuple[bytes, ...]) -> Hunk:
    r = LineRange(1, 1)
    return Hunk(0, r, r, r, r, Taken.MAIN, (b"x\n",), dev, main, None)


def entry(path: str, *hunks: Hunk, signals: tuple[Signal, ...] = ()) -> FileAnalysis:
    side = Side(path, "0" * 40, 0o100644)
    return FileAnalysis(path, FileStatus.THEIRS_RESOLVED, ConflictKind.CONTENT, side, side, side, None, True, hunks,
                        FileHistory(), signals=signals)


def test_a_lock_file_keeps_dev_s_then_regenerates_by_its_tool_or_the_policy_s_note() -> None:
    lock = entry("sub/uv.lock", hunk((b'version = "1"\n',), (b'version = "2"\n',)))
    found = suggest_file(lock)
    assert found is not None and found.take is FileTake.FILE_DEV and found.rung is FileRung.LOCK_FILE
    assert found.regenerate == "uv lock"
    noted = Signal(SignalKind.POLICY_NOTE, "Never edit by hand: regenerate it with `uv lock --frozen-ish` in the container.")
    assert (suggest_file(replace(lock, signals=(noted,))) or found).regenerate == "uv lock --frozen-ish"


def test_values_that_differ_only_in_numbers_take_main_s() -> None:
    golden = entry("t/golden_values.json", hunk((b'  "1": 4.5,\n', b'  "2": 4.4,\n'), (b'  "1": 4.51,\n',)))
    found = suggest_file(golden)
    assert found is not None and found.take is FileTake.FILE_MAIN and found.rung is FileRung.MEASURED_VALUES
    code = entry("t/config.json", hunk((b'  "lr": 4.5,\n',), (b'  "warmup": 4.5,\n',)))
    assert suggest_file(code) is None, "a changed key is not a measured value"
    assert suggest_file(entry("a.py", hunk((b"x = 1\n",), (b"x = 2\n",)))) is None
