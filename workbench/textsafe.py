"""Showing repository text (paths, commit messages, file content) literally.

Repository text is untrusted: an ANSI escape in a commit subject could
recolour or retitle the terminal, and ``[bold]`` or ``[link=...]`` would be
read as Rich markup.  Front ends pass such text through ``visible`` and put
it in ``rich.text.Text`` objects (never in markup strings), or through
``markup_safe`` when a markup string is unavoidable.
"""

from __future__ import annotations

import re

from rich.markup import escape

from workbench.git.content import decode

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


def markup_safe(text: str, *, single_line: bool = True) -> str:
    """``visible`` and escaped for Rich/Textual markup strings."""
    return escape(visible(text, single_line=single_line))


__all__ = ["decode", "markup_safe", "visible"]
