"""Names that survive line shifts and re-analysis: an item's id from its cause, a member's from its text."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from workbench.analysis.model import Hunk, LineRange

ID_BYTES = 5
"""Digest size: 40 bits keep ids short enough to type and collisions out of reach within one sync."""


def digest(parts: Iterable[str | bytes]) -> str:
    """A short hex digest of some strings, each delimited so ``("ab", "c")`` and ``("a", "bc")`` differ."""
    h = hashlib.blake2b(digest_size=ID_BYTES)
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def item_id(kind: str, key: Sequence[str]) -> str:
    """``KIND-hex``: the same cause gives the same id in every analysis of the sync."""
    return f"{kind}-{digest((kind, *key))}"


def _norm(line: bytes) -> bytes:
    return b" ".join(line.split())


def lost_text(hunk: Hunk, side: str) -> list[bytes]:
    """The side's lost lines (normalised), read from the hunk's own text of that side."""
    where: LineRange = hunk.dev if side == "dev" else hunk.main
    text = hunk.dev_text if side == "dev" else hunk.main_text
    ranges = hunk.lost_lines.dev if side == "dev" else hunk.lost_lines.main
    out = []
    for r in ranges:
        for n in range(r.start, r.end + 1):
            k = n - where.start
            if 0 <= k < len(text):
                out.append(_norm(text[k]))
    return out


def fingerprint(path: str, hunk: Hunk) -> str:
    """What a hunk is about, without line numbers: its lost text on each side, else all its texts."""
    dev, main = lost_text(hunk, "dev"), lost_text(hunk, "main")
    if not dev and not main:
        dev = [_norm(line) for line in hunk.dev_text]
        main = [_norm(line) for line in hunk.main_text]
        result = [_norm(line) for line in hunk.result_text or ()]
        return digest((path, b"\n".join(dev), b"\n".join(main), b"\n".join(result)))
    return digest((path, b"\n".join(dev), b"\n".join(main)))
