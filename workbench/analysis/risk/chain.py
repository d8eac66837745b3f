"""Squash-chain signals: main carries an older copy of dev's work, or a newer one.

Main receives dev's features as squash commits.  When dev kept changing the
lines after the squashed PR, main's copy is an *older dev state* and
``-X theirs`` puts it back over dev's follow-ups; when main's copy holds
dev's text and more, main's side is the right one.  These checks read the
file's versions along each side (cached blobs, whitespace-blind block
search), never git.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import Hunk, Resolver, Signal, SignalKind, Taken
from workbench.analysis.risk.evidence import FileEvidence, label, labels
from workbench.analysis.risk.line_compare import contains_block, content_lines, weight_of
from workbench.analysis.risk.signals import kind_weight

OLDER_DEV_STATE_WEIGHT = kind_weight(SignalKind.OLDER_DEV_STATE)
SQUASH_COUNTERPART_WEIGHT = kind_weight(SignalKind.SQUASH_COUNTERPART)
MAIN_AHEAD_WEIGHT = kind_weight(SignalKind.MAIN_AHEAD)

_TOOK = {Resolver.THEIRS: "-X theirs took", Resolver.RESOLUTION: "the resolution took"}
_DROPS = {Resolver.THEIRS: "-X theirs drops", Resolver.RESOLUTION: "taking main's text drops"}
"""What took main's text, as the sentences say it: ``-X theirs``, or the resolution that decided instead."""

MIN_BLOCK_WEIGHT = 8
"""Letters and digits a block needs before its recurrence means anything."""
MAX_VERSIONS = 40
"""How far back along dev's versions of a file the older state is looked for."""


def _substantial(lines: Sequence[bytes]) -> bool:
    return weight_of(content_lines(lines)) >= MIN_BLOCK_WEIGHT


def older_dev_state(hunk: Hunk, ev: FileEvidence) -> Signal | None:
    """Main's side is, whitespace-blind, what these lines said at an earlier dev commit.

    Either dev later rewrote that text (it is gone from dev), or dev kept it
    and built on it (dev's side of the hunk still contains it, plus more).
    The dev commits after that state which touch the hunk are what
    ``-X theirs`` discards.
    """
    if not _substantial(hunk.main_text):
        return None
    blobs = ev.blobs
    if blobs.has_block(ev.file.base.oid, hunk.main_text):
        return None
    extended = contains_block(b"".join(hunk.dev_text), hunk.main_text)
    if not extended and blobs.has_block(ev.file.dev.oid, hunk.main_text):
        return None  # dev still has main's text, elsewhere: moved, not superseded
    state = _state_with(hunk, ev, extended)
    if state is None:
        return None
    dropped = ev.dev.newer(hunk.dev_commits, state)
    if not dropped:
        return None
    source = ev.commit(state)
    later = [ev.commit(sha) for sha in dropped]
    verb = "built on them" if extended else "changed them"
    drops = "taking main's side would drop" if hunk.taken is Taken.UNRESOLVED else _DROPS[ev.resolver]
    return Signal(
        SignalKind.OLDER_DEV_STATE,
        f"main's side is these lines as dev's {label(source)} left them; dev's {labels(later)} "
        f"{verb} afterwards, and {drops} {'that work' if len(later) == 1 else 'their work'}",
        (*dropped, state),
        OLDER_DEV_STATE_WEIGHT,
    )


def _state_with(hunk: Hunk, ev: FileEvidence, extended: bool) -> str | None:
    """The dev commit whose version of the file is main's text here.

    Walking dev's versions from the newest: when dev still holds main's text
    (``extended``), the commit that introduced it; otherwise the newest
    version that still had it.
    """
    found: str | None = None
    for version in ev.dev.versions[:MAX_VERSIONS]:
        if ev.blobs.has_block(version.blob, hunk.main_text):
            found = version.commit
            if not extended:
                return found
        elif found is not None or extended:
            return found
    return found


def squash_counterpart(hunk: Hunk, ev: FileEvidence, loses_code: bool) -> Signal | None:
    """The main commit behind the taken text squashes a dev PR: did dev move on after it?

    Dev moved on (follow-up commits touch the hunk): -X theirs drops them.
    It did not, and the result keeps all of dev's code here: main's squash
    is the newer text (``main-ahead``).  It did not, but dev's own version
    of the PR has lines main's squash lacks: the two copies simply differ,
    and the line-loss signal speaks for the hunk.
    """
    for main_sha in ev.main_writers(hunk):
        main = ev.commit(main_sha)
        twin = ev.counterpart(main)
        if twin is None:
            continue
        followups = ev.dev.newer(hunk.dev_commits, twin.sha)
        if followups:
            later = [ev.commit(sha) for sha in followups]
            verb = "is" if len(later) == 1 else "are"
            took, dropped = f"{_TOOK[ev.resolver]} main's text from {label(main)}", f"{verb} dropped"
            if hunk.taken is Taken.UNRESOLVED:
                took = f"main's side here is from {label(main)}"
                dropped = "would be dropped if main's side is taken"
            return Signal(
                SignalKind.SQUASH_COUNTERPART,
                f"{took} (a squash of dev {label(twin)}); "
                f"dev's {labels(later)} changed these lines afterwards and {dropped}",
                (main.sha, twin.sha, *followups),
                SQUASH_COUNTERPART_WEIGHT,
            )
        if loses_code:
            return None
        return Signal(
            SignalKind.MAIN_AHEAD,
            f"main's {label(main)} is a squash of dev {label(twin)}, and dev has not changed "
            "these lines since: main's side is the newer one",
            (main.sha, twin.sha),
            MAIN_AHEAD_WEIGHT,
        )
    return None


def dev_text_in_main_history(hunk: Hunk, ev: FileEvidence) -> Signal | None:
    """Main once held dev's exact text here and a later main commit changed it."""
    if not _substantial(hunk.dev_text):
        return None
    blobs = ev.blobs
    if blobs.has_block(ev.file.base.oid, hunk.dev_text) or blobs.has_block(ev.file.main.oid, hunk.dev_text):
        return None
    for sha in ev.main.oldest_first(ev.main_writers(hunk)):
        if blobs.has_block(ev.main.parent_blob(sha), hunk.dev_text):
            main = ev.commit(sha)
            return Signal(
                SignalKind.MAIN_AHEAD,
                f"main already had dev's text here, and main's {label(main)} changed it afterwards: "
                "main's side is the newer one",
                (sha,),
                MAIN_AHEAD_WEIGHT,
            )
    return None
