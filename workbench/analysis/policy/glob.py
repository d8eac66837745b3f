"""Policy globs matched in time linear in the path (times the pattern), whatever the pattern.

A policy comes from the repository, so its globs are untrusted input.
Translated to a backtracking regular expression, ``**/a/**/a/**/...`` took
exponential time (12 segments hung the analysis).  Here a glob is a small
NFA: a list of tokens whose states are simulated all at once over the path
(Thompson's construction), so each path character costs at most one step
per token.

Syntax (whole path from the repository root): ``*`` is any run of
characters except ``/``, ``?`` one character except ``/``, ``[abc]``,
``[a-z]`` and ``[!a-z]`` one character (never ``/``) in or not in the
set, ``**/`` any number of whole directories (none included), any other
``**`` any run of characters including ``/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Token(Enum):
    """What one position of a glob matches."""

    CHAR = "char"
    """one given character"""
    ONE = "?"
    """one character except ``/``"""
    SET = "[]"
    """one character except ``/``, in (or, negated, not in) a set"""
    STAR = "*"
    """any run of characters except ``/``"""
    ANY = "**"
    """any run of characters"""
    DIRS = "**/"
    """nothing, or any run of characters ending in ``/``"""


_LOOPS = (Token.STAR, Token.ANY, Token.DIRS)


@dataclass(frozen=True, slots=True)
class CharSet:
    """The characters of a ``[...]`` class: single characters and inclusive ranges."""

    chars: frozenset[str]
    ranges: tuple[tuple[str, str], ...]
    negated: bool

    def __contains__(self, ch: str) -> bool:
        found = ch in self.chars or any(low <= ch <= high for low, high in self.ranges)
        return found is not self.negated


@dataclass(frozen=True, slots=True)
class Glob:
    """A compiled glob; :meth:`matches` is linear in ``len(path) * len(tokens)``."""

    pattern: str
    tokens: tuple[tuple[Token, str | CharSet], ...]
    closures: tuple[frozenset[int], ...]
    """Per position, the positions reachable without reading a character (itself included)."""
    literal: str | None
    """The whole pattern when it has no wildcard (matched by equality)."""
    prefix: str
    """The literal characters every match starts with (a cheap first test)."""

    def matches(self, path: str) -> bool:
        if self.literal is not None:
            return path == self.literal
        if not path.startswith(self.prefix):
            return False
        tokens, closures, end = self.tokens, self.closures, len(self.tokens)
        states = closures[0]
        for ch in path:
            following: set[int] = set()
            for i in states:
                if i > end:  # inside a DIRS loop (state end + 1 + its position): only "/" leaves it
                    following.add(i)
                    if ch == "/":
                        following |= closures[i - end]
                    continue
                if i == end:
                    continue
                kind, arg = tokens[i]
                if kind is Token.CHAR:
                    if ch == arg:
                        following |= closures[i + 1]
                elif kind is Token.ONE:
                    if ch != "/":
                        following |= closures[i + 1]
                elif kind is Token.SET:
                    if ch != "/" and ch in arg:
                        following |= closures[i + 1]
                elif kind is Token.STAR:
                    if ch != "/":
                        following |= closures[i]
                elif kind is Token.ANY:
                    following |= closures[i]
                else:  # DIRS: a "/" ends one directory; anything else enters its loop
                    following.add(end + 1 + i)
                    if ch == "/":
                        following |= closures[i + 1]
            if not following:
                return False
            states = frozenset(following)
        return end in states


def compile_glob(pattern: str) -> Glob:
    """The glob ``pattern`` compiled; ``ValueError`` says what is wrong with it."""
    tokens: list[tuple[Token, str | CharSet]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            _loop(tokens, Token.DIRS)
            i += 3
        elif pattern.startswith("**", i):
            _loop(tokens, Token.ANY)
            i += 2
        elif c == "*":
            _loop(tokens, Token.STAR)
            i += 1
        elif c == "?":
            tokens.append((Token.ONE, ""))
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                raise ValueError(f"unclosed '[' in glob {pattern!r}")
            tokens.append((Token.SET, _char_set(pattern[i + 1:end], pattern)))
            i = end + 1
        else:
            tokens.append((Token.CHAR, c))
            i += 1
    closures = _closures(tokens)
    wild = any(kind is not Token.CHAR for kind, _ in tokens)
    prefix = "".join(str(arg) for _, arg in _leading_chars(tokens))
    return Glob(pattern, tuple(tokens), closures, None if wild else pattern, prefix)


def _loop(tokens: list[tuple[Token, str | CharSet]], kind: Token) -> None:
    """Append a loop, merged with a loop before it when the two match the same (``**/**/`` is
    ``**/``, ``***`` is ``**``), so a run of wildcards costs one state, not a run of them."""
    last = tokens[-1][0] if tokens else None
    if last is kind:
        return
    if last in _LOOPS and Token.ANY in (last, kind):
        tokens[-1] = (Token.ANY, "")
        return
    tokens.append((kind, ""))


def _char_set(body: str, pattern: str) -> CharSet:
    negated = body.startswith("!")
    if negated:
        body = body[1:]
    if not body:
        raise ValueError(f"empty character class in glob {pattern!r}")
    chars: set[str] = set()
    ranges: list[tuple[str, str]] = []
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = body[i], body[i + 2]
            if low > high:
                raise ValueError(f"reversed range '{low}-{high}' in glob {pattern!r}")
            ranges.append((low, high))
            i += 3
        else:
            chars.add(body[i])
            i += 1
    return CharSet(frozenset(chars), tuple(ranges), negated)


def _closures(tokens: list[tuple[Token, str | CharSet]]) -> tuple[frozenset[int], ...]:
    """Loops may match nothing, so each reaches the positions after it (computed right to left)."""
    backwards: list[frozenset[int]] = [frozenset({len(tokens)})]
    for i in range(len(tokens) - 1, -1, -1):
        here = frozenset({i}) | backwards[-1] if tokens[i][0] in _LOOPS else frozenset({i})
        backwards.append(here)
    return tuple(reversed(backwards))


def _leading_chars(tokens: list[tuple[Token, str | CharSet]]) -> list[tuple[Token, str | CharSet]]:
    leading = []
    for token in tokens:
        if token[0] is not Token.CHAR:
            break
        leading.append(token)
    return leading
