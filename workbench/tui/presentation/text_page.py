"""What a training quiz's reveal (r) and score (s) pages say (shown by ``dialogs/text_page.py``).

Repository text (paths, subjects, file lines) goes through ``visible`` (or
``display_text`` for file lines) into ``Text``, never into markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.style import Style
from rich.text import Text

from workbench.analysis.answer_key import Caveat, Grade, Miss, QuizHunk
from workbench.analysis.display.unified import DiffKind, unified_rows
from workbench.analysis.model import Commit, Level
from workbench.analysis.suggest.phrases import TAKE_WORDS
from workbench.services.quiz import Quiz, WouldSuggest, would_suggest
from workbench.textsafe import visible
from workbench.tui.glyphs import RISK_LETTER, RISK_WORD
from workbench.tui.palette import Palette
from workbench.tui.presentation.why_panel import commit_line
from workbench.wording import plural

SHIPPED_WORD = {
    "main": "main's side (the maintainers kept the bot's choice)",
    "dev": "dev's side (the maintainers restored dev's work)",
    "both": "both sides",
    "other": "a splice of their own (shown as a diff below)",
}
CAVEAT_WORDS = {
    Caveat.SHIPPED_FAILS_AUDIT: "What shipped here still fails the API audit, so it is not a clean answer; "
                                "a different answer is not scored as a miss. The audit says: ",
    Caveat.FIXED_ELSEWHERE: "The API mismatch here was fixed in another file, not in this hunk: what shipped "
                            "is right only together with that fix, so a different answer is not scored as a "
                            "miss. The audit said on the bot's merge: ",
}
ANSWER_WORD = {"main": "main", "dev": "dev", "both": "both", "both-main-first": "both (main first)",
               "custom": "an edit", "other": "other"}


def reveal_text(quiz: Quiz, question: QuizHunk, answer: str, palette: Palette) -> Text:
    """One hunk revealed: the trainee's answer, what shipped, the evidence, the risk the workbench gave."""
    text = Text()
    text.append(f"{visible(question.path)} · hunk {question.index + 1}\n\n", style="bold")
    agree = quiz.agrees(answer, question)
    text.append(f"You answered {ANSWER_WORD.get(answer, answer)}")
    if agree:
        text.append(" ✓ same as shipped\n", style=palette.hue["result"])
    elif question.caveat is not None:
        text.append(" ≈ not what shipped, but what shipped is doubtful (not scored)\n",
                    style=palette.risk[Level.MEDIUM])
    else:
        text.append(" ✗ not what shipped\n", style=palette.risk[Level.HIGH])
    text.append("Shipped: ", style="bold")
    text.append(f"{SHIPPED_WORD[question.shipped]}\n")
    if question.caveat is not None:
        text.append("\nNote: ", style="bold")
        text.append(CAVEAT_WORDS[question.caveat])
        text.append(f"{visible(question.caveat_detail, single_line=False)}\n")
    if question.shipped == "other":
        _diff(text, "main → shipped", question.hunk.main_text, question.shipped_text, palette)
        _diff(text, "dev → shipped", question.hunk.dev_text, question.shipped_text, palette)
    text.append("\nEvidence\n", style="bold")
    _evidence(text, quiz, question, palette)
    text.append("\nWhat the workbench said on the bot's merge\n", style="bold")
    hunk = question.hunk
    text.append(f"{RISK_LETTER[hunk.level]} {RISK_WORD[hunk.level]}", style=palette.risk[hunk.level])
    text.append(f" ({hunk.risk})\n")
    for signal in hunk.signals:
        text.append(f"• {visible(signal.message, single_line=False)}\n")
    if not hunk.signals:
        text.append("No risk signals for this hunk.\n", style=Style(italic=True))
    _would_suggest(text, would_suggest(question), palette)
    return text


def _would_suggest(text: Text, would: WouldSuggest, palette: Palette) -> None:
    """The workbench would have suggested …: the suggestion (or none) and whether it, or a candidate, shipped."""
    suggestion, whole = would.suggestion, would.file
    if whole is not None:
        text.append(f"The workbench would have suggested {whole.side}'s whole file: ", style="bold")
        text.append(visible(whole.reason, single_line=False))
        if would.right:
            text.append(" ✓ what shipped here", style=palette.hue["result"])
        else:
            text.append(" ✗ not what shipped here", style=palette.risk[Level.HIGH])
        text.append(".\n")
        return
    if suggestion is None:
        text.append("The workbench would have made no suggestion: ", style="bold")
        text.append(f"the evidence does not separate the {plural(would.candidates, 'candidate')}")
    else:
        text.append("The workbench would have suggested ", style="bold")
        text.append(f"{TAKE_WORDS[suggestion.candidate.take]}: {visible(suggestion.reason, single_line=False)}")
        if would.right:
            text.append(" ✓ what shipped", style=palette.hue["result"])
        else:
            text.append(" ✗ not what shipped", style=palette.risk[Level.HIGH])
    if would.shipped is not None and not would.right:
        text.append(f"; what shipped is one of its candidates, {TAKE_WORDS[would.shipped.take]} (C shows them)")
    elif would.shipped is None:
        text.append("; what shipped is none of its candidates")
    text.append(".\n")


