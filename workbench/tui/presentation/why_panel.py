"""What the Why pane says: the current hunk's risk signals as sentences, with the commits they name.

Repository text (paths, subjects, signal sentences that quote them) always
goes through ``visible`` into ``rich.text.Text``, never into a markup string.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.style import Style
from rich.text import Text

from workbench.analysis.model import Commit, FileAnalysis, Hunk, Level, Signal, SignalKind, Taken, Whose
from workbench.analysis.worklist import why
from workbench.services import worklist
from workbench.services.workspace import Position, Workspace
from workbench.textsafe import visible
from workbench.tui.glyphs import (
    EDIT_TAKEN_WORD,
    FILE_CHOICE_WORD,
    LOST,
    PENDING_RISK_WORD,
    RISK_LETTER,
    RISK_WORD,
    TAKEN_WORD,
    short_sha,
    status_words,
)
from workbench.tui.palette import Palette
from workbench.tui.presentation import decision_mark, suggestion


def why_text(ws: Workspace, path: str, index: int | None, palette: Palette) -> Text:
    """The current hunk's risk signals as sentences, with the commits they name."""
    entry = ws.entry(path)
    text = Text()
    commits = _commit_index(entry)
    if index is None or not entry.hunks:
        text.append(f"{status_words(entry)}\n", style="bold")
        decision_mark.mark_lines(text, ws, path, None, palette)
        suggestion.file_lines(text, entry, ws, palette)
        _pending(text, ws)
        for message in entry.messages:
            text.append(f"• {visible(message)}\n")
        _signals(text, entry.signals, commits, palette)
        _edits(text, entry, commits, palette)
        return text
    hunk = ws.hunk(path, index)
    if ws.pending is not None:
        text.append(PENDING_RISK_WORD, style=Style(color=palette.muted.color, italic=True))
        text.append(f" · hunk {index + 1}/{len(entry.all_hunks)}\n")
        _pending(text, ws)
    else:
        text.append(f"{RISK_LETTER[hunk.level]} {RISK_WORD[hunk.level]}", style=palette.risk[hunk.level])
        text.append(f" ({hunk.risk}) · hunk {index + 1}/{len(entry.all_hunks)}\n")
    decision_mark.mark_lines(text, ws, path, index, palette)
    suggestion.file_lines(text, entry, ws, palette)
    for sha in suggestion.hunk_lines(text, ws, path, hunk, palette):
        commit_line(text, sha, commits.get(sha), palette, indent="    ")
    decided = _decided_words(ws, path, hunk)
    signals = suggestion.beside(ws, hunk, hunk.signals)
    if decided:  # the signals and lost lines are the merge's result's, which the decision replaces
        text.append(f"{decided}\n", style="bold")
        if ws.pending is None:
            text.append("Before your decision:\n", style=Style(italic=True))
        signals = tuple(s for s in signals if s.kind is not SignalKind.STILL_CONFLICTED)
    if signals:
        _signals(text, signals, commits, palette)
    elif ws.pending is None:  # on a first look there is no evidence yet: "no risk signals" would be a claim
        text.append("No risk signals for this hunk.\n", style=Style(italic=True))
    text.append(f"\n{_facts(entry, hunk, bool(decided))}\n")
    _lost(text, hunk, palette, bool(decided))
    _choice_loss(text, hunk)
    _item(text, ws, path, index, palette)
    _note_and_ack(text, ws, path, hunk.index)
    _side_commits(text, "dev", hunk.dev_commits, commits, palette)
    _side_commits(text, "main", hunk.main_commits, commits, palette)
    if entry.signals:
        text.append("\nFile-wide\n", style="bold")
        _signals(text, entry.signals, commits, palette)
    _edits(text, entry, commits, palette)
    return text


def _pending(text: Text, ws: Workspace) -> None:
    """A first look: what is still being read, and that deciding waits for it."""
    if ws.pending is not None:
        text.append(f"Still reading {visible(ws.pending)}: its risk signals and commits appear here in a moment, "
                    "and deciding starts then.\n", style=Style(italic=True))


def _edits(text: Text, entry: FileAnalysis, commits: dict[str, Commit], palette: Palette) -> None:
    """The regions outside git's conflicts that the result changed: where, what it holds, what it lost."""
    for hunk in sorted(entry.edits, key=lambda h: (-h.risk, h.index)):
        text.append(f"\n{RISK_LETTER[hunk.level]} ", style=palette.risk[hunk.level])
        where = _range_words(hunk.result.start, hunk.result.end) if hunk.result is not None else "absent"
        text.append(f"edit outside git's conflicts, result {where} ({hunk.risk})\n", style="bold")
        text.append(f"dev {_range_words(hunk.dev.start, hunk.dev.end)}, main {_range_words(hunk.main.start, hunk.main.end)}; ")
        text.append(f"{EDIT_TAKEN_WORD.get(hunk.taken, TAKEN_WORD[hunk.taken])}.\n")
        _signals(text, hunk.signals, commits, palette)


def _lost(text: Text, hunk: Hunk, palette: Palette, decided: bool = False) -> None:
    """Which lines of each side the result lost here (``lost_lines``): what to read, marked ✗ in the view
    (once decided, what the merge's result had lost)."""
    for side in ("dev", "main"):
        ranges = hunk.lost_lines.side(side)
        if ranges:
            words = f"the merge's result had lost from {side}" if decided else f"lost from {side}"
            text.append(f"{LOST} {words}: ", style=palette.risk[Level.HIGH])
            text.append(", ".join(_range_words(r.start, r.end) for r in ranges) + "\n")


