"""From signals to a risk score and a level, for hunks and for files.

The model is additive and documented in docs/risk.md: every signal carries
a ``weight`` (positive raises risk, negative lowers it); a hunk's risk is a
baseline for what the result holds there, plus the weights of all its
signals, spread onto 0..99 (``spread``: strong evidence ranks above weaker
evidence instead of tying at a cap).  Signals from earlier stages (policy, API
audit) are folded in the same way, so any stage can raise or lower risk
without knowing this module.  A file's risk is its riskiest hunk's, or the
baseline plus its file-level signals' weights when that is higher.
"""

from __future__ import annotations

from collections.abc import Iterable

from workbench.analysis.model import Level, LostLines, Signal, Taken
from workbench.analysis.risk.signals import EXPLAINING, breaks

HIGH = 50
"""Risk from which a hunk is ``high``."""
MEDIUM = 30
"""Risk from which a hunk is ``medium``."""

BASELINE: dict[Taken, int] = {
    Taken.MAIN: 15,
    Taken.OTHER: 15,
    Taken.UNRESOLVED: 20,
    Taken.DEV: 15,
    Taken.BOTH: 0,
}
"""Risk before any evidence: one side's text was taken over the other's (15:
``-X theirs`` takes main blindly, a resolution favouring dev takes dev), or a
resolution wrote something else (15: whoever wrote it, a lost line of either
side's code needs the same look), nobody chose yet (20), both sides' text is
kept (0).  A hunk holding dev's text that loses nothing of main's says so
(``result-has-dev``, -100)."""

SPREAD = 60
"""How fast evidence beyond ``HIGH`` approaches 100 (see ``spread``)."""

FILE_BASELINE = 15
"""Baseline a file's own signals start from."""


def level_of(risk: int) -> Level:
    if risk >= HIGH:
        return Level.HIGH
    if risk >= MEDIUM:
        return Level.MEDIUM
    return Level.LOW


def spread(total: int) -> int:
    """The summed evidence on the 0..100 scale: as is up to ``HIGH``, then ever closer to 100.

    A capped sum ties every hunk with strong evidence at 100; spreading the
    part above ``HIGH`` keeps more evidence ranking higher (50 stays 50,
    100 becomes 72, 150 becomes 81) while levels stay where they were.
    """
    if total <= HIGH:
        return max(0, total)
    above = total - HIGH
    return min(99, HIGH + round((99 - HIGH) * above / (above + SPREAD)))


def hunk_risk(taken: Taken, signals: Iterable[Signal]) -> int:
    """Baseline for what the result holds, plus every signal's weight, spread onto 0..99."""
    return spread(BASELINE[taken] + sum(s.weight for s in signals))


def explained_risk(risk: int, signals: Iterable[Signal], lost: LostLines) -> int:
    """``risk``, or at most low when evidence explained every line the hunk lost (layout only, moved, removed
    on purpose by the other side: ``explained.py``) and it now loses nothing, unless a signal says it breaks
    the build or a policy rule."""
    found = list(signals)
    if lost.dev or lost.main or not any(s.kind in EXPLAINING for s in found):
        return risk
    if any(breaks(s.kind, s.weight) for s in found):
        return risk
    return min(risk, MEDIUM - 1)


def file_risk(hunk_risks: Iterable[int], signals: Iterable[Signal]) -> int:
    """The riskiest hunk, or the file's own signals when they say more."""
    found = list(signals)
    own = spread(FILE_BASELINE + sum(s.weight for s in found)) if found else 0
    return max([own, *hunk_risks])
