"""Windows of a Python file in which black lays out a region as it does in the whole file, for a fraction of the cost.

Black parses the whole text it is given, even when asked to lay out a few
lines (``line_ranges``); on a 4,000-line file that costs far more than the
lines asked for.  What black writes for a region depends on: the region's
own statements and the kinds of the blocks around them (a function's, a
class's, any other); the last logical line before it and the functions open
there (the blank lines it puts first); the next line after it; and the
target versions (``BlackSettings.target_versions`` makes them explicit, else
black guesses them from the whole file and no window is used).

So a window keeps, verbatim, the file's lines from the last statement
before the region (``lo``) to the first line of the statement after it
(``hi``): the blocks enclosing the region are stood in for by a header of
the same kind at the same indentation (``def _():``, ``class _:``,
``if True:``), and so are the blocks that enclose ``lo``'s last line, and
``hi`` is cut after its header and its first statement.  The stand-ins
change no blank line black writes in the region: black's blank lines read
a header's kind and depth, never its text, and the lines the stand-ins
replace end before ``lo``'s last line.  A file with ``fmt:`` or ``yapf:``
comments (which switch formatting off across statements), form feeds or
carriage returns, or that the running Python cannot parse, gets no window.

One thing still reads the whole text: black maps its line ranges from its
first pass to its second with a diff of everything it was given, and where
that diff has a choice (the same line twice, a blank line at a range's edge)
it may choose otherwise in a window.  Then the two layouts differ by where
a blank line falls or whether a neighbouring line was laid out too; every
Python hunk of the development set (244 regions) is laid out the same.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

_NO_WINDOW = (b"fmt:", b"yapf:", b"\r", b"\f")
"""Text that makes black's layout of a region depend on lines far from it, or that ``ast`` counts lines of otherwise."""

Headed = (ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.If | ast.For | ast.AsyncFor | ast.While | ast.With
          | ast.AsyncWith | ast.Try)
_HEADED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While, ast.With,
           ast.AsyncWith, ast.Try)
"""Statements whose first block (``body``) a window may descend into, a stand-in header taking their place."""
_CUT_AFTER_FIRST = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
                    ast.With, ast.AsyncWith)
"""Statements that stay valid Python cut after their first statement (a ``try`` does not: it needs its handlers)."""


@dataclass(frozen=True, slots=True)
class Window:
    """A text for black: stand-in headers, then the file's lines ``start..end`` (0-based, end excluded)."""

    headers: tuple[bytes, ...]
    start: int
    end: int

    def text(self, lines: Sequence[bytes]) -> list[bytes]:
        return [*self.headers, *lines[self.start:self.end]]

    def place(self, region: tuple[int, int]) -> tuple[int, int]:
        """A region of the file (inside the window's lines) as lines of the window's text."""
        shift = len(self.headers) - self.start
        return region[0] + shift, region[1] + shift


def windows(lines: Sequence[bytes], regions: Sequence[tuple[int, int]]) -> list[tuple[Window, list[int]]] | None:
    """The regions (0-based, end excluded; empty ones left out) grouped by the window that lays each group out
    as the whole file would; None when the file gets no window (see the module's docstring)."""
    text = b"".join(lines)
    if any(marker in text for marker in _NO_WINDOW):
        return None
    try:
        body = ast.parse(text.decode("utf-8")).body
    except (SyntaxError, ValueError, UnicodeDecodeError, MemoryError, RecursionError):
        return None
    groups = [([k], _window(lines, body, regions[k])) for k, (start, end) in enumerate(regions) if end > start]
    merged = True
    while merged:  # regions whose windows share lines are laid out together, in the window of their span
        merged = False
        groups.sort(key=lambda group: group[1].start)
        for n in range(len(groups) - 1):
            (first, one), (second, other) = groups[n], groups[n + 1]
            if other.start < one.end:
                members = first + second
                span = (min(regions[k][0] for k in members), max(regions[k][1] for k in members))
                groups[n:n + 2] = [(sorted(members), _window(lines, body, span))]
                merged = True
                break
    return [(window, members) for members, window in groups]


def _window(lines: Sequence[bytes], module: Sequence[ast.stmt], region: tuple[int, int]) -> Window:
    """The window of ``region`` in the innermost block around it whose both ends can be had (the module's always can)."""
    start, end = region
    chain: list[Headed] = []  # the statements whose first block holds the region, outermost first
    body = module
    while True:
        inside = [st for st in body if _first(st) < end and _last(st) > start]
        if len(inside) != 1 or not isinstance(inside[0], _HEADED):
            break
        block = inside[0].body  # the region may run on past it over blank or comment lines (no statement is there)
        if not (_starts_line(block[0], lines) and _first(block[0]) <= start):
            break
        chain.append(inside[0])
        body = block
    for depth in range(len(chain), 0, -1):
        last = _hi_end(lines, module, chain, depth, end)
        first = _lo_start(lines, chain, depth, start)
        if last is not None and first is not None:
            return Window(first[0], first[1], last)
    lo, hi = _before(module, start), _after(module, end)
    prefix, first_line = _trimmed_before(lo, lines) if lo is not None else ((), 0)
    return Window(prefix, first_line, _trimmed_after(hi) if hi is not None else len(lines))


