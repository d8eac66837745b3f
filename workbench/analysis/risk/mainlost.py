"""The main twin of ``dev-only-lines-dropped``: main's own lines the result lost.

Since sync bots resolve conflicts themselves (favouring dev), the loss runs
the other way too: a hunk resolved with dev's text, or edited by hand,
drops lines main wrote since the base.  They are weighed exactly like lost
dev lines (contested or collateral, more lines weigh more), and the
evidence that would make the loss intentional is looked for the same way:
a dev commit that deleted the base lines main had edited
(``dev-removed-intentionally``, the mirror of ``main-removed-intentionally``),
or a keep-dev policy on the file (dev's version is the rule there).
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import Hunk, Signal, SignalKind
from workbench.analysis.risk.drops import (
    COLLATERAL_WEIGHT,
    CONTESTED_WEIGHT,
    DATA_WEIGHT,
    MAX_LINES_BONUS,
    PER_LINE,
    REMOVAL_WORDS,
    REMOVED_WEIGHT,
    collateral,
    comment_only,
)
from workbench.analysis.risk.evidence import FileEvidence, labels
from workbench.analysis.risk.line_compare import content_lines, norm, shorten
from workbench.analysis.risk.lost import window
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.xdiff import MergeResult

KEEP_DEV_WEIGHT = kind_weight(SignalKind.POLICY_KEEPS_DEV)


def main_only(hunk: Hunk, merge: MergeResult, lost: Sequence[int]) -> list[int]:
    """The lost main lines (0-based) dev's file does not have near the hunk: main's alone."""
    dev_near = window(merge.ours, hunk.dev, norm)
    return [n for n in lost if norm(merge.theirs[n]) not in dev_near]


def main_only_lines_dropped(
    hunk: Hunk, lines: Sequence[int], writers: Sequence[str], merge: MergeResult, ev: FileEvidence, data: bool
) -> Signal | None:
    """The result lacks lines main wrote here; weighed like the dev lines ``dev-only-lines-dropped`` counts."""
    if not lines:
        return None
    commits = [ev.commit(sha) for sha in writers]
    source = f" (from main's {labels(commits)})" if commits else ""
    count = len(lines)
    what, verb = (f"{count} line", "is") if count == 1 else (f"{count} lines", "are")
    code = [] if data else [n for n in lines if not comment_only(merge.theirs[n], hunk.base_text)]
    if not code:
        return Signal(
            SignalKind.MAIN_ONLY_LINES_DROPPED,
            f"{what} of values or comments main wrote here{source} {verb} not in the result, "
            f"e.g. \u201c{shorten(merge.theirs[lines[0]])}\u201d",
            tuple(writers),
            DATA_WEIGHT,
        )
    beside = any(collateral(merge.theirs_script, merge.ours_script, n) for n in code)
    weight = (COLLATERAL_WEIGHT if beside else CONTESTED_WEIGHT) + min(MAX_LINES_BONUS, PER_LINE * (len(code) - 1))
    how = "beside dev's change" if beside else "where dev changed the same lines"
    return Signal(
        SignalKind.MAIN_ONLY_LINES_DROPPED,
        f"{what} main wrote here{source}, {how}, {verb} not in the result, "
        f"e.g. \u201c{shorten(merge.theirs[code[0]])}\u201d",
        tuple(writers),
        weight,
    )


def dev_removed_intentionally(hunk: Hunk, ev: FileEvidence) -> Signal | None:
    """Dev deleted the base lines main had edited here; the deleting dev commit is the evidence.

    As for main's deletions, intent needs a commit that says it removes or
    restructures code; otherwise the commit is named with weight 0.
    """
    base = content_lines(hunk.base_text)
    if not base or len(content_lines(hunk.dev_text)) * 4 > len(base):
        return None  # dev rewrote these lines rather than deleting them
    deleters = ev.deleters("dev", hunk)
    if not deleters:
        return None
    commits = [ev.commit(sha) for sha in deleters]
    subject = shorten(commits[0].subject, 70)
    if not any(REMOVAL_WORDS.search(c.subject) for c in commits):
        return Signal(
            SignalKind.DEV_REMOVED_INTENTIONALLY,
            f"dev's {labels(commits)} deleted this code while doing something else (\u201c{subject}\u201d): "
            "no sign it meant to drop main's edits",
            tuple(deleters),
            0,
        )
    return Signal(
        SignalKind.DEV_REMOVED_INTENTIONALLY,
        f"dev's {labels(commits)} deleted this code on purpose (\u201c{subject}\u201d); main's edits to it go with it",
        tuple(deleters),
        REMOVED_WEIGHT,
    )


def keep_dev_policy(kept: bool) -> Signal | None:
    """The sync policy keeps dev's version of this file (``kept``): losing main's lines here is the rule."""
    if not kept:
        return None
    return Signal(
        SignalKind.POLICY_KEEPS_DEV,
        "the sync policy keeps dev's version of this file; main's lines here still need a decision "
        "(carry them over, or leave them out with a reason)",
        (),
        KEEP_DEV_WEIGHT,
    )
