"""The conflict blocks git wrote into a file, read back as git wrote them.

``git merge`` writes conflicts in the user's style (``merge.conflictStyle``:
merge, diff3, zdiff3), with markers of the length the ``conflict-marker-size``
attribute gives, and adds a newline to a side's last line inside a block when
the file ends without one.  The hunk model is built from the stage blobs in
the default style, so its conflicts need not line up with these blocks (diff3
blocks are never refined or joined the way merge-style ones are).

What lines them up is a projection: every block replaced by one side's
section gives the file as ``-X theirs`` (or ``-X ours``) would have made it,
hand edits outside the blocks included.  The hunk model's layout of that same
file is known exactly, so each hunk can be found there, and each block is
then either covered by a hunk or a sign that model and file disagree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import product

from workbench.analysis.xdiff import split_lines

DEFAULT_MARKER_SIZE = 7
_MARKER_CHARS = (b"<", b"|", b"=", b">")
_OPENING = re.compile(rb"^(<+)(?: |\r?\n|$)", re.M)


class Section(str, Enum):
    """Which side's section of a block a projection keeps."""

    OURS = "ours"
    THEIRS = "theirs"


@dataclass(frozen=True, slots=True)
class Block:
    """One conflict block: lines [start, end) of the file, markers included."""

    start: int
    end: int
    ours: tuple[bytes, ...]
    base: tuple[bytes, ...] | None
    theirs: tuple[bytes, ...]
    ours_label: str | None
    theirs_label: str | None

    def section(self, side: Section) -> tuple[bytes, ...]:
        return self.ours if side is Section.OURS else self.theirs


@dataclass(frozen=True, slots=True)
class ConflictText:
    """A file split into its lines and the conflict blocks among them."""

    lines: tuple[bytes, ...]
    blocks: tuple[Block, ...]
    marker_size: int

    @property
    def labels(self) -> tuple[str | None, str | None, None]:
        """The labels git put on the first block (ours, theirs), for re-rendering a conflict."""
        if not self.blocks:
            return None, None, None
        return self.blocks[0].ours_label, self.blocks[0].theirs_label, None


def is_marker(line: bytes, char: bytes, size: int) -> bool:
    """A marker line of exactly ``size`` ``char``s, then a space (label) or the end of the line."""
    if len(line) < size or line[:size] != char * size:
        return False
    rest = line[size : size + 1]
    return rest in (b"", b" ", b"\n", b"\r")


def marker_sizes(data: bytes) -> list[int]:
    """Marker lengths a file's opening markers could have, the default first (then ascending)."""
    found = {len(m[1]) for m in _OPENING.finditer(data) if len(m[1]) >= 3}
    return sorted(found, key=lambda n: (n != DEFAULT_MARKER_SIZE, n))


def _label(line: bytes, size: int) -> str | None:
    text = line[size:].rstrip(b"\r\n")
    return text[1:].decode("utf-8", "surrogateescape") if text.startswith(b" ") else None


def parse_conflicts(data: bytes, size: int = DEFAULT_MARKER_SIZE) -> ConflictText | None:
    """The file's blocks for markers of ``size``; None when a block is malformed (unclosed, nested)."""
    lines = tuple(split_lines(data))
    blocks: list[Block] = []
    state = None
    start = 0
    parts: dict[str, list[bytes]] = {}
    base: list[bytes] | None = None
    ours_label: str | None = None
    for n, line in enumerate(lines):
        if line[:1] not in _MARKER_CHARS:  # most lines: no marker can start here
            if state == "base":
                assert base is not None
                base.append(line)
            elif state is not None:
                parts[state].append(line)
            continue
        if state is None:
            if is_marker(line, b"<", size):
                state, start, parts, base = "ours", n, {"ours": [], "theirs": []}, None
                ours_label = _label(line, size)
            continue
        if is_marker(line, b"<", size):
            return None
        if state == "ours" and is_marker(line, b"|", size):
            state, base = "base", []
        elif state in ("ours", "base") and is_marker(line, b"=", size):
            state = "theirs"
        elif state == "theirs" and is_marker(line, b">", size):
            blocks.append(
                Block(start, n + 1, tuple(parts["ours"]), None if base is None else tuple(base),
                      tuple(parts["theirs"]), ours_label, _label(line, size))
            )
            state = None
        elif state == "base":
            assert base is not None
            base.append(line)
        elif is_marker(line, b">", size) or (state == "theirs" and is_marker(line, b"=", size)):
            return None
        else:
            parts[state].append(line)
    if state is not None:
        return None
    return ConflictText(lines, tuple(blocks), size)


Fits = Callable[[str, tuple[bytes, ...]], bool]
"""Whether lines could be a section of side ``ours``, ``base`` or ``theirs`` (a run of its lines, as git copies them)."""


def fitting(ours: Sequence[bytes], base: Sequence[bytes], theirs: Sequence[bytes]) -> Fits:
    """Whether lines are a run of one side's lines, as git copies them into a block (its unterminated
    last line ended by git: ``_unterminated``)."""
    sides = {"ours": ours, "base": base, "theirs": theirs}
    where: dict[str, dict[bytes, list[int]]] = {}

    def fits(name: str, section: tuple[bytes, ...]) -> bool:
        if not section:
            return True
        side = sides[name]
        if name not in where:
            index: dict[bytes, list[int]] = {}
            for n, line in enumerate(side):
                index.setdefault(line, []).append(n)
            where[name] = index
        width = len(section)
        ended = (*section[:-1], _unterminated(section[-1], side))  # the side's last line, as git ended it
        return any(tuple(side[n : n + width]) in (section, ended)
                   for n in {*where[name].get(section[0], ()), *where[name].get(ended[0], ())})

    return fits


