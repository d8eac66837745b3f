"""One choice per file: lock files keep dev's and regenerate, measured values take main's."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

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
from workbench.analysis.suggest.files import _NUMBER, _skeleton, suggest_file

_PIECES = st.sampled_from([b"1", b"-2.5", b"3e-4", b".5", b"nan", b"inf", b"NaN", b"Infinity", b"x", b" ", b"\t",
                           b'"', b":", b",", b"banana", b"info", b"+", b"-", b".", b"e", b"\r", b"#"])
_LINE = st.lists(_PIECES, max_size=8).map(b"".join)


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


@given(st.lists(_LINE, max_size=6), st.booleans())
def test_numbers_are_blanked_in_the_joined_text_as_line_by_line(lines: list[bytes], last_ended: bool) -> None:
    text = [line + b"\n" for line in lines]
    if text and lines[-1] and not last_ended:  # only the last line may lack its line end, and then it is not empty
        text[-1] = text[-1][:-1]
    by_line = frozenset(_NUMBER.sub(b"#", line.strip()) for line in text) if any(_NUMBER.search(x) for x in text) else frozenset()
    assert _skeleton(text) == by_line
