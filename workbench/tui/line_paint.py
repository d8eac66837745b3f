"""Painting one line of text into a fixed width: syntax colours, word tints, cropping.

Shared by the Line-API widgets (hunk view, diff views, result preview).
Everything here is a function of its arguments, so a widget can cache the
strips it builds; nothing here computes a diff.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style

from workbench.analysis.display.word_diff import Span
from workbench.tui.palette import Palette, combine

CROP_MARK = "›"


def fit(text: str, width: int) -> tuple[str, bool]:
    """``text`` cut to ``width`` cells; True when something was cut."""
    if width <= 0:
        return "", bool(text)
    if text.isascii():
        if len(text) <= width:
            return text, False
        return text[: width - 1], True
    if cell_len(text) <= width:
        return text, False
    used = 0
    for i, char in enumerate(text):
        used += cell_len(char)
        if used > width - 1:
            return text[:i], True
    return text, False


def text_segments(
    text: str,
    width: int,
    palette: Palette,
    style: Style,
    words: Sequence[Span] = (),
    word_style: Style | None = None,
    syntax: Sequence[tuple[int, int, str]] = (),
    offset: int = 0,
    found: Sequence[Span] = (),
    current: Span | None = None,
) -> list[Segment]:
    """``text`` painted into exactly ``width`` cells over ``style``, from character ``offset`` on; ``found``
    (a search's matches) highlighted over everything, ``current`` (the match the view is on) more so."""
    if offset > 0 and text:
        if offset >= len(text):
            return [Segment(" " * width, style)] if width > 0 else []
        text = text[offset:]
        words = [(max(0, a - offset), b - offset) for a, b in words if b > offset]
        syntax = [(max(0, a - offset), b - offset, kind) for a, b, kind in syntax if b > offset]
        found = [(max(0, a - offset), b - offset) for a, b in found if b > offset]
        current = (max(0, current[0] - offset), current[1] - offset) if current and current[1] > offset else None
    shifted = offset > 0 and width > 1
    if shifted:
        width -= 1
    shown, cut = fit(text, width)
    end = len(shown)
    cuts = {0, end}
    for start, stop in words:
        cuts.update((min(start, end), min(stop, end)))
    for start, stop, _kind in syntax:
        cuts.update((min(start, end), min(stop, end)))
    for start, stop in found:
        cuts.update((min(start, end), min(stop, end)))
    points = sorted(cuts)
    segments: list[Segment] = [Segment("‹", combine(style, palette.muted))] if shifted else []
    for a, b in pairwise(points):
        if a == b:
            continue
        piece_style = style
        if syntax:
            kind = _kind_at(syntax, a)
            if kind is not None:
                piece_style = combine(piece_style, palette.syntax.get(kind))
        if word_style is not None and _inside(words, a):
            piece_style = combine(piece_style, word_style)
        if found and _inside(found, a):
            piece_style = combine(piece_style, palette.found, palette.found_current if current and
                                  current[0] <= a < current[1] else None)
        segments.append(Segment(shown[a:b], piece_style))
    used = cell_len(shown) if not shown.isascii() else end
    if cut:
        segments.append(Segment(CROP_MARK, combine(style, palette.muted)))
        used += 1
    if used < width:
        segments.append(Segment(" " * (width - used), style))
    return segments


def _kind_at(spans: Sequence[tuple[int, int, str]], position: int) -> str | None:
    for start, stop, kind in spans:
        if start <= position < stop:
            return kind
        if start > position:
            break
    return None


def _inside(spans: Sequence[Span], position: int) -> bool:
    for start, stop in spans:
        if start <= position < stop:
            return True
        if start > position:
            break
    return False


def number_segment(number: int | None, width: int, style: Style) -> Segment:
    """A right-aligned line number and one space, or blanks."""
    if width <= 0:
        return Segment("", style)
    label = "" if number is None else str(number)
    return Segment(label.rjust(width - 1)[-(width - 1):] + " " if width > 1 else " ", style)


def label_segments(parts: Sequence[tuple[str, Style]], width: int, fill: Style) -> list[Segment]:
    """Styled pieces of a title line, cut or padded to ``width``."""
    segments: list[Segment] = []
    used = 0
    for text, style in parts:
        if used >= width:
            break
        shown, _cut = fit(text, width - used)
        if shown:
            segments.append(Segment(shown, style))
            used += cell_len(shown)
    if used < width:
        segments.append(Segment(" " * (width - used), fill))
    return segments