@dataclass(frozen=True)
class Readings:
    """The ways to read a file's blocks when a line of text may look like a marker (``readings``)."""

    lines: tuple[bytes, ...]
    size: int
    choices: tuple[tuple[Block, ...], ...]
    """For each block (an opening marker and the closing one after it), its readings: the plain one's
    choice first, and only those whose sections all fit the sides when any does."""
    sure: frozenset[Section]
    """The sides whose sections every block gives one way: its readings whose section of that side
    fits the side (or all of them, when none does, as where it was edited by hand) share one text."""

    def texts(self) -> Iterator[ConflictText]:
        """Every reading of the whole file, the plain one's choices first."""
        for blocks in product(*self.choices):
            yield ConflictText(self.lines, blocks, self.size)


def readings(data: bytes, size: int, fits: Fits) -> Readings | None:
    """Each block's readings, where text inside it may look like a separator (None: no blocks to read).

    git copies a side's lines into its section as they are, so a line of
    the side's own text that looks like a marker (a reST underline
    ``=======``, a table rule ``|||||||``) reads as one, and the plain
    reading (``parse_conflicts``) ends a section early or finds no block.
    The blocks themselves are where the opening and closing markers are
    (they must alternate); inside each, any ``=======`` may be the
    separator and any ``|||||||`` before it diff3's base marker.  Readings
    whose sections ``fits`` are preferred; none fitting, every reading is
    kept (a block edited by hand fits no side, and reads as it plainly does).
    """
    lines = tuple(split_lines(data))
    marks: dict[bytes, list[int]] = {char: [] for char in _MARKER_CHARS}
    for n, line in enumerate(lines):
        char = line[:1]
        if char in marks and is_marker(line, char, size):
            marks[char].append(n)
    ends = sorted([(n, True) for n in marks[b"<"]] + [(n, False) for n in marks[b">"]])
    if not ends or [opening for _, opening in ends] != [True, False] * (len(ends) // 2):
        return None
    choices: list[tuple[Block, ...]] = []
    sure = {Section.OURS, Section.THEIRS}
    for (o, _), (c, _) in zip(ends[0::2], ends[1::2], strict=True):
        every = [
            Block(o, c + 1, lines[o + 1 : b if b is not None else s], None if b is None else lines[b + 1 : s],
                  lines[s + 1 : c], _label(lines[o], size), _label(lines[c], size))
            for s in marks[b"="] if o < s < c
            for b in [*(n for n in marks[b"|"] if o < n < s), None]
        ]
        if not every:
            return None
        choices.append(tuple(block for block in every if _fits_all(block, fits)) or tuple(every))
        for side in (Section.OURS, Section.THEIRS):
            texts = {block.section(side) for block in every if fits(side.value, block.section(side))}
            if len(texts or {block.section(side) for block in every}) > 1:
                sure.discard(side)
    return Readings(lines, size, tuple(choices), frozenset(sure))


def _fits_all(block: Block, fits: Fits) -> bool:
    return fits("ours", block.ours) and fits("theirs", block.theirs) and (block.base is None or fits("base", block.base))


@dataclass(frozen=True, slots=True)
class Projection:
    """The file with every block replaced by one side's section.

    ``origin[i]`` is the file line projected line i came from, or ``-1 - k``
    for a line of block k's section; block k's section is lines
    [``at[k]``, ``ends[k]``) of the projection.
    """

    lines: tuple[bytes, ...]
    origin: tuple[int, ...]
    at: tuple[int, ...]
    ends: tuple[int, ...]


def project(text: ConflictText, side: Section, side_lines: Sequence[bytes]) -> Projection:
    """Each block replaced by its ``side`` section, without the newline git added at the end of a file.

    ``side_lines`` is that side's whole file: when it ends without a newline
    and the last block closes the file, git terminated the section's last
    line, which the side itself never had.
    """
    lines: list[bytes] = []
    origin: list[int] = []
    at: list[int] = []
    ends: list[int] = []
    pos = 0
    for k, block in enumerate(text.blocks):
        lines.extend(text.lines[pos : block.start])
        origin.extend(range(pos, block.start))
        at.append(len(lines))
        section = list(block.section(side))
        if block.end == len(text.lines) and section:
            section[-1] = _unterminated(section[-1], side_lines)
        lines.extend(section)
        origin.extend([-1 - k] * len(section))
        pos = block.end
        ends.append(len(lines))
    lines.extend(text.lines[pos:])
    origin.extend(range(pos, len(text.lines)))
    return Projection(tuple(lines), tuple(origin), tuple(at), tuple(ends))


def _unterminated(line: bytes, side_lines: Sequence[bytes]) -> bytes:
    """``line`` as the side has it when it is the side's unterminated last line plus git's newline."""
    if not side_lines or side_lines[-1].endswith(b"\n"):
        return line
    last = side_lines[-1]
    if line in (last + b"\n", last + b"\r\n"):
        return last
    return line
