"""Highlighting for the other files a sync holds (C++/CUDA, YAML, shell, TOML, Markdown) with Pygments.

Pygments comes with Rich.  Its tokens are mapped onto the same few kinds
the Python highlighter uses (``syntax.KINDS``), so every language is
coloured by the theme's syntax colours and the dev/main tints stay
readable.  Lines whose display differs from their text (tabs, control
characters) are left plain rather than coloured at wrong places.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import PurePosixPath

import pygments.lexers
from pygments.lexer import Lexer
from pygments.token import Comment, Generic, Keyword, Name, Number, String, _TokenType

Spans = dict[int, tuple[tuple[int, int, str], ...]]

_BY_SUFFIX: dict[str, str] = {
    **dict.fromkeys((".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".inl"), "CppLexer"),
    **dict.fromkeys((".cu", ".cuh"), "CudaLexer"),
    **dict.fromkeys((".yaml", ".yml"), "YamlLexer"),
    **dict.fromkeys((".sh", ".bash"), "BashLexer"),
    ".toml": "TOMLLexer",
    **dict.fromkeys((".md", ".markdown"), "MarkdownLexer"),
}
"""Lexers by class name: Pygments loads a lexer's module when it is first asked for (the Markdown
lexer's alone takes longer to import than the rest of the app's start can spare)."""
_BY_NAME: dict[str, str] = {"uv.lock": "TOMLLexer", "Cargo.lock": "TOMLLexer", "poetry.lock": "TOMLLexer"}

_KINDS: tuple[tuple[_TokenType, str], ...] = (
    (Comment, "comment"),
    (String, "string"),
    (Keyword.Constant, "constant"),
    (Keyword.Type, "type"),
    (Keyword, "keyword"),
    (Name.Function, "function"),
    (Name.Class, "type"),
    (Name.Builtin, "function"),
    (Name.Constant, "constant"),
    (Name.Tag, "keyword"),
    (Number, "number"),
    (Generic.Heading, "keyword"),
    (Generic.Subheading, "keyword"),
)
"""Most specific first: ``Keyword.Constant`` before ``Keyword``."""


def lexer_class(path: str) -> type[Lexer] | None:
    """The lexer for ``path`` (None: not a language highlighted here)."""
    posix = PurePosixPath(path)
    name = _BY_NAME.get(posix.name) or _BY_SUFFIX.get(posix.suffix.lower())
    lexer: type[Lexer] | None = getattr(pygments.lexers, name) if name is not None else None
    return lexer


@cache
def _kind(token: _TokenType) -> str | None:
    for parent, kind in _KINDS:
        if token in parent:
            return kind
    return None


def pygments_highlighter(path: str, max_bytes: int, max_lines: int) -> Callable[[bytes], Spans] | None:
    """A function from a blob to per-line spans for ``path``'s language, or None."""
    cls = lexer_class(path)
    if cls is None:
        return None

    def spans(data: bytes) -> Spans:
        if len(data) > max_bytes or data.count(b"\n") > max_lines:
            return {}
        text = data.decode("utf-8", "replace")
        lexer = cls(stripnl=False, ensurenl=False, tabsize=0)
        out: dict[int, list[tuple[int, int, str]]] = {}
        row, column = 0, 0
        for token, value in lexer.get_tokens(text):
            kind = _kind(token)
            pieces = value.split("\n")
            for k, piece in enumerate(pieces):
                if k:
                    row, column = row + 1, 0
                if kind is not None and piece.strip():
                    out.setdefault(row, []).append((column, column + len(piece), kind))
                column += len(piece)
        lines = text.split("\n")
        return {r: tuple(found) for r, found in out.items() if r < len(lines) and _plain(lines[r])}

    return spans


def _plain(line: str) -> bool:
    """A line shown exactly as its text (no tab or control character moves the columns)."""
    return not any(ord(c) < 0x20 and c != "\r" for c in line)
