"""Painting the hunk view's lines: rows side by side or inline, hunk headers, folds, column titles.

Pure functions from a screen line's content and the view's settings of the
moment (``Paint``) to Rich segments, so the widget (``hunk_view.py``) only
decides which line to paint.  Colour never carries meaning alone: inline
lines are tagged d/m/b, lost lines carry ✗, decided hunks a mark.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style

from workbench.analysis.display.folds import Fold
from workbench.analysis.display.layout import AlignedRow, Cell, Region
from workbench.analysis.display.word_diff import Span
from workbench.analysis.model import Level
from workbench.tui.base_rows import BothDeleted
from workbench.tui.glyphs import DECIDED, LOST, MARKED, PENDING_RISK, PENDING_RISK_WORD, RISK_LETTER, RISK_WORD
from workbench.tui.line_paint import label_segments, number_segment, text_segments
from workbench.tui.palette import Palette, combine
from workbench.tui.syntax import SyntaxSpans
from workbench.tui.widgets.hunk_lines import ScreenLine, cut_kinds, cut_spans, shared_cell, split_columns
from workbench.wording import plural

_CLEAN_TONE = {Region.DEV: ("dev",), Region.MAIN: ("main",), Region.BOTH: ("dev", "main")}
_INLINE_TAG = {"base": "b ", "dev": "d ", "main": "m ", None: "  "}
"""Inline, the two cells before a line's text say whose line it is (never colour alone)."""
INLINE_HINTS = ("   inline (i: side by side)", "   i: side by side")
"""What the inline legend ends with, the first that fits (none on a narrow view: never a cut word)."""


@dataclass(frozen=True, slots=True)
class HunkTitle:
    """What a hunk's header line says (prepared by the screen from the session)."""

    number: int
    total: int
    level: Level
    risk: int
    taken: str
    decision: str
    decided: bool
    marked: bool = False
    """Edited, but the text still holds conflict markers."""
    asked: bool = True
    """False: shown for context only, not part of the exercise (a training quiz); painted muted."""
    risk_pending: bool = False
    """The risk is still being computed (a first look): shown as pending, never as low."""
    suggestion: str = ""
    """An undecided conflict's suggestion in a few words ("suggested: dev", "no suggestion (4)"); dropped first
    on a narrow view."""


@dataclass(frozen=True, slots=True)
class Paint:
    """What painting a row depends on besides the row: the palette and the view's settings."""

    palette: Palette
    gutter: int
    """Cells for the line number (and the ✗ of a lost line)."""
    syntax: Mapping[str, SyntaxSpans]
    lost: Mapping[str, frozenset[int]]
    """Side -> layout rows whose line of that side the result lost."""
    show_base: bool
    wrap: bool
    x_offset: int
    found: Mapping[str, Mapping[int, tuple[Span, ...]]] = field(default_factory=dict)
    """A search's matches: side -> layout row -> spans."""
    current: tuple[str, int, Span] | None = None
    """The match the view is on: side, layout row, span."""

    def marks(self, side: str, index: int) -> tuple[tuple[Span, ...], Span | None]:
        """The search's spans on ``side`` of layout row ``index``, and the current match's span there."""
        spans = self.found.get(side, {}).get(index, ())
        current = self.current
        return spans, current[2] if spans and current is not None and current[:2] == (side, index) else None


def marker(palette: Palette, current: bool, at_cursor: bool) -> Segment:
    """The first cell of a line: the cursor, the current hunk's bar, or blank."""
    if at_cursor:
        return Segment("▶", combine(palette.text, palette.cursor))
    if current:
        return Segment("▌", palette.bar)
    return Segment(" ", palette.text)


def split_row(paint: Paint, row: AlignedRow, width: int, current: bool, at_cursor: bool,
              part: int, index: int) -> list[Segment]:
    """Layout row ``index`` side by side (``part``: which wrapped piece)."""
    segments = [marker(paint.palette, current, at_cursor and part == 0)]
    for k, (side, column_width) in enumerate(split_columns(width, paint.show_base)):
        if k:
            segments.append(Segment("│", paint.palette.separator))
        cell: Cell | None = getattr(row, side)
        lost = index in paint.lost.get(side, ())
        segments.extend(_cell(paint, row, side, cell, column_width, at_cursor, part, lost=lost, index=index))
    return segments


