"""What the app says about suggested resolutions: the Why pane's lines, the hunk header's word, a candidate
previewed in the Result pane (its lines tinted by origin, what it keeps and drops of each side).

Suggestion reasons quote commit subjects (repository text): they go through
``visible`` into ``Text``, never into markup.  A training quiz hides every
suggestion until the reveal (``menu`` keeps the candidates in a fixed order
there, so their order does not tell which one is suggested).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text

from workbench.analysis.display.safe_text import display_text
from workbench.analysis.model import Candidate, FileAnalysis, Hunk, HunkKind, SideShare, Signal, Take
from workbench.analysis.suggest.phrases import TAKE_WORDS
from workbench.resolve.splice import Choice, Decision
from workbench.services.suggestions import decided_candidate, file_choice
from workbench.services.workspace import Workspace
from workbench.textsafe import visible
from workbench.tui.glyphs import FILE_CHOICE_WORD, decision_word
from workbench.tui.palette import Palette
from workbench.tui.widgets.result_preview import PreviewLine
from workbench.wording import plural

NO_SUGGESTION = "no suggestion: the evidence does not separate the candidates"
_TAKE_ORDER = {take: k for k, take in enumerate(Take)}


@dataclass(frozen=True, slots=True)
class Previewing:
    """A candidate shown in the Result pane instead of the hunk's result (``C``; ``y`` accepts it, esc leaves)."""

    path: str
    hunk: int
    number: int
    """Its place in ``menu``, from 0."""


def menu(ws: Workspace, hunk: Hunk) -> tuple[Candidate, ...]:
    """The candidates ``C`` cycles through: best first, or in a fixed order in a training quiz."""
    if ws.quiz is not None:
        return tuple(sorted(hunk.candidates, key=lambda c: _TAKE_ORDER[c.take]))
    return hunk.candidates


def header_word(ws: Workspace, hunk: Hunk) -> str:
    """The hunk header's few words: "suggested: dev", "no suggestion (4)", or nothing (an edit, a quiz)."""
    if ws.quiz is not None or hunk.kind is not HunkKind.CONFLICT or ws.pending is not None:
        return ""
    if hunk.suggestion is not None:
        return f"suggested: {hunk.suggestion.candidate.take.value}"
    return f"no suggestion ({len(hunk.candidates)})" if hunk.candidates else ""


def file_lines(text: Text, entry: FileAnalysis, ws: Workspace, palette: Palette) -> None:
    """The file's own suggestion (a lock file, measured values): one choice for the whole file."""
    suggestion = entry.suggestion
    if suggestion is None or ws.quiz is not None:
        return
    choice = file_choice(suggestion)
    text.append("Suggested for the whole file: ", style=Style(bold=True, color=palette.hue["result"].color))
    text.append(f"{FILE_CHOICE_WORD[choice]} — {visible(suggestion.reason)}")
    mine = ws.session.file_choice(entry.path) is choice
    text.append(" ✓ your decision\n" if mine else " (y accepts)\n")
    if suggestion.regenerate:
        text.append("then regenerate it: ")
        text.append(f"{visible(suggestion.regenerate)}\n", style="bold")


def hunk_lines(text: Text, ws: Workspace, path: str, hunk: Hunk, palette: Palette) -> tuple[str, ...]:
    """The hunk's suggestion in words, or why there is none; returns the commits its evidence names (the Why
    pane lists them as it lists a signal's)."""
    if not hunk_lines_shown(ws, hunk):
        return ()
    suggestion = hunk.suggestion
    if suggestion is None:
        text.append(f"{NO_SUGGESTION[0].upper()}{NO_SUGGESTION[1:]} ", style=Style(italic=True))
        text.append(f"({plural(len(hunk.candidates), 'candidate')}: C shows them, y accepts the one shown).\n",
                    style=Style(italic=True))
        return ()
    text.append("Suggested: ", style=Style(bold=True, color=palette.hue["result"].color))
    text.append(f"{TAKE_WORDS[suggestion.candidate.take]} — {visible(suggestion.reason, single_line=False)}")
    mine = decided_candidate(hunk, ws.session.decision(path, hunk.index)) == suggestion.candidate
    text.append(" ✓ your decision\n" if mine else " (y accepts, C shows the others)\n")
    return suggestion.commits