def _block(module: Sequence[ast.stmt], chain: Sequence[Headed], depth: int) -> Sequence[ast.stmt]:
    return chain[depth - 1].body if depth else module


def _stand_ins(lines: Sequence[bytes], chain: Sequence[Headed]) -> tuple[bytes, ...]:
    return tuple(_stand_in(statement, lines) for statement in chain)


def _lo_start(lines: Sequence[bytes], chain: Sequence[Headed], depth: int, start: int) -> tuple[tuple[bytes, ...], int] | None:
    """The window's headers and first file line for the region among the block at ``depth`` (at least 1): from
    the last statement before it, cut to its last logical line; else from the block's own header, as written
    (a ``try`` cannot be: its block would lack its handlers)."""
    lo = _before(chain[depth - 1].body, start)
    if lo is not None:
        prefix, first = _trimmed_before(lo, lines)
        return _stand_ins(lines, chain[:depth]) + prefix, first
    if isinstance(chain[depth - 1], ast.Try):
        return None
    return _stand_ins(lines, chain[:depth - 1]), _first(chain[depth - 1])


def _hi_end(lines: Sequence[bytes], module: Sequence[ast.stmt], chain: Sequence[Headed], depth: int, end: int) -> int | None:
    """Where the window ends for the region among the block at ``depth``: after the next statement's header and
    first statement, that statement being the next in the block or, at a block's end, the next after the blocks
    that end there (None: a block ends before an ``else`` or a handler); the file's end after the module's last."""
    for level in range(depth, -1, -1):
        hi = _after(_block(module, chain, level), end if level == depth else _last(chain[level]))
        if hi is not None:
            return _trimmed_after(hi)
        if not level:
            return len(lines)
        if _later_blocks(chain[level - 1]):
            return None
    return len(lines)


def _before(body: Sequence[ast.stmt], start: int) -> ast.stmt | None:
    """The last statement ending before line ``start`` that is not a string: the strings after it stay in the
    window, never first in their block (where black would take one for a docstring)."""
    found = [st for st in body if _last(st) <= start and not _is_string(st)]
    return found[-1] if found else None


def _after(body: Sequence[ast.stmt], end: int) -> ast.stmt | None:
    """The first statement starting at or after line ``end``."""
    return next((st for st in body if _first(st) >= end), None)


def _trimmed_before(lo: ast.stmt, lines: Sequence[bytes]) -> tuple[tuple[bytes, ...], int]:
    """``lo`` cut to its last logical line: the stand-ins of the blocks around that line, and the line the
    window's file lines start at."""
    headers: list[bytes] = []
    while isinstance(lo, _HEADED) and not _later_blocks(lo):
        last = lo.body[-1]
        if _is_string(last) or not _starts_line(last, lines) or not _starts_line(lo.body[0], lines):
            break
        headers.append(_stand_in(lo, lines))
        lo = last
    return tuple(headers), _first(lo)


def _later_blocks(statement: ast.stmt) -> bool:
    return any(getattr(statement, name, None) for name in ("orelse", "handlers", "finalbody"))


def _trimmed_after(hi: ast.stmt) -> int:
    """Where ``hi`` may end in the window: after its header and its first statement, cut the same way."""
    while isinstance(hi, _CUT_AFTER_FIRST):
        hi = hi.body[0]
    return _last(hi)


def _stand_in(statement: ast.stmt, lines: Sequence[bytes]) -> bytes:
    """A header of the statement's kind at its indentation: black's blank lines read no more of it."""
    line = lines[statement.lineno - 1]
    indent = line[: len(line) - len(line.lstrip(b" \t"))]
    if isinstance(statement, ast.AsyncFunctionDef):
        return indent + b"async def _():\n"
    if isinstance(statement, ast.FunctionDef):
        return indent + b"def _():\n"
    if isinstance(statement, ast.ClassDef):
        return indent + b"class _:\n"
    return indent + b"if True:\n"


def _first(statement: ast.stmt) -> int:
    """The statement's first line (0-based), its decorators' when it has them."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return (decorators[0].lineno if decorators else statement.lineno) - 1


def _last(statement: ast.stmt) -> int:
    """The line after the statement's last (0-based)."""
    return statement.end_lineno if statement.end_lineno is not None else statement.lineno


def _starts_line(statement: ast.stmt, lines: Sequence[bytes]) -> bool:
    """The statement is the first thing on its line (not a header's one-line body, nor after a semicolon)."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    column = decorators[0].col_offset - 1 if decorators else statement.col_offset  # a decorator starts after its @
    line = lines[_first(statement)]
    return column == len(line) - len(line.lstrip(b" \t"))


def _is_string(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(
        statement.value.value, str | bytes)
