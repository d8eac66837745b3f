"""Random small files and edits of them, for the property tests that compare the merge engine with git.

The alphabet is tiny so sides collide often (conflicts, repeated lines, CRLF
and a missing final newline are the common case, not the rare one).
"""

from __future__ import annotations

from hypothesis import strategies as st

from workbench.analysis.xdiff import split_lines

LINES = [b"a\n", b"b\n", b"c\n", b"\n", b"}\n", b"x = 1\n", b"a\r\n", b"def f():\n", b"    pass\n"]
MARKER_LIKE = [*LINES, b"=======\n", b"|||||||\n"]
"""With lines that look like git's separators (a reST underline, a table rule): text inside a block."""


@st.composite
def texts(draw: st.DrawFn, alphabet: list[bytes] = LINES) -> bytes:
    """Small files over a tiny alphabet (so sides collide), maybe no final newline."""
    lines = draw(st.lists(st.sampled_from(alphabet), max_size=14))
    data = b"".join(lines)
    if data and draw(st.booleans()) and draw(st.booleans()):
        data = data.rstrip(b"\n")
    return data


@st.composite
def edited(draw: st.DrawFn, base: bytes, alphabet: list[bytes] = LINES) -> bytes:
    """``base`` with a few lines deleted, inserted or replaced."""
    lines = split_lines(base)
    lines = [line if line.endswith(b"\n") else line + b"\n" for line in lines]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["del", "ins", "rep"]))
        pos = draw(st.integers(0, len(lines)))
        if op == "ins" or not lines:
            lines.insert(pos, draw(st.sampled_from(alphabet)))
        elif op == "del":
            del lines[min(pos, len(lines) - 1)]
        else:
            lines[min(pos, len(lines) - 1)] = draw(st.sampled_from(alphabet))
    data = b"".join(lines)
    if data and draw(st.integers(0, 4)) == 0:
        data = data[:-1]
    return data


@st.composite
def triples(draw: st.DrawFn, alphabet: list[bytes] = LINES) -> tuple[bytes, bytes, bytes]:
    base = draw(texts(alphabet))
    return base, draw(edited(base, alphabet)), draw(edited(base, alphabet))
