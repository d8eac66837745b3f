"""From the analysis and the session to what widgets show: titles, rows, sentences.

The screen calls these after every change and hands the results down to its
widgets.  Repository text (paths, subjects, authors, signal sentences that
quote them) always goes through ``visible`` into ``rich.text.Text``, never
into a markup string, so ``[bold]`` in a commit subject is shown as typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.style import Style
from rich.text import Text

from workbench.analysis.display.safe_text import display_text
from workbench.analysis.model import Commit, Decider, FileAnalysis, FileStatus, Hunk, HunkKind, Level, Mode, Signal, SyncAnalysis, Taken
from workbench.resolve.events import FileChoice, chosen_oid
from workbench.resolve.splice import Choice
from workbench.resolve.writer import WriteCheck
from workbench.services.workspace import Workspace, file_level
from workbench.textsafe import visible
from workbench.tui.fileview import SideFacts
from workbench.tui.glyphs import (
    EDIT_TAKEN_WORD,
    FILE_CHOICE_WORD,
    LOST,
    MARKED_WORD,
    RISK_LETTER,
    RISK_WORD,
    TAKEN_SHORT,
    TAKEN_WORD,
    decision_word,
    provisional_letters,
    short_sha,
    status_letters,
    status_words,
)
from workbench.tui.palette import Palette
from workbench.tui.widgets.file_list import FileRow, Totals
from workbench.tui.widgets.hunk_view import HunkTitle
from workbench.tui.widgets.result_preview import PreviewLine
from workbench.wording import plural

MODE_WORD = {
    Mode.IN_PROGRESS: "merge in progress",
    Mode.MERGE_COMMIT: "merge commit",
    Mode.PREVIEW: "preview",
    Mode.MERGETOOL: "git mergetool",
}


def outline_row(entry: FileAnalysis) -> FileRow:
    """A file of the sync's outline: known by path and kind, counts and risk still loading."""
    return FileRow(path=entry.path, level=Level.LOW, status=provisional_letters(entry), decided=0, total=0,
                   unwritten=False, loading=True)


def file_row(ws: Workspace, entry: FileAnalysis) -> FileRow:
    """One file's row; ``●`` only where a write is possible (not in a preview or a quiz)."""
    session = ws.session
    hunks = entry.all_hunks
    decided = session.decided(entry.path) if hunks else int(session.file_choice(entry.path) is not None)
    return FileRow(
        path=entry.path,
        level=file_level(entry),
        status=status_letters(entry),
        decided=decided,
        total=len(hunks),
        unwritten=ws.writes and session.is_dirty(entry.path),
        marked=bool(session.marked_hunks(entry.path)),
    )


def totals(ws: Workspace) -> Totals:
    return Totals(
        undecided=ws.session.undecided(),
        high=ws.session.undecided_high(),
        unwritten=len(ws.session.dirty_paths()) if ws.writes else 0,
        writes=ws.writes,
        marked=ws.session.marked_count(),
    )


def hunk_titles(ws: Workspace, path: str) -> dict[int, HunkTitle]:
    entry = ws.entry(path)
    out = {}
    marked = set(ws.session.marked_hunks(path))
    for hunk in entry.all_hunks:
        decision = ws.session.decision(path, hunk.index)
        choice = ws.session.file_choice(path)
        word = FILE_CHOICE_WORD[choice] if choice is not None else decision_word(decision)
        if hunk.index in marked:
            word = MARKED_WORD
        out[hunk.index] = HunkTitle(
            number=hunk.index + 1,
            total=len(entry.all_hunks),
            level=hunk.level,
            risk=hunk.risk,
            taken=_taken_title(entry, hunk),
            decision=word,
            decided=decision is not None or choice is not None,
            marked=hunk.index in marked,
        )
    return out


def _taken_title(entry: FileAnalysis, hunk: Hunk) -> str:
    """What the header says the hunk holds; an edit says it lies outside git's conflicts and what changed."""
    if hunk.kind is HunkKind.EDIT:
        return f"edit outside git's conflicts: {EDIT_TAKEN_WORD.get(hunk.taken, TAKEN_WORD[hunk.taken])}"
    return ("app " if entry.decided_by is Decider.APP else "") + TAKEN_SHORT[hunk.taken]


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
        caption = f"result of hunk {index + 1}: {decision_word(decision)} ({_written_state(ws, path)})"
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


# -- the why panel -----------------------------------------------------------------------