def inline_row(paint: Paint, row: AlignedRow, line: ScreenLine, width: int, current: bool,
               at_cursor: bool, index: int) -> list[Segment]:
    """One side's line (or a line both sides agree on) across the whole width, tagged d/m/b."""
    palette = paint.palette
    side = line.side
    shared = shared_cell(row) if side is None else None
    cell_side = side if side is not None else (shared[0] if shared else "dev")
    cell = getattr(row, cell_side)
    tag_style = combine(palette.muted, palette.hue[side]) if side is not None else palette.muted
    segments = [marker(palette, current, at_cursor and line.part == 0),
                Segment(_INLINE_TAG[side] if line.part == 0 else "  ", tag_style)]
    lost = side is not None and index in paint.lost.get(side, ())
    segments.extend(_cell(paint, row, cell_side, cell, max(0, width - 3), at_cursor, line.part,
                          inline=side is None, lost=lost, index=index))
    return segments


def _cell(paint: Paint, row: AlignedRow, side: str, cell: Cell | None, width: int,
          at_cursor: bool, part: int = 0, inline: bool = False, lost: bool = False, index: int = -1) -> list[Segment]:
    segments = _cell_segments(paint, row, side, cell, width, at_cursor, part, inline, index)
    if not lost or not segments or len(segments[0].text) < 2:
        return segments
    palette = paint.palette
    number, *rest = segments
    kept = (palette.word[side].bgcolor, palette.found.bgcolor)
    tinted = [s if s.style is not None and s.style.bgcolor in kept else Segment(s.text, combine(s.style, palette.lost))
              for s in rest]
    return [Segment(number.text[:-1], number.style), Segment(LOST, combine(number.style, palette.lost_mark)), *tinted]


def _cell_segments(paint: Paint, row: AlignedRow, side: str, cell: Cell | None, width: int,
                   at_cursor: bool, part: int, inline: bool, index: int) -> list[Segment]:
    palette = paint.palette
    gutter = min(paint.gutter, max(0, width - 1))
    if cell is None:
        return [Segment(" " * width, palette.filler)]
    tinted = not inline and (row.region is Region.HUNK or side in _CLEAN_TONE.get(row.region, ()))
    if row.region is Region.HUNK and side == "base":
        tinted = bool(cell.vs_base)
    style = combine(palette.text, palette.line[side]) if tinted else palette.text
    number_style = combine(palette.muted, palette.cursor) if at_cursor else (
        combine(palette.muted, palette.line[side]) if tinted else palette.muted
    )
    if row.region is Region.SAME:
        words: tuple[tuple[int, int], ...] = ()
    elif side == "base":
        words = cell.vs_base
    else:
        words = cell.vs_base if paint.show_base else cell.vs_other
    syntax = paint.syntax.get(side, {}).get(cell.no - 1, ())
    word_style = palette.word[side] if tinted else None
    found, current = paint.marks(side, index)
    if not paint.wrap:
        return [
            number_segment(cell.no, gutter, number_style),
            *text_segments(cell.text, width - gutter, palette, style, words, word_style, syntax, paint.x_offset,
                           found, current),
        ]
    room = max(1, width - gutter)
    start, stop = part * room, (part + 1) * room
    if start >= len(cell.text) and part:
        return [number_segment(None, gutter, number_style), Segment(" " * (width - gutter), style)]
    return [
        number_segment(cell.no if part == 0 else None, gutter, number_style),
        *text_segments(cell.text[start:stop], width - gutter, palette, style, cut_spans(words, start, stop),
                       word_style, cut_kinds(syntax, start, stop), found=cut_spans(found, start, stop),
                       current=_cut_span(current, start, stop)),
    ]


def _cut_span(span: Span | None, start: int, stop: int) -> Span | None:
    cut = cut_spans((span,), start, stop) if span is not None else []
    return cut[0] if cut else None


def header_line(hunk: int, title: HunkTitle | None, width: int, palette: Palette, current: bool,
                at_cursor: bool) -> list[Segment]:
    """A hunk's title line: number, risk, what the result took, the decision; shorter forms on a narrow view."""
    base = palette.header_current if current else palette.header
    if title is None:
        return label_segments([(f" hunk {hunk + 1}", base)], width, base)
    mark = "▶" if at_cursor else ("▌" if current else " ")
    if not title.asked:
        muted = base if current else combine(base, Style(color=palette.muted.color, italic=True))
        return label_segments([("".join(_header_words(title, mark, _fitting(title, mark, width))), muted)], width, muted)
    risk_style = combine(base, Style(color=palette.risk[title.level].color, bold=True)) if not current else base
    if title.risk_pending:
        risk_style = combine(base, Style(color=palette.muted.color, italic=True)) if not current else base
    marked_style = combine(base, Style(color=palette.risk[Level.HIGH].color, bold=True)) if not current else base
    number, risk, taken, decision = _header_words(title, mark, _fitting(title, mark, width))
    parts = [(number, base), (risk, risk_style), (taken, base), (decision, marked_style if title.marked else base)]
    return label_segments(parts, width, base)


