"""Suggestions as the ``workbench.analysis/1`` JSON carries them: ``suggestion`` and ``candidates`` on each
hunk (null and [] on edit hunks), ``suggestion`` on a file (see docs/analyze.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.analysis.model import Candidate, FileSuggestion, Hunk, LineRange, Suggestion


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


def file_suggestion_json(found: FileSuggestion | None) -> dict[str, Any] | None:
    if found is None:
        return None
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
