"""What the Result pane shows: the current hunk's result lines tinted by origin, or a whole-file choice's state."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.display.safe_text import display_text
from workbench.analysis.model import FileStatus, Hunk, Taken
from workbench.resolve.events import FileChoice, chosen_oid
from workbench.resolve.splice import Choice
from workbench.services.workspace import Workspace
from workbench.tui.fileview import SideFacts
from workbench.tui.glyphs import (
    FILE_CHOICE_WORD,
    MARKED_WORD,
    TAKEN_WORD,
    short_sha,
)
from workbench.tui.presentation.suggestion import decided_word
from workbench.tui.widgets.result_preview import PreviewLine


def _written_state(ws: Workspace, path: str) -> str:
    """Where a hunk's decision stands: to be written, written, or nothing to write (and never "written" where
    nothing can be: a quiz, a preview)."""
    if not ws.writes:
        return "decided; nothing is written here"
    if ws.session.is_dirty(path):
        return "decided, not yet written"
    if ws.session.was_written(path):
        return "written"
    return "the work tree already holds it: nothing to write"


def preview_lines(ws: Workspace, path: str, index: int) -> tuple[tuple[PreviewLine, ...], str]:
    """The current hunk's result lines, each tinted by its origin; and a caption."""
    entry = ws.entry(path)
    hunk = ws.hunk(path, index)
    lines = ws.hunk_result(path, index)
    decision = ws.session.decision(path, index)
    choice = ws.session.file_choice(path)
    start = hunk.result.start if hunk.result is not None else None
    if lines is None:
        return (), "the file would be deleted" if choice is FileChoice.DELETE else "the file is absent from the result"
    tones = _tones(hunk, decision.choice if decision else None, choice, len(lines), entry.status)
    numbered = decision is None and choice is None and start is not None
    out = tuple(
        PreviewLine(start + k if numbered and start is not None else None, display_text(line), tone)
        for k, (line, tone) in enumerate(zip(lines, tones, strict=False))
    )
    if index in ws.session.marked_hunks(path):
        caption = f"result of hunk {index + 1}: {MARKED_WORD} (remove them before writing: e edits again)"
    elif decision is not None:
        caption = f"result of hunk {index + 1}: {decided_word(hunk, decision)} ({_written_state(ws, path)})"
    elif choice is not None:
        caption = f"result of hunk {index + 1}: {FILE_CHOICE_WORD[choice]}"
    elif entry.status is FileStatus.CONFLICTED:
        caption = f"result of hunk {index + 1}: still conflicted in the work tree"
    else:
        caption = f"result of hunk {index + 1} now: {TAKEN_WORD[hunk.taken]}"
    return out, caption


def _tones(hunk: Hunk, choice: Choice | None, file_choice: FileChoice | None, count: int,
           status: FileStatus) -> Sequence[str | None]:
    if file_choice is FileChoice.KEEP_DEV or choice is Choice.DEV:
        return ["dev"] * count
    if file_choice is FileChoice.TAKE_MAIN or choice is Choice.MAIN:
        return ["main"] * count
    if choice is Choice.BOTH:
        first = min(len(hunk.dev_text), count)
        return ["dev"] * first + ["main"] * (count - first)
    if choice is Choice.BOTH_MAIN_FIRST:
        first = min(len(hunk.main_text), count)
        return ["main"] * first + ["dev"] * (count - first)
    if choice is Choice.CUSTOM or choice is Choice.RESULT:
        return ["result"] * count
    if choice is Choice.MERGED:
        tone = {Taken.MAIN: "dev", Taken.DEV: "main"}.get(hunk.taken, "result")
        return [tone] * count
    if status is FileStatus.CONFLICTED:
        return [None] * count
    tone = {Taken.MAIN: "main", Taken.DEV: "dev"}.get(hunk.taken, "result")
    return [tone] * count


def file_choice_preview(ws: Workspace, path: str, sides: tuple[SideFacts, ...]) -> tuple[tuple[PreviewLine, ...], str]:
    """The Result pane for a whole-file choice: the choice, whether it is written, what the work tree holds."""
    session = ws.session
    choice = session.file_choice(path)
    dirty = session.is_dirty(path)
    if choice is None:
        caption = "Result: undecided (d keeps dev's file, m takes main's, x deletes it)"
    else:
        caption = f"Result: {FILE_CHOICE_WORD[choice]} ({_written_state(ws, path)})"
    facts = {f.label: f for f in sides}
    disk = session.disk_oid(path)
    lines = [PreviewLine(None, f"work tree now: {_blob_words(disk, facts)}", _blob_tone(disk, facts))]
    if choice is not None and dirty:
        entry = ws.entry(path)
        oid = chosen_oid(entry, choice)
        staged = " and stage it" if ws.stages else ""
        what = f"put {_blob_words(oid, facts)} there" if oid is not None else "delete the file"
        lines.append(PreviewLine(None, f"w will {what}{staged}", _blob_tone(oid, facts)))
    return tuple(lines), caption


def _blob_words(oid: str | None, facts: dict[str, SideFacts]) -> str:
    """Which side's file a blob is, with its id and size ("dev's file, 53c110c5a1, 2,048 bytes")."""
    if oid is None:
        return "no file (deleted)"
    for label in ("dev", "main", "base"):
        side = facts.get(label)
        if side is not None and side.oid == oid:
            size = f", {side.size:,} bytes" if side.size is not None else ""
            return f"{label}'s file ({short_sha(oid)}{size})"
    return f"a file of its own ({short_sha(oid)})"


def _blob_tone(oid: str | None, facts: dict[str, SideFacts]) -> str | None:
    for label in ("dev", "main"):
        side = facts.get(label)
        if oid is not None and side is not None and side.oid == oid:
            return label
    return "result" if oid is not None else None
