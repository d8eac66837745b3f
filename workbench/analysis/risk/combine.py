"""From signals to a risk score and a level, for hunks and for files.

The model is additive and documented in docs/risk.md: every signal carries
a ``weight`` (positive raises risk, negative lowers it); a hunk's risk is a
baseline for what the result holds there, plus the weights of all its
signals, clamped to 0..100.  Signals from earlier stages (policy, API
audit) are folded in the same way, so any stage can raise or lower risk
without knowing this module.  A file's risk is its riskiest hunk's, or the
baseline plus its file-level signals' weights when that is higher.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.analysis.model import Level, Signal, Taken

HIGH = 50
"""Risk from which a hunk is ``high``."""
MEDIUM = 30
"""Risk from which a hunk is ``medium``."""

BASELINE: dict[Taken, int] = {
    Taken.MAIN: 15,
    Taken.OTHER: 10,
    Taken.UNRESOLVED: 20,
    Taken.DEV: 0,
    Taken.BOTH: 0,
}
"""Risk before any evidence: ``-X theirs`` chose main blindly (15), a person
chose something else (10), nobody chose yet (20), dev's text is kept (0)."""

FILE_BASELINE = 15
"""Baseline a file's own signals start from."""


def clamp(value: int) -> int:
    return max(0, min(100, value))


def level_of(risk: int) -> Level:
    if risk >= HIGH:
        return Level.HIGH
    if risk >= MEDIUM:
        return Level.MEDIUM
    return Level.LOW


def hunk_risk(taken: Taken, signals: Iterable[Signal]) -> int:
    """Baseline for what the result holds, plus every signal's weight, in 0..100."""
    return clamp(BASELINE[taken] + sum(s.weight for s in signals))


def file_risk(hunk_risks: Iterable[int], signals: Iterable[Signal]) -> int:
    """The riskiest hunk, or the file's own signals when they say more."""
    found = list(signals)
    own = clamp(FILE_BASELINE + sum(s.weight for s in found)) if found else 0
    return max([own, *hunk_risks])