def why_text(ws: Workspace, path: str, index: int | None, palette: Palette) -> Text:
    """The current hunk's risk signals as sentences, with the commits they name."""
    entry = ws.entry(path)
    text = Text()
    commits = _commit_index(entry)
    if index is None or not entry.hunks:
        text.append(f"{status_words(entry)}\n", style="bold")
        for message in entry.messages:
            text.append(f"• {visible(message)}\n")
        _signals(text, entry.signals, commits, palette)
        _edits(text, entry, commits, palette)
        return text
    hunk = ws.hunk(path, index)
    text.append(f"{RISK_LETTER[hunk.level]} {RISK_WORD[hunk.level]}", style=palette.risk[hunk.level])
    text.append(f" ({hunk.risk}) · hunk {index + 1}/{len(entry.all_hunks)}\n")
    if hunk.signals:
        _signals(text, hunk.signals, commits, palette)
    else:
        text.append("No risk signals for this hunk.\n", style=Style(italic=True))
    decided = _decided_words(ws, path, hunk)
    text.append(f"\n{_facts(entry, hunk, bool(decided))}\n")
    _lost(text, hunk, palette)
    if decided:
        text.append(f"{decided}\n", style="bold")
    _note_and_ack(text, ws, path, hunk.index)
    _side_commits(text, "dev", hunk.dev_commits, commits, palette)
    _side_commits(text, "main", hunk.main_commits, commits, palette)
    if entry.signals:
        text.append("\nFile-wide\n", style="bold")
        _signals(text, entry.signals, commits, palette)
    _edits(text, entry, commits, palette)
    return text


def _edits(text: Text, entry: FileAnalysis, commits: dict[str, Commit], palette: Palette) -> None:
    """The regions outside git's conflicts that the result changed: where, what it holds, what it lost."""
    for hunk in sorted(entry.edits, key=lambda h: (-h.risk, h.index)):
        text.append(f"\n{RISK_LETTER[hunk.level]} ", style=palette.risk[hunk.level])
        where = _range_words(hunk.result.start, hunk.result.end) if hunk.result is not None else "absent"
        text.append(f"edit outside git's conflicts, result {where} ({hunk.risk})\n", style="bold")
        text.append(f"dev {_range_words(hunk.dev.start, hunk.dev.end)}, main {_range_words(hunk.main.start, hunk.main.end)}; ")
        text.append(f"{EDIT_TAKEN_WORD.get(hunk.taken, TAKEN_WORD[hunk.taken])}.\n")
        _signals(text, hunk.signals, commits, palette)


def _lost(text: Text, hunk: Hunk, palette: Palette) -> None:
    """Which lines of each side the result lost here (``lost_lines``): what to read, marked ✗ in the view."""
    for side in ("dev", "main"):
        ranges = hunk.lost_lines.side(side)
        if ranges:
            text.append(f"{LOST} lost from {side}: ", style=palette.risk[Level.HIGH])
            text.append(", ".join(_range_words(r.start, r.end) for r in ranges) + "\n")


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
    if ack is not None:
        text.append("Acknowledged for CI", style="bold")
        text.append(f" (keep {ack.decision.value}) by {visible(ack.who)}: {visible(ack.reason)}\n")


def _decided_words(ws: Workspace, path: str, hunk: Hunk) -> str:
    """What the user decided for the hunk and whether the work tree holds it yet ("" when undecided).

    The facts line says what the merge left; after ``d`` the panel must not read as if main's side stays."""
    choice = ws.session.file_choice(path)
    decision = ws.session.decision(path, hunk.index)
    if choice is None and decision is None:
        return ""
    word = FILE_CHOICE_WORD[choice] if choice is not None else decision_word(decision)
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
    for signal in signals:
        text.append("• ", style=palette.risk[Level.HIGH] if signal.weight >= 50 else palette.risk[Level.MEDIUM])
        text.append(visible(signal.message, single_line=False))
        text.append("\n")
        for sha in signal.commits:
            _commit_line(text, sha, commits, palette, indent="    ")


def _side_commits(text: Text, side: str, shas: tuple[str, ...], commits: dict[str, Commit], palette: Palette) -> None:
    if not shas:
        return
    text.append(f"{side} lines from:\n", style=palette.hue[side])
    for sha in shas:
        _commit_line(text, sha, commits, palette, indent="  ")


def _commit_line(text: Text, sha: str, commits: dict[str, Commit], palette: Palette, indent: str) -> None:
    commit = commits.get(sha)
    text.append(indent)
    text.append(short_sha(sha), style=Style(color=palette.muted.color))
    if commit is not None:
        if commit.pr is not None:
            text.append(f" #{commit.pr}", style="bold")
        text.append(f" {visible(commit.subject)}")
    text.append("\n")


def _commit_index(entry: FileAnalysis) -> dict[str, Commit]:
    return {c.sha: c for c in (*entry.history.dev, *entry.history.main)}


# -- whole-file choices ---------------------------------------------------------------------