def beside(ws: Workspace, hunk: Hunk, signals: tuple[Signal, ...]) -> tuple[Signal, ...]:
    """The hunk's signals but the one the Why pane's suggestion line already says word for word."""
    said = hunk.suggestion.reason if hunk.suggestion is not None and hunk_lines_shown(ws, hunk) else None
    return tuple(s for s in signals if s.message != said)


def hunk_lines_shown(ws: Workspace, hunk: Hunk) -> bool:
    """The Why pane says the hunk's suggestion (not in a quiz, on a first look, or for an edit)."""
    return ws.quiz is None and hunk.kind is HunkKind.CONFLICT and ws.pending is None and bool(hunk.candidates)


def decided_word(hunk: Hunk, decision: Decision | None) -> str:
    """How a decision reads; one that writes a computed candidate is named for it ("the splice, dev's first")."""
    if decision is not None and decision.choice is Choice.CUSTOM:
        candidate = decided_candidate(hunk, decision)
        if candidate is not None:
            return TAKE_WORDS[candidate.take]
    return decision_word(decision)


def preview(ws: Workspace, shown: Previewing) -> tuple[tuple[PreviewLine, ...], str, str]:
    """A candidate in the Result pane: its lines tinted by origin, a caption, and what it keeps and drops."""
    hunk = ws.hunk(shown.path, shown.hunk)
    candidates = menu(ws, hunk)
    candidate = candidates[shown.number]
    suggested = ws.quiz is None and hunk.suggestion is not None and hunk.suggestion.candidate == candidate
    tones = _tones(hunk, candidate)
    lines = tuple(PreviewLine(None, display_text(line), tone) for line, tone in zip(candidate.lines, tones, strict=True))
    caption = (f"candidate {shown.number + 1}/{len(candidates)} of hunk {shown.hunk + 1}: {TAKE_WORDS[candidate.take]}"
               f"{' (suggested)' if suggested else ''} · y accepts · C next · esc leaves")
    return lines, caption, share_words(hunk, candidate)


def share_words(hunk: Hunk, candidate: Candidate) -> str:
    """What the candidate keeps and drops of each side's own lines (numbered in that side's file)."""
    parts = [_side_words("dev", candidate.dev, hunk.dev.start), _side_words("main", candidate.main, hunk.main.start)]
    return " · ".join(p for p in parts if p)


def _side_words(side: str, share: SideShare, start: int) -> str:
    total = len(share.kept) + len(share.dropped)
    lines = "the line" if total == 1 else f"all {total} lines"
    if not total:
        return f"{side} wrote no lines here"
    if not share.dropped:
        return f"keeps {lines} {side} wrote"
    dropped = _ranges([start + i for i in share.dropped])
    if not share.kept:
        return f"drops {lines} {side} wrote ({side} {dropped})"
    return f"keeps {len(share.kept)} of {total} lines {side} wrote, drops {side} {dropped}"


def _ranges(numbers: Sequence[int]) -> str:
    """Line numbers as "line 7" or "lines 7–9, 12"."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    words = ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in runs)
    return f"line {words}" if len(numbers) == 1 else f"lines {words}"


def _tones(hunk: Hunk, candidate: Candidate) -> list[str | None]:
    """Each line's origin: a line dev wrote, one main wrote, text of neither (a word merge's), or shared."""
    dev = Counter(hunk.dev_text[i] for i in candidate.dev.kept)
    main = Counter(hunk.main_text[i] for i in candidate.main.kept)
    shared = {*hunk.base_text, *hunk.dev_text, *hunk.main_text}
    tones: list[str | None] = []
    for line in candidate.lines:
        if dev[line] > 0:
            dev[line] -= 1
            tones.append("dev")
        elif main[line] > 0:
            main[line] -= 1
            tones.append("main")
        else:
            tones.append(None if line in shared else "result")
    return tones
