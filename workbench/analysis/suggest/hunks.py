"""Candidates and suggestion for every conflict hunk of one file."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.model import FileAnalysis, Hunk, HunkKind
from workbench.analysis.suggest.candidates import MENU_SIZE, Edits, HunkTexts, Reflowed, all_candidates
from workbench.analysis.suggest.facts import SuggestFacts
from workbench.analysis.suggest.model import Candidate, Suggestion
from workbench.analysis.suggest.reflowing import reflowed_hunks
from workbench.analysis.suggest.rungs import suggest
from workbench.analysis.suggest.words import merge_words


@dataclass(frozen=True, slots=True)
class HunkSuggestions:
    """A hunk's menu (best first, the suggestion first when there is one) and its suggestion."""

    suggestion: Suggestion | None
    candidates: tuple[Candidate, ...]


def suggest_file_hunks(entry: FileAnalysis, facts: SuggestFacts) -> dict[int, HunkSuggestions]:
    """Each text conflict hunk of the file, by index; edit hunks and non-text files get none."""
    if entry.merge is None:
        return {}
    reflowed = reflowed_hunks(entry, facts.formatter)
    return {h.index: suggest_hunk(h, reflowed.get(h.index, Reflowed()), facts) for h in entry.hunks if h.kind is HunkKind.CONFLICT}


def suggest_hunk(hunk: Hunk, reflowed: Reflowed, facts: SuggestFacts) -> HunkSuggestions:
    """One hunk's menu and suggestion."""
    texts = HunkTexts(tuple(hunk.base_text), tuple(hunk.dev_text), tuple(hunk.main_text))
    words = merge_words(texts.base, texts.dev, texts.main)
    everything = all_candidates(texts, Edits.of(texts), reflowed, words)
    found = suggest(texts, hunk.signals, everything, reflowed, facts.squashes, hunk.main_commits, words)
    if found is None:
        return HunkSuggestions(None, everything[:MENU_SIZE])
    rest = [c for c in everything if c.take is not found.candidate.take]
    return HunkSuggestions(found, (found.candidate, *rest[: MENU_SIZE - 1]))