def file_choice_text(ws: Workspace, path: str, sides: tuple[SideFacts, ...], palette: Palette) -> Text:
    entry = ws.entry(path)
    choice = ws.session.file_choice(path)
    text = Text()
    text.append(visible(path), style="bold")
    text.append(f"\n{status_words(entry)}: choose the whole file.\n\n")
    for facts in sides:
        style = palette.hue.get(facts.label, Style(bold=True))
        text.append(f"{facts.label:<5}", style=style)
        if facts.oid is None:
            text.append("  absent (deleted on this side)\n")
            continue
        size = "submodule" if facts.mode == 0o160000 else f"{facts.size:,} bytes" if facts.size is not None else "?"
        mode = f"{facts.mode:o}" if facts.mode else ""
        text.append(f"  {short_sha(facts.oid)}  {size:>14}  {mode}\n")
    text.append("\n")
    for key, word in (("d", FileChoice.KEEP_DEV), ("m", FileChoice.TAKE_MAIN), ("x", FileChoice.DELETE)):
        marked = choice is word
        text.append("  ▶ " if marked else "    ", style="bold")
        text.append(f" {key} ", style="bold reverse" if marked else "bold")
        text.append(f"  {FILE_CHOICE_WORD[word]}\n", style="bold" if marked else "")
    return text


# -- writing ---------------------------------------------------------------------------------


def quit_question(dirty: int, blocked: list[WriteCheck]) -> str:
    """The quit dialog's words: how many files hold unwritten decisions, and why some cannot be written yet."""
    has = "files have" if dirty != 1 else "file has"
    words = (f"{dirty} {has} decisions not written to the work tree yet. "
             "They are saved and come back when you reopen this sync.")
    if not blocked:
        return words
    if len(blocked) == dirty:
        words += "\n\nNothing can be written yet:"
    else:
        words += f"\n\n{plural(len(blocked), 'file')} cannot be written yet:"
    for check in blocked[:5]:
        words += f"\n  {visible(check.message)}"
    if len(blocked) > 5:
        words += f"\n  … and {len(blocked) - 5} more"
    return words


def write_summary(written: list[str], deleted: list[str], mode: Mode) -> str:
    """What ``w`` did, in one sentence: a deleted file is said to be deleted (and named), never "written"."""
    parts = []
    if written:
        parts.append(f"{plural(len(written), 'file')} written")
    if deleted:
        gone = visible(deleted[0]) if len(deleted) == 1 else plural(len(deleted), "file")
        parts.append(f"{gone} deleted")
    done = " and ".join(parts)
    if mode is Mode.MERGETOOL:
        # git mergetool hands the tool one file (MERGED) and stages it once the tool exits successfully.
        if deleted:
            return f"{done}: git stages the deletion when the tool exits (q)."
        named = f"{visible(written[0])} written" if len(written) == 1 else done
        return f"{named} to the work tree: git stages it when the tool exits (q)."
    if mode is Mode.IN_PROGRESS:
        if not deleted:
            return f"{done} and staged."
        if not written:
            return f"{done} and the deletion{'s' if len(deleted) != 1 else ''} staged."
        return f"{done}, all staged."
    if deleted and not written:
        return f"{done} from the work tree (commit a fix-up)."
    return f"{done} {'to' if not deleted else 'in'} the work tree (commit a fix-up)."


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


# -- the header line ------------------------------------------------------------------------


def sync_title(analysis: SyncAnalysis, repo_name: str, resumed: bool, compact: bool = False) -> Text:
    """The top line; ``compact``: shorter words and commit ids, for narrow terminals."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if compact and analysis.mode is not Mode.MERGETOOL:
        text.append(f" {visible(repo_name)} · {MODE_WORD[analysis.mode]} · dev ")
        text.append(analysis.dev[:7], style="bold")
        text.append(" ← main ")
        text.append(analysis.main[:7], style="bold")
        text.append(f" · {analysis.main_commits} from main")
        if resumed:
            text.append(" · resumed", style="italic")
        return text
    text.append(" workbench ", style="bold reverse")
    if analysis.mode is Mode.MERGETOOL:
        (entry,) = analysis.files or (None,)
        local, remote = analysis.labels
        text.append(f" {visible(repo_name)} · git mergetool · {local} ← {remote}")
        if entry is not None:
            text.append(f" · {visible(entry.path)}", style="bold")
        text.append(" · w writes MERGED; q returns to git")
        return text
    text.append(f" {visible(repo_name)} · {MODE_WORD[analysis.mode]}")
    if analysis.merge:
        text.append(f" {short_sha(analysis.merge)}")
    text.append(" · dev ")
    text.append(short_sha(analysis.dev), style="bold")
    text.append(" ← main ")
    text.append(short_sha(analysis.main), style="bold")
    text.append(f" · {plural(analysis.main_commits, 'commit')} from main")
    if resumed:
        text.append(" · resumed earlier decisions", style="italic")
    return text