def _item(text: Text, ws: Workspace, path: str, index: int, palette: Palette) -> None:
    """The worklist item the hunk belongs to: its id, level, kind, state and sentence (I decides it once)."""
    item = worklist.item_at(ws, Position(path, index))
    if item is None:
        return
    text.append("\nItem ", style="bold")
    text.append(visible(item.id), style=palette.risk[item.level])
    text.append(f" · {item.kind.value} · {why.size_words(item)} · {worklist.state_words(ws, item)}\n")
    text.append(f"  {visible(item.why)}\n")
    text.append(f"  {why.lost_words(item)}; I decides every member at once\n", style=palette.muted)


def _choice_loss(text: Text, hunk: Hunk) -> None:
    """What taking each side wholesale would lose of the other's own lines (``choice_loss``): both directions."""
    loss = hunk.choice_loss
    text.append(f"Taking dev loses {worklist.ranges_words(loss.take_dev, 'main')}; "
                f"taking main loses {worklist.ranges_words(loss.take_main, 'dev')}.\n")


def _facts(entry: FileAnalysis, hunk: Hunk, decided: bool = False) -> str:
    """Where the hunk is on each side and what the merge left there (in the past tense once decided)."""
    dev = _range_words(hunk.dev.start, hunk.dev.end)
    main = _range_words(hunk.main.start, hunk.main.end)
    left = _MERGE_LEFT[hunk.taken] if decided else TAKEN_WORD[hunk.taken]
    return f"dev {dev}, main {main}; {status_words(entry)}; {left}."


_MERGE_LEFT = {
    Taken.MAIN: "the merge had taken main's side",
    Taken.DEV: "the merge had kept dev's side",
    Taken.BOTH: "the merge had kept both sides",
    Taken.OTHER: "the merge had an edit of its own here",
    Taken.UNRESOLVED: "the merge left it conflicted",
}
"""What the merge left, said once the user has decided (the result then follows the decision)."""


def _note_and_ack(text: Text, ws: Workspace, path: str, index: int) -> None:
    """The user's note on the hunk and its acknowledgement for CI, when there are any."""
    note = ws.session.note(path, index)
    if note:
        text.append("Note: ", style="bold")
        text.append(f"{visible(note)}\n")
    ack = ws.acks.get((path, index))
    if ack is not None and not ack.by_agent:
        text.append("Acknowledged for CI", style="bold")
        text.append(f" (keep {ack.decision.value}) by {visible(ack.who)}: {visible(ack.reason)}\n")


def _decided_words(ws: Workspace, path: str, hunk: Hunk) -> str:
    """What the user decided for the hunk and whether the work tree holds it yet ("" when undecided).

    The facts line says what the merge left; after ``d`` the panel must not read as if main's side stays."""
    choice = ws.session.file_choice(path)
    decision = ws.session.decision(path, hunk.index)
    if choice is None and decision is None:
        return ""
    word = FILE_CHOICE_WORD[choice] if choice is not None else suggestion.decided_word(hunk, decision)
    if ws.session.is_dirty(path):
        return f"Your decision: {word}. Not written yet: w puts it in the work tree."
    if ws.session.was_written(path):
        return f"Your decision: {word}, written to the work tree."
    return f"Your decision: {word} (the work tree already holds it)."


def _range_words(start: int, end: int) -> str:
    if end < start:
        return f"has no lines here (before its line {start})"
    return f"line {start}" if start == end else f"lines {start}–{end}"


def _signals(text: Text, signals: Iterable[Signal], commits: dict[str, Commit], palette: Palette) -> None:
    """The signals in the analysis' order, but "still conflicted" last: it states what the hunk's header says, and
    a short pane must not push the evidence that explains the risk out of view."""
    for signal in sorted(signals, key=lambda s: s.kind is SignalKind.STILL_CONFLICTED):
        text.append("• ", style=palette.risk[Level.HIGH] if signal.weight >= 50 else palette.risk[Level.MEDIUM])
        text.append(visible(signal.message, single_line=False))
        text.append("\n")
        for sha in signal.commits:
            commit_line(text, sha, commits.get(sha), palette, indent="    ")


def _side_commits(text: Text, side: Whose, shas: tuple[str, ...], commits: dict[str, Commit], palette: Palette) -> None:
    if not shas:
        return
    text.append(f"{side} lines from:\n", style=palette.hue[side])
    for sha in shas:
        commit_line(text, sha, commits.get(sha), palette, indent="  ")


def commit_line(text: Text, sha: str, commit: Commit | None, palette: Palette, indent: str = "  ") -> None:
    """One commit as evidence reads it: short sha, PR number, subject (the sha alone when it is not known)."""
    text.append(indent)
    text.append(short_sha(sha), style=Style(color=palette.muted.color))
    if commit is not None:
        if commit.pr is not None:
            text.append(f" #{commit.pr}", style="bold")
        text.append(f" {visible(commit.subject)}")
    text.append("\n")


def _commit_index(entry: FileAnalysis) -> dict[str, Commit]:
    return {c.sha: c for c in (*entry.history.dev, *entry.history.main)}
