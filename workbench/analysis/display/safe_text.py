"""Repository text made safe to show: control characters spelled out, so none acts.

Repository text is untrusted: an ANSI escape in a commit subject could
recolour or retitle the terminal, and a bidi override could make a line read
in a different order than it is stored.  ``visible`` is the one place that
spells such characters out (``\\x1b``); front ends reach it through
``workbench.textsafe``, and ``display_text`` (the text of every row a view
draws) is built on it.
"""

from __future__ import annotations

import re

TAB_SIZE = 4

# C0 controls except tab/newline, DEL, C1 controls, and the bidi overrides
# that can make text display in a different order than it is stored.
# Lone surrogates \udc80-\udcff are undecodable bytes kept by surrogateescape
# (e.g. a Latin-1 file name); they are shown as the byte they stand for.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\udc80-\udcff]")
_UNSAFE_WITH_NEWLINES = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\udc80-\udcff]")


def _escape_char(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0x0A:
        return "\\n"
    if code == 0x09:
        return "\\t"
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, single_line: bool = True) -> str:
    """``text`` with control characters spelled out (``\\x1b``) so none acts."""
    pattern = _UNSAFE_WITH_NEWLINES if single_line else _UNSAFE
    return pattern.sub(_escape_char, text)


def display_text(line: bytes) -> str:
    """One line as it may be shown: decoded, unterminated, tabs expanded, controls spelled out."""
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        text = line.decode("latin-1")
    if "\t" in text:
        text = text.expandtabs(TAB_SIZE)
    return visible(text)
