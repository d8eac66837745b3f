"""Python highlighting captured a chunk of lines at a time gives exactly what one whole-file capture gives."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.tui import syntax
from workbench.tui.syntax import PythonSpans, python_spans

LINES = (
    'def f(a, b=1):',
    '    """A docstring',
    '    that spans lines, é included',
    '    """',
    "    return a + b  # a comment",
    "class C(Base):",
    "    X = 0x1F",
    "    s = 'héllo' + f\"{x!r}\"",
    "\tif y: pass",
    "x = '''one",
    "two'''",
    "print(None, True)",
    "",
    "@decorator",
    "async def g(): await h()",
    "bad = (",
)


def _whole_file(data: bytes, patch: pytest.MonkeyPatch) -> dict[int, tuple[tuple[int, int, str], ...]]:
    patch.setattr(syntax, "CHUNK", 1_000_000)
    return dict(python_spans(data))


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.sampled_from(LINES), min_size=1, max_size=40), chunk=st.integers(min_value=1, max_value=7),
       final_newline=st.booleans())
def test_chunked_spans_equal_whole_file_spans(rows: list[str], chunk: int, final_newline: bool) -> None:
    data = ("\n".join(rows) + ("\n" if final_newline else "")).encode()
    with pytest.MonkeyPatch.context() as patch:
        expected = _whole_file(data, patch)
        patch.setattr(syntax, "CHUNK", chunk)
        lazily = python_spans(data)
        # Looked up one line at a time, last line first (as a view scrolled from the end would), then whole.
        lines = data.count(b"\n") + 1
        one_by_one = {row: lazily[row] for row in reversed(range(lines)) if lazily.get(row) is not None}
        assert one_by_one == expected
        assert dict(python_spans(data)) == expected


def test_a_lookup_captures_only_its_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(syntax, "CHUNK", 10)
    spans = python_spans(b"x = 1  # one\n" * 100)
    assert isinstance(spans, PythonSpans)
    assert spans.get(55) == ((4, 5, "number"), (7, 12, "comment"))
    assert spans._filled == {5}, "a lookup of line 55 captures lines 50-59, not the file"  # noqa: SLF001
    assert spans.get(1000) is None and spans.get(-1) is None, "lines outside the text have no spans"
    assert len(spans) == 100