HEADER_FORMS = 3
"""How a hunk header gives way on a narrow view: 0 as it is, 1 single spaces, 2 no "hunk" and no risk word."""


def _header_words(title: HunkTitle, mark: str, form: int) -> tuple[str, str, str, str]:
    """The header's four pieces (number, risk, what the result took, the decision) in ``form``."""
    gap, dot = ("  ", "  ·  ") if form == 0 else (" ", " · ")
    number = f"{mark}hunk {title.number}/{title.total}{gap}" if form < 2 else f"{mark}{title.number}/{title.total} "
    if title.risk_pending:
        risk = f"{PENDING_RISK}     {PENDING_RISK_WORD}" if form == 0 else f"{PENDING_RISK} {PENDING_RISK_WORD}"
    elif form == 0:
        risk = f"{RISK_LETTER[title.level]} {title.risk:>3} {RISK_WORD[title.level]}"
    else:
        risk = f"{RISK_LETTER[title.level]} {title.risk}" + (f" {RISK_WORD[title.level]}" if form == 1 else "")
    flag = f"{MARKED} " if title.marked and title.asked else f"{DECIDED} " if title.decided and title.asked else ""
    suggestion = f"{dot}{title.suggestion}" if title.suggestion and form < 2 else ""
    return number, risk, f"{dot}{title.taken}{dot}", flag + title.decision + suggestion


def _fitting(title: HunkTitle, mark: str, width: int) -> int:
    """The first form whose header fits ``width`` (the last, cut at the end, when none does)."""
    for form in range(HEADER_FORMS):
        if cell_len("".join(_header_words(title, mark, form))) <= width:
            return form
    return HEADER_FORMS - 1


def fold_line(fold: Fold, width: int, palette: Palette, at_cursor: bool) -> list[Segment]:
    """The one line standing for folded rows: how many and what changed in them."""
    style = combine(palette.fold, palette.cursor) if at_cursor else palette.fold
    if isinstance(fold, BothDeleted):
        text = f"{'▶' if at_cursor else ' '} ⋯ {plural(fold.end - fold.start, 'base line')} deleted on both sides  (a shows the base)"
        return label_segments([(text, style)], width, style)
    changes = []
    if fold.dev_changes:
        changes.append(f"{plural(fold.dev_changes, 'clean change')} from dev")
    if fold.main_changes:
        changes.append(f"{fold.main_changes} from main")
    if fold.both_changes:
        changes.append(f"{fold.both_changes} made on both sides")
    detail = ", ".join(changes) if changes else "the same on both sides"
    text = f"{'▶' if at_cursor else ' '} ⋯ {fold.lines} lines: {detail}  (enter shows them, z shows all)"
    return label_segments([(text, style)], width, style)


def column_titles(sides: Mapping[str, str], width: int, palette: Palette, gutter: int, show_base: bool,
                  inline: bool) -> list[Segment]:
    """The fixed line above the rows: each column's title, or inline the d/m/b legend."""
    if inline:
        parts = [(" " * (gutter + 1), palette.header)]
        for k, side in enumerate(("base", "dev", "main") if show_base else ("dev", "main")):
            parts.append(("   " if k else "", palette.header))
            parts.append((f"{_INLINE_TAG[side].strip()} = {sides.get(side, side)}",
                          combine(palette.header, palette.hue[side])))
        used = sum(cell_len(text) for text, _style in parts)
        hint = next((hint for hint in INLINE_HINTS if used + len(hint) <= width), "")
        return label_segments([*parts, (hint, palette.header)], width, palette.header)
    segments = [Segment(" ", palette.header)]
    for k, (side, column_width) in enumerate(split_columns(width, show_base)):
        if k:
            segments.append(Segment("│", combine(palette.header, palette.separator.without_color)))
        title = " " * gutter + sides.get(side, side)
        segments.extend(label_segments([(title, combine(palette.header, palette.hue[side]))], column_width, palette.header))
    return segments
