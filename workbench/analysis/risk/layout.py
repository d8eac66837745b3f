"""Lost lines that are only laid out differently in the result (what black and isort change): rule R1.

A side's text around a hunk and the result's text around where it landed
are read as tokens without layout (whitespace, quote style, parentheses,
trailing commas, backslash continuations) and aligned; a lost line whose
every token aligns, in blocks of at least ``MIN_BLOCK`` tokens, onto
*consecutive* tokens of the result was only re-laid-out (so ``f("x")`` is
not kept by ``f(f"x {y}")``).  An import line is kept when every name it
imports is still imported by the result, wherever (isort moves them).
Python only: black and isort format Python, and a re-wrapped list in a
TOML file may well be a real change.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher

from workbench.analysis.model import LineRange
from workbench.analysis.python.module_index import module_index

CONTEXT = 12
"""Lines either side of the hunk (in the side's file and in the result) that are aligned."""
MIN_BLOCK = 3
MAX_BYTES = 64 * 1024
"""Text around a hunk, on either side, beyond which it is not aligned (the alignment is quadratic at worst; a
hunk that large is rarely layout only, and staying lost is the safe answer)."""
MAX_LINE = 2000
"""A longer line (data, a generated table) is never read as re-laid-out code."""
"""Tokens a run of the alignment needs before its tokens count as kept: a lone ``x`` or ``,`` proves nothing."""

_TOKEN = re.compile(rb"[A-Za-z0-9_]+|[^\sA-Za-z0-9_]")
_CLOSING = frozenset({b")", b"]", b"}"})
_DROPPED = frozenset({b"(", b")", b"\\"})
_WORDS = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")

Token = tuple[bytes, int]
"""A token and the 0-based line of the text it came from."""


def tokens(lines: Sequence[bytes], first: int = 0) -> list[Token]:
    """``(token, line)`` of ``lines`` (numbered from ``first``), layout dropped: parentheses and backslashes
    go, single quotes read as double, and a comma before a closing bracket (black's magic comma) goes."""
    raw: list[Token] = []
    for k, line in enumerate(lines):
        for tok in _TOKEN.findall(line):
            raw.append((b'"' if tok == b"'" else tok, first + k))
    out: list[Token] = []
    for i, (tok, n) in enumerate(raw):
        if tok in _DROPPED:
            continue
        if tok == b"," and i + 1 < len(raw) and (raw[i + 1][0] in _CLOSING or raw[i + 1][0] == b","):
            continue
        out.append((tok, n))
    return out


def flat(lines: Sequence[bytes]) -> bytes:
    """The layout-blind text of ``lines``: their tokens, joined."""
    return b"".join(tok for tok, _ in tokens(lines))


def _around(where: LineRange, size: int) -> tuple[int, int]:
    lo = max(0, min(size, where.start - 1 - CONTEXT))
    hi = max(0, min(size, max(where.end, where.start - 1) + CONTEXT))
    return lo, hi


def kept_positional(side: Sequence[bytes], side_range: LineRange, lost: Iterable[int],
                    result: Sequence[bytes], result_range: LineRange | None) -> set[int]:
    """The ``lost`` lines (0-based in ``side``) whose tokens all align, in order and without a gap, with the
    result's tokens around the hunk."""
    wanted = sorted(n for n in set(lost) if len(side[n]) <= MAX_LINE)
    if not wanted or result_range is None or not result:
        return set()
    s0, s1 = _around(side_range, len(side))
    r0, r1 = _around(result_range, len(result))
    if sum(map(len, side[s0:s1])) > MAX_BYTES or sum(map(len, result[r0:r1])) > MAX_BYTES:
        return set()
    mine = tokens(side[s0:s1], s0)
    theirs = tokens(result[r0:r1], r0)
    matcher = SequenceMatcher(None, [t for t, _ in mine], [t for t, _ in theirs], autojunk=False)
    where: list[int | None] = [None] * len(mine)
    for i, j, n in matcher.get_matching_blocks():
        if n >= MIN_BLOCK:
            for k in range(n):
                where[i + k] = j + k
    per_line: dict[int, list[int | None]] = {}
    for (_, n), at in zip(mine, where, strict=True):
        per_line.setdefault(n, []).append(at)
    kept = set()
    for n in wanted:
        found = per_line.get(n, [])
        aligned = [at for at in found if at is not None]
        if found and len(aligned) == len(found) and all(b == a + 1 for a, b in zip(aligned, aligned[1:], strict=False)):
            kept.add(n)
    return kept


def maybe_import(line: bytes) -> bool:
    """Whether a line could belong to an import statement (cheap: a parse only when one could)."""
    stripped = line.strip()
    return stripped.startswith((b"import ", b"from ")) or re.fullmatch(rb"[\w., ()]*", stripped) is not None


def kept_imports(path: str, side_oid: str, side_data: bytes, side: Sequence[bytes], lost: Iterable[int],
                 result_oid: str, result_data: bytes) -> set[int]:
    """The ``lost`` lines of an import statement whose names the result still imports (isort moved them)."""
    wanted = [n for n in lost if len(side[n]) <= MAX_LINE and maybe_import(side[n])]
    if not wanted:
        return set()
    mine = module_index(path, side_oid, side_data).all_imports
    theirs = {(i.module, i.name, i.local) for i in module_index(path, result_oid, result_data).all_imports}
    kept = set()
    for n in wanted:
        binds = [i for i in mine if i.line <= n + 1 <= i.end_line]
        if not binds:
            continue
        words = {w.decode() for w in _WORDS.findall(side[n])}
        named = [i for i in binds if (i.name or i.local) in words or i.local in words] or binds
        if all((i.module, i.name, i.local) in theirs for i in named):
            kept.add(n)
    return kept