def _evidence(text: Text, quiz: Quiz, question: QuizHunk, palette: Palette) -> None:
    if question.evidence:
        text.append("Fix commits between the bot's merge and the shipped head that wrote this text:\n")
        _commits(text, (quiz.commits.get(sha) for sha in question.evidence), question.evidence, palette)
    elif question.shipped == "main":
        text.append("None needed: what the bot merged here shipped unchanged.\n")
    elif quiz.amended:
        text.append("The fixes were folded into the merge commit itself (amended), so no separate "
                    "commit shows them.\n")
    else:
        text.append("No single commit after the merge wrote this text.\n")


def _commits(text: Text, commits: Iterable[Commit | None], shas: Iterable[str], palette: Palette) -> None:
    for commit, sha in zip(commits, shas, strict=False):
        commit_line(text, sha, commit, palette)


def _diff(text: Text, title: str, old: Sequence[bytes], new: Sequence[bytes], palette: Palette) -> None:
    rows = unified_rows(old, new, context=2)
    text.append(f"\n{title}\n", style="bold")
    if not rows:
        text.append("  (identical)\n", style=Style(italic=True))
        return
    marks = {DiffKind.DELETE: ("-", palette.line["main"]), DiffKind.INSERT: ("+", palette.line["dev"]),
             DiffKind.CONTEXT: (" ", None)}
    for row in rows:
        if row.kind is DiffKind.HEADER:
            text.append(f"{row.text}\n", style=Style(color=palette.muted.color))
            continue
        mark, style = marks[row.kind]
        text.append(f"{mark} {row.text}\n", style=style)


def score_text(quiz: Quiz, result: Grade, palette: Palette) -> Text:
    """Agreement, costly misses apart from harmless ones, and every miss with what shipped."""
    key = quiz.key
    text = Text()
    text.append(f"{visible(quiz.title)}\n\n", style="bold")
    text.append(f"Agreement {result.score:.0%}", style="bold")
    scored = result.answered - len(result.debatable)
    text.append(f": {len(result.agreed)} of {scored} answered hunks match what the maintainers shipped")
    if result.debatable:
        text.append(f" ({len(result.debatable)} more not scored: what shipped there is doubtful)")
    unanswered = len(result.unanswered)
    text.append(f" ({unanswered} of {len(key.hunks)} not answered yet)\n" if unanswered else ".\n")
    text.append(f"\nCostly misses: {len(result.costly)}", style=palette.risk[Level.HIGH] if result.costly else "bold")
    text.append(" (dev work the maintainers had to restore, but you kept main)\n")
    _misses(text, quiz, result.costly, palette)
    text.append(f"\nHarmless misses: {len(result.harmless)}\n", style="bold")
    _misses(text, quiz, result.harmless, palette)
    if result.debatable:
        text.append(f"\nNot scored: {len(result.debatable)}", style="bold")
        text.append(" (what shipped fails the API audit, or leans on a fix in another file)\n")
        _misses(text, quiz, result.debatable, palette)
    if result.unanswered:
        text.append("\nNot answered\n", style="bold")
        for question in result.unanswered:
            text.append(f"  {visible(question.path)} hunk {question.index + 1}\n")
    text.append("\nYour answers and this score are saved; reopening the exercise resumes it.\n",
                style=Style(italic=True))
    return text


def _misses(text: Text, quiz: Quiz, misses: tuple[Miss, ...], palette: Palette) -> None:
    for miss in misses:
        question = miss.quiz
        text.append(f"  {visible(question.path)} hunk {question.index + 1}: ")
        text.append(f"you chose {miss.answered}, shipped {question.shipped}")
        text.append(f" · {RISK_WORD[question.level]}\n", style=palette.risk[question.level])
        if question.evidence:
            _commits(text, (quiz.commits.get(sha) for sha in question.evidence), question.evidence, palette)
        elif question.shipped != "main" and quiz.amended:
            text.append("    (fixes folded into the merge commit)\n", style=Style(italic=True))
