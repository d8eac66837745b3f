"""The outcome of a three-way merge and how xdiff writes it out.

``MergeResult`` holds the three line lists and the merged regions;
``render`` reproduces xdiff's output buffer: conflict markers in each
style, ``-X ours/theirs/union`` favours, and the CRLF and missing-newline
rules for text added around conflicts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from typing import Literal

from workbench.analysis.xdiff.packed import joined, pack
from workbench.git.types import Script


class MergeLevel(IntEnum):
    """How hard xdiff tries to shrink conflicts (git merge: ZEALOUS)."""

    MINIMAL = 0
    EAGER = 1
    ZEALOUS = 2
    ZEALOUS_ALNUM = 3


class Style(str, Enum):
    """Conflict marker style (``merge.conflictStyle``)."""

    MERGE = "merge"
    DIFF3 = "diff3"
    ZDIFF3 = "zdiff3"


class Favor(IntEnum):
    """How conflicts are resolved when rendering (``-X ours/theirs``, union)."""

    NONE = 0
    OURS = 1
    THEIRS = 2
    UNION = 3


class ChunkMode(IntEnum):
    """What a merged region is, as xdiff codes it (bit 1: ours' text goes in, bit 2: theirs')."""

    CONFLICT = 0
    OURS_ONLY = 1
    """Only ours changed the base here."""
    THEIRS_ONLY = 2
    """Only theirs changed the base here."""
    IDENTICAL = 4
    """Both sides made the same change."""


@dataclass(frozen=True, slots=True)
class MergeChunk:
    """One changed region of the merge (``mode`` says whose change it is).

    ``i0/chg0`` index the base, ``i1/chg1`` ours, ``i2/chg2`` theirs (0-based).
    """

    mode: ChunkMode
    i0: int
    chg0: int
    i1: int
    chg1: int
    i2: int
    chg2: int


@dataclass(frozen=True)
class MergeResult:
    """The merge's regions over the three line lists, ready to render.

    The lists are tuples while the merge is computed; a merge that is kept is ``packed``.
    """

    base: Sequence[bytes]
    ours: Sequence[bytes]
    theirs: Sequence[bytes]
    chunks: tuple[MergeChunk, ...]
    style: Style = Style.MERGE
    whole: Literal["ours", "theirs"] | None = None
    """'ours' or 'theirs' when one side did not change the base at all."""
    ours_script: Script = field(default=(), repr=False)
    theirs_script: Script = field(default=(), repr=False)

    def packed(self) -> MergeResult:
        """The same merge with its lines packed (``packed.Lines``): for a merge that is kept, not worked on."""
        ours, base, theirs = pack((self.ours, self.base, self.theirs))  # ours laid out whole: it renders in runs
        return replace(self, base=base, ours=ours, theirs=theirs)

    @property
    def conflicts(self) -> tuple[MergeChunk, ...]:
        return tuple(c for c in self.chunks if c.mode == ChunkMode.CONFLICT)

    def render(
        self,
        favor: Favor = Favor.NONE,
        labels: tuple[str | None, str | None, str | None] = (None, None, None),
        marker_size: int = 7,
    ) -> bytes:
        """The merged file; ``labels`` are (ours, theirs, base) marker names."""
        if self.whole == "theirs":
            return joined(self.theirs)
        if self.whole == "ours":
            return joined(self.ours)
        out: list[bytes] = []
        pos = 0
        for chunk in self.chunks:
            mode = favor.value if (favor and chunk.mode == ChunkMode.CONFLICT) else chunk.mode
            if mode == ChunkMode.CONFLICT:
                out.append(_copy(self.ours, pos, chunk.i1 - pos))
                out.append(self.conflict_block(chunk, labels, marker_size))
            elif mode & 3:
                out.append(_copy(self.ours, pos, chunk.i1 - pos))
                if mode & 1:
                    cr = needs_cr(self.base, self.ours, self.theirs, chunk.i1, chunk.i2)
                    out.append(_copy(self.ours, chunk.i1, chunk.chg1, cr, bool(mode & 2)))
                if mode & 2:
                    out.append(_copy(self.theirs, chunk.i2, chunk.chg2))
            else:
                continue
            pos = chunk.i1 + chunk.chg1
        out.append(_copy(self.ours, pos, len(self.ours) - pos))
        return b"".join(out)

    def conflict_block(
        self,
        chunk: MergeChunk,
        labels: tuple[str | None, str | None, str | None],
        marker_size: int,
    ) -> bytes:
        """The marker block git writes for one conflict chunk."""
        cr = needs_cr(self.base, self.ours, self.theirs, chunk.i1, chunk.i2)
        eol = b"\r\n" if cr else b"\n"
        ours_label, theirs_label, base_label = labels
        parts = [_marker(b"<", marker_size, ours_label, eol)]
        parts.append(_copy(self.ours, chunk.i1, chunk.chg1, cr, True))
        if self.style is not Style.MERGE:
            parts.append(_marker(b"|", marker_size, base_label, eol))
            parts.append(_copy(self.base, chunk.i0, chunk.chg0, cr, True))
        parts.append(_marker(b"=", marker_size, None, eol))
        parts.append(_copy(self.theirs, chunk.i2, chunk.chg2, cr, True))
        parts.append(_marker(b">", marker_size, theirs_label, eol))
        return b"".join(parts)


def _marker(char: bytes, size: int, label: str | None, eol: bytes) -> bytes:
    text = char * size
    if label is not None:
        text += b" " + label.encode("utf-8", "surrogateescape")
    return text + eol


def _copy(
    lines: Sequence[bytes], start: int, count: int, cr: bool = False, add_nl: bool = False
) -> bytes:
    """xdl_recs_copy: lines, plus a newline when the last one lacks it and asked."""
    if count < 1:
        return b""
    data = joined(lines, start, start + count)
    if add_nl and not data.endswith(b"\n"):
        data += b"\r\n" if cr else b"\n"
    return data


def _eol_crlf(lines: Sequence[bytes], i: int) -> int:
    """1 if line i ends in CRLF, 0 if LF, -1 if it cannot be told (xdiff's rule)."""
    n = len(lines)
    if i < n - 1:
        return int(len(lines[i]) > 1 and lines[i][-2:-1] == b"\r")
    if n == 0:
        return -1
    line = lines[i]
    if line.endswith(b"\n"):
        return int(len(line) > 1 and line[-2:-1] == b"\r")
    if i == 0:
        return -1
    prev = lines[i - 1]
    return int(len(prev) > 1 and prev[-2:-1] == b"\r")


def needs_cr(
    base: Sequence[bytes], ours: Sequence[bytes], theirs: Sequence[bytes], i1: int, i2: int
) -> bool:
    """Whether text added around a conflict at (i1, i2) should end in CRLF."""
    flag = _eol_crlf(ours, i1 - 1 if i1 else 0)
    if flag:
        flag = _eol_crlf(theirs, i2 - 1 if i2 else 0)
    if flag:
        flag = _eol_crlf(base, 0)
    return flag > 0
