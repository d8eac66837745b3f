"""Suggestions as the ``workbench.analysis/1`` JSON carries them: ``suggestion`` and ``candidates`` on each
conflict hunk, ``suggestion`` on a file (see docs/analyze.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.analysis.model import FileAnalysis, Hunk, LineRange
from workbench.analysis.suggest.facts import SuggestFacts
from workbench.analysis.suggest.files import FileSuggestion, suggest_file
from workbench.analysis.suggest.hunks import suggest_file_hunks
from workbench.analysis.suggest.model import Candidate, Suggestion


def add_suggestions(data: dict[str, Any], entry: FileAnalysis, facts: SuggestFacts) -> dict[str, Any]:
    """``data`` (a file's JSON) with its file suggestion, and each hunk's ``suggestion`` and ``candidates``
    (null and [] on edit hunks); every other field is left as it is."""
    found = suggest_file_hunks(entry, facts)
    for hunk, out in zip(entry.all_hunks, data["hunks"], strict=True):
        mine = found.get(hunk.index)  # edit hunks' indexes come after the conflicts': never found
        out["suggestion"] = suggestion_json(mine.suggestion, hunk) if mine is not None and mine.suggestion else None
        out["candidates"] = [candidate_json(c, hunk) for c in mine.candidates] if mine is not None else []
    per_file = suggest_file(entry)
    data["suggestion"] = file_suggestion_json(per_file) if per_file is not None else None
    return data


def suggestion_json(suggestion: Suggestion, hunk: Hunk) -> dict[str, Any]:
    return {
        **candidate_json(suggestion.candidate, hunk),
        "rung": suggestion.rung.value,
        "reason": suggestion.reason,
        "commits": list(suggestion.commits),
    }


def candidate_json(candidate: Candidate, hunk: Hunk) -> dict[str, Any]:
    out: dict[str, Any] = {"take": candidate.take.value}
    if candidate.take.computed:
        out["text"] = candidate.text.decode("utf-8", "surrogateescape")
    out["note"] = candidate.note
    out["keeps"] = {"dev": _ranges(candidate.dev.kept, hunk.dev), "main": _ranges(candidate.main.kept, hunk.main)}
    out["drops"] = {"dev": _ranges(candidate.dev.dropped, hunk.dev), "main": _ranges(candidate.main.dropped, hunk.main)}
    return out


def file_suggestion_json(found: FileSuggestion) -> dict[str, Any]:
    return {"take": found.take.value, "rung": found.rung.value, "reason": found.reason, "regenerate": found.regenerate}


def _ranges(indexes: Sequence[int], side: LineRange) -> list[list[int]]:
    """0-based indexes into a hunk's side as 1-based inclusive line ranges of that side's blob."""
    out: list[list[int]] = []
    for index in sorted(indexes):
        line = side.start + index
        if out and out[-1][1] == line - 1:
            out[-1][1] = line
        else:
            out.append([line, line])
    return out

