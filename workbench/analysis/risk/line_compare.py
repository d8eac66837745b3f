"""Comparing code the way a reviewer reads it: whitespace-blind, blank lines ignored.

A squash on main is often re-indented or re-wrapped by a formatter, so
"main's text equals an older dev state" has to hold whitespace-insensitively.
Lines without a letter or digit (blank, a lone bracket, a docstring quote)
say nothing about whose work survived and are left out of every count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_ALNUM = re.compile(rb"[A-Za-z0-9]")
_LITERALS = re.compile(
    rb"""[rbuf]{0,2}"(?:[^"\\\n]|\\.)*"|[rbuf]{0,2}'(?:[^'\\\n]|\\.)*'"""
    rb"""|(?<![A-Za-z_])[-+]?(?:\d[\d_]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+)"""
    rb"""|\b(?:None|True|False|null|true|false)\b"""
)
# A key starts a run of name characters (the lookbehind): starting inside a
# long run would rescan it from every position, quadratic in the run's length.
_KEY = re.compile(rb"(?<![\w.-])[A-Za-z_][\w.-]*+\s*+(?:=(?!=)|:)|^[ \t]*+\[\[?[\w.-]++\]\]?[ \t\r]*$", re.M)
_WORD = re.compile(rb"[A-Za-z_]\w*")


def norm(line: bytes) -> bytes:
    """One line with runs of whitespace collapsed and the ends stripped."""
    return b" ".join(line.split())


def meaningful(line: bytes) -> bool:
    """Whether a line carries content (has a letter or digit)."""
    return _ALNUM.search(line) is not None


def content_lines(lines: Iterable[bytes]) -> list[bytes]:
    """The normalised lines that carry content, in order."""
    return [n for n in (norm(line) for line in lines) if meaningful(n)]


def weight_of(lines: Sequence[bytes]) -> int:
    """Letters and digits in some lines: a guard against matching trivial text."""
    return sum(len(_ALNUM.findall(line)) for line in lines)


def is_data(text: bytes) -> bool:
    """Whether text (a line, or lines joined) only states values: literals under keys.

    JSON, lock files and ``x=4`` are values.  Regenerated artefacts (golden
    values, lock files) change on both sides wholesale; losing dev's copy of
    such a line is cheap to redo, unlike losing code.
    """
    rest = _KEY.sub(b" ", _LITERALS.sub(b" ", text))
    return _WORD.search(rest) is None


_REGENERATED_SUFFIXES = (".lock", "-lock.json", ".lock.json", "-lock.yaml", ".json", ".jsonl", ".csv", ".tsv")


def regenerated(path: str) -> bool:
    """Whether a file's values are written by tools (lock files, JSON golden values, tables), not by hand.

    Only there is a values-only hunk cheap to lose: the tool writes it again.
    In source code an argument, a default or a flag is code, and in a
    hand-written manifest (``pyproject.toml``, a Dockerfile) a pinned
    version or a git source is somebody's decision.
    """
    return path.lower().endswith(_REGENERATED_SUFFIXES)


def contains_block(data: bytes, lines: Sequence[bytes]) -> bool:
    """Whether ``lines`` occur in ``data`` as consecutive lines, whitespace-blind.

    Blank lines on either side are skipped.  The longest word of the block
    is looked up with a C-speed ``find`` and the lines are checked around
    each hit, so searching a large file costs about one scan of it.
    """
    wanted = [n for n in (norm(line) for line in lines) if n]
    if not wanted:
        return False
    at, word = max(((i, w) for i, line in enumerate(wanted) for w in line.split(b" ")), key=lambda iw: len(iw[1]))
    start = 0
    while (pos := data.find(word, start)) >= 0:
        begin = data.rfind(b"\n", 0, pos) + 1
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        start = end + 1
        if norm(data[begin:end]) != wanted[at]:
            continue
        if _matches_before(data, begin, wanted[:at]) and _matches_after(data, end, wanted[at + 1 :]):
            return True
    return False


def _matches_before(data: bytes, begin: int, wanted: list[bytes]) -> bool:
    """The non-blank lines ending just before offset ``begin`` are ``wanted``."""
    for expected in reversed(wanted):
        while True:
            if begin <= 0:
                return False
            prev = data.rfind(b"\n", 0, begin - 1) + 1
            line = norm(data[prev : begin - 1])
            begin = prev
            if line:
                break
        if line != expected:
            return False
    return True


def _matches_after(data: bytes, end: int, wanted: list[bytes]) -> bool:
    """The non-blank lines starting just after offset ``end`` (a newline) are ``wanted``."""
    for expected in wanted:
        while True:
            if end >= len(data):
                return False
            nxt = data.find(b"\n", end + 1)
            nxt = len(data) if nxt < 0 else nxt
            line = norm(data[end + 1 : nxt])
            end = nxt
            if line:
                break
        if line != expected:
            return False
    return True


def shorten(text: bytes | str, limit: int = 60) -> str:
    """A line for a message: normalised, decoded, cut to ``limit`` characters."""
    raw = text if isinstance(text, bytes) else text.encode("utf-8", "surrogateescape")
    decoded = norm(raw).decode("utf-8", "replace")
    return decoded if len(decoded) <= limit else decoded[: limit - 1] + "\u2026"
