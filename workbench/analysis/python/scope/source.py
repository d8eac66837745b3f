"""One Python file, parsed once and asked about names as often as needed.

tree-sitter reads valid Python and a half-merged file alike (around its
conflict markers).  Parsing is C-speed; walking every node in Python is
not, so each question walks only the statements on lines that mention its
names, and optionally only the classes and functions on the way to one
scope.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from workbench.analysis.python.parse import parse_content
from workbench.analysis.python.scope.collect import Keep
from workbench.analysis.python.scope.facts import NameFacts, Scope
from workbench.analysis.python.scope.ts_walk import TreeSitterWalker

FEW_NAMES = 16
"""Up to this many names are looked up one ``find`` each; more, with one pass over the file's words."""
_WORD = re.compile(rb"[A-Za-z0-9_]+")
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_STAR_IMPORT = re.compile(rb"(?<![A-Za-z0-9_])import\s*\*")


@dataclass(frozen=True)
class Question:
    """Which facts a walk collects: on these ``lines``, or where these ``names`` are mentioned (None: all);
    ``within``: only along the way to that scope and inside it."""

    names: Iterable[str] | None = None
    lines: Collection[int] | None = None
    within: Scope | None = None
    nested: bool = True
    """Also inside the classes and functions ``within`` holds (False: only on the way there)."""


class PythonFile:
    """A file's text and its tree-sitter syntax tree (parsed once, walked per question)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._lines_layout: tuple[list[int], set[int]] | None = None
        self._root = parse_content(data).root_node

    def facts(
        self,
        names: Iterable[str] | None = None,
        lines: Collection[int] | None = None,
        within: Scope | None = None,
    ) -> NameFacts:
        """Facts on the ``lines`` given, or on the lines mentioning ``names`` (both None: all)."""
        return self.facts_for([Question(names, lines, within)])

    def facts_for(self, questions: Sequence[Question]) -> NameFacts:
        """The facts several questions need, from one walk each, as one record."""
        walker = TreeSitterWalker(self._root)
        try:
            for question in questions:
                lines = question.lines
                keep = self._keep(sorted(lines)) if lines is not None else self._mentions(question.names)
                walker.aim(keep, question.within, question.nested)
                walker.walk()
        except RecursionError:
            return NameFacts()
        return walker.facts()

    def _mentions(self, names: Iterable[str] | None) -> Keep:
        """Lines mentioning any of ``names`` as a whole word (or holding ``import *``).

        ``bytes.find`` per name (a question asks about a handful) is far
        cheaper than tokenising the file or one big alternation regex.
        """
        if names is None:
            return lambda _first, _last: True
        breaks, stars = self._layout()
        data = self.data
        lines = set(stars)
        rest = set(names)
        plain = {name.encode() for name in rest if name.isascii()}
        if len(plain) > FEW_NAMES:  # one pass over the words beats a find per name (linear, not names x file)
            for found in _WORD.finditer(data):
                if found.group() in plain:
                    lines.add(bisect_left(breaks, found.start()))
            rest = {name for name in rest if not name.isascii()}
        for name in rest:
            word = name.encode()
            pos = data.find(word)
            while pos != -1:
                end = pos + len(word)
                if (pos == 0 or data[pos - 1] not in _WORD_BYTES) and (end == len(data) or data[end] not in _WORD_BYTES):
                    lines.add(bisect_left(breaks, pos))
                pos = data.find(word, end)
        return self._keep(sorted(lines))

    def _layout(self) -> tuple[list[int], set[int]]:
        """Where lines break, and which lines hold ``import *``, computed once per file."""
        if self._lines_layout is None:
            breaks = [m.start() for m in re.finditer(rb"\n", self.data)]
            stars = {bisect_left(breaks, m.start()) for m in _STAR_IMPORT.finditer(self.data)}
            self._lines_layout = (breaks, stars)
        return self._lines_layout

    @staticmethod
    def _keep(lines: list[int]) -> Keep:
        def keep(first: int, last: int) -> bool:
            at = bisect_left(lines, first)
            return at < len(lines) and lines[at] <= last

        return keep


def python_facts(data: bytes, names: Iterable[str] | None = None) -> NameFacts:
    """The facts of a Python file for ``names`` (None: every name)."""
    return PythonFile(data).facts(names)
