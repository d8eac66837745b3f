"""Candidates and suggestion for the conflict hunks of one file, in two steps: the menu, from the hunk's texts
and the repository's formatter alone (the stage's work, shared out between processes), then the suggestion,
once every stage's signals are on the hunk (the stage's fold)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from workbench.analysis.model import Candidate, FileAnalysis, Hunk, HunkKind
from workbench.analysis.suggest.candidates import MENU_SIZE, Edits, HunkTexts, Reflowed, all_candidates
from workbench.analysis.suggest.formatting import FormatterConfig
from workbench.analysis.suggest.reflowing import reflowed_hunks
from workbench.analysis.suggest.rungs import SquashFacts, suggest
from workbench.analysis.suggest.words import merge_words

Known = dict[tuple[HunkTexts, Reflowed], "HunkMenu"]
"""Menus already made, by the hunk's texts and reflowed lines: a sync repeats hunks (the same golden values
in several files), and a menu depends on nothing else."""


@dataclass(frozen=True, slots=True)
class HunkMenu:
    """A conflict hunk's first candidates (at most ``MENU_SIZE``, best first) and what the ladder reads besides."""

    candidates: tuple[Candidate, ...]
    words: tuple[bytes, ...] | None
    """The hunk's clean word-level merge, when it has one."""
    checked: bool
    """The repository's formatter laid out main's text here."""


def file_menus(entry: FileAnalysis, formatter: FormatterConfig | None, known: Known | None = None) -> tuple[HunkMenu, ...]:
    """A menu for each conflict hunk of the file, in order; none for a file without a line merge."""
    if entry.merge is None:
        return ()
    reflowed = reflowed_hunks(entry, formatter)
    return tuple(hunk_menu(h, reflowed.get(h.index, Reflowed()), known) for h in conflict_hunks(entry))


def conflict_hunks(entry: FileAnalysis) -> tuple[Hunk, ...]:
    """The hunks that get a menu: the conflicts of a file with a line merge."""
    return tuple(h for h in entry.hunks if h.kind is HunkKind.CONFLICT) if entry.merge is not None else ()


def hunk_menu(hunk: Hunk, reflowed: Reflowed, known: Known | None = None) -> HunkMenu:
    """One hunk's menu: its first ``MENU_SIZE`` distinct candidates (a suggestion is always one of them)."""
    texts = HunkTexts(tuple(hunk.base_text), tuple(hunk.dev_text), tuple(hunk.main_text))
    if known is not None and (texts, reflowed) in known:
        return known[texts, reflowed]
    words = merge_words(texts.base, texts.dev, texts.main)
    menu = HunkMenu(all_candidates(texts, Edits.of(texts), reflowed, words, MENU_SIZE), words, reflowed.checked)
    if known is not None:
        known[texts, reflowed] = menu
    return menu


def suggested(hunk: Hunk, menu: HunkMenu, squashes: SquashFacts) -> Hunk:
    """The hunk with its suggestion (the first rung whose evidence holds on its signals) and its candidates,
    the suggestion's first."""
    texts = HunkTexts(tuple(hunk.base_text), tuple(hunk.dev_text), tuple(hunk.main_text))
    found = suggest(texts, hunk.signals, menu.candidates, squashes, checked=menu.checked,
                    main_commits=hunk.main_commits, words=menu.words)
    if found is None:
        return replace(hunk, suggestion=None, candidates=menu.candidates)
    rest = [c for c in menu.candidates if c.take is not found.candidate.take]
    return replace(hunk, suggestion=found, candidates=(found.candidate, *rest[: MENU_SIZE - 1]))
