"""The ``reword`` stage, run last: signals speak of what decided the sync.

Signals are written for a ``-X theirs`` merge; when a resolution (the bot's,
a person's) decided instead (``analysis.resolver``, see ``resolver.py``),
their words follow what happened.
"""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import FileAnalysis, Resolver, Signal, SyncAnalysis
from workbench.analysis.stages.context import AnalysisContext

THEIRS_WORDS = (
    ("-X theirs took main's text", "the resolution took main's text"),
    ("-X theirs drops", "taking main's text drops"),
    ("-X theirs took", "the resolution took"),
)
"""How signals written for a ``-X theirs`` merge read when a resolution decided instead."""


def reword(analysis: SyncAnalysis, _context: AnalysisContext) -> SyncAnalysis:
    """Make every signal speak of the resolution, not ``-X theirs``, when it decided."""
    if analysis.resolver is Resolver.THEIRS:
        return analysis
    return replace(analysis, files=tuple(_reworded(f) for f in analysis.files))


def _reworded(entry: FileAnalysis) -> FileAnalysis:
    return replace(
        entry,
        signals=_signals(entry.signals),
        hunks=tuple(replace(h, signals=_signals(h.signals)) for h in entry.hunks),
        edits=tuple(replace(h, signals=_signals(h.signals)) for h in entry.edits),
    )


def _signals(signals: tuple[Signal, ...]) -> tuple[Signal, ...]:
    return tuple(replace(s, message=_words(s.message)) for s in signals)


def _words(message: str) -> str:
    for old, new in THEIRS_WORDS:
        message = message.replace(old, new)
    return message
