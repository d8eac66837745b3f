"""A file's top-level blocks, found from their first lines, so ``ast`` builds only what is asked about.

Building Python objects for every node of a 3,000-line file costs more
than all the questions asked of it; most of it sits in functions no
question reaches.  A top-level ``def`` or ``class`` (with its decorators)
starts at column 0, and so does every other top-level statement, which is
enough to cut the file into blocks without parsing it.  The blocks nobody
asks about are blanked, line for line, so every line keeps its number;
only a stub stays on the ``def``/``class`` line, so the module still binds
the name.

The cut is a guess: a line at column 0 inside a multi-line string can look
like the start of a block.  A wrong cut blanks part of a string or leaves
text that does not parse; the caller then parses the whole file instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

_HEAD = re.compile(rb"(?:async[ \t]+)?(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
_INSIDE = frozenset(b" \t#)]}")


@dataclass(frozen=True, slots=True)
class Block:
    """0-based lines ``first..last`` of one top-level statement; ``name`` for a ``def`` or ``class``."""

    first: int
    last: int
    name: str | None
    head: int = -1
    """The ``def``/``class`` line (after the decorators)."""
    kind: bytes = b""
    """``def`` or ``class``."""


def outline(lines: Sequence[bytes]) -> list[Block]:
    """The top-level blocks of a file, in order, covering it from its first statement to its end."""
    blocks: list[Block] = []
    start: int | None = None
    head: re.Match[bytes] | None = None
    at = -1
    decorators = False
    for number, line in enumerate(lines):
        if not line.strip() or line[0] in _INSIDE:
            continue
        found = _HEAD.match(line)
        if start is not None and decorators and (found or line.startswith(b"@")):
            if found:
                head, at, decorators = found, number, False
            continue
        if start is not None:
            blocks.append(_block(start, number - 1, head, at))
        start, head, at = number, found, number
        decorators = line.startswith(b"@")
    if start is not None:
        blocks.append(_block(start, len(lines) - 1, head, at))
    return blocks


def _block(first: int, last: int, head: re.Match[bytes] | None, at: int) -> Block:
    if head is None:
        return Block(first, last, None)
    return Block(first, last, head[2].decode("ascii"), at, head[1])


def reduced(lines: Sequence[bytes], keep: Callable[[Block], bool]) -> bytes | None:
    """The file with every ``def``/``class`` block ``keep`` rejects blanked to a stub (None: nothing to blank)."""
    dropped = [b for b in outline(lines) if b.name is not None and not keep(b)]
    if not dropped:
        return None
    out = list(lines)
    for block in dropped:
        out[block.first : block.last + 1] = [b"\n"] * (block.last - block.first + 1)
        stub = b"(): pass\n" if block.kind == b"def" else b": pass\n"
        out[block.head] = block.kind + b" " + (block.name or "").encode("ascii") + stub
    return b"".join(out)
