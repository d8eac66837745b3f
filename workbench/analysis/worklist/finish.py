"""An item from a gathered group: its level, sentence, commits and PRs, and what deciding it can do."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import Commit, Hunk, HunkKind, Level, SignalKind, SyncAnalysis, Taken, Whose
from workbench.analysis.worklist import why
from workbench.analysis.worklist.causes import LOSS, Cause
from workbench.analysis.worklist.facts import WorklistFacts
from workbench.analysis.worklist.identity import item_id
from workbench.analysis.worklist.items import Claim, Decision, Item, ItemKind, Member

SUPERSEDING = frozenset({SignalKind.SQUASH_COUNTERPART, SignalKind.OLDER_DEV_STATE, SignalKind.MAIN_AHEAD})
REMOVING = frozenset({SignalKind.MAIN_REMOVED_INTENTIONALLY, SignalKind.DEV_REMOVED_INTENTIONALLY})
ALWAYS_HIGH = frozenset({ItemKind.API_BREAK, ItemKind.DUPLICATE_DEFINITION})
"""What breaks the build is high whatever its hunks were rated."""
_FILE_DECISIONS = {
    "keep-dev": (Decision.FILE_DEV, Decision.RESULT, Decision.CUSTOM),
    "override-from-main": (Decision.FILE_MAIN, Decision.RESULT, Decision.CUSTOM),
    "coupled": (Decision.FILE_DEV, Decision.FILE_MAIN, Decision.RESULT),
}


def finish(
    cause: Cause,
    members: Sequence[Member],
    hunks: Sequence[Hunk],
    notes: Sequence[str],
    causes: int,
    known: dict[str, Commit],
    facts: WorklistFacts,
) -> Item:
    """The item a group of members makes (``known``: commit records by sha, from ``commit_index``)."""
    shas = _behind(cause, hunks, facts)
    dev = sum(_n(m, "dev") for m in members)
    main = sum(_n(m, "main") for m in members)
    side: Whose | None = cause.side
    if side is None and (dev or main) and not (dev and main):
        side = "dev" if dev else "main"
    return Item(
        id=item_id(cause.kind.value, cause.key),
        kind=cause.kind,
        level=_level(cause.kind, members),
        why=_why(cause, members, hunks, notes, causes, known, dev, main, facts),
        members=tuple(members),
        commits=shas,
        prs=tuple(dict.fromkeys(c.pr for sha in shas if (c := known.get(sha)) is not None and c.pr is not None)),
        decisions=_decisions(cause, hunks, members),
        claims=_claims(cause, hunks, dev + main),
        side=side,
    )


def _n(member: Member, side: str) -> int:
    ranges = member.lost.dev if side == "dev" else member.lost.main
    return sum(r.count for r in ranges if not r.empty)


def _level(kind: ItemKind, members: Sequence[Member]) -> Level:
    if kind in ALWAYS_HIGH:
        return Level.HIGH
    if kind is ItemKind.FORMATTING:
        return Level.LOW
    return max((m.level for m in members), key=lambda lv: lv.rank, default=Level.LOW)


def commit_index(analysis: SyncAnalysis, facts: WorklistFacts) -> dict[str, Commit]:
    """Every commit record the analysis holds (each file's history on both sides) and the facts add."""
    found: dict[str, Commit] = {}
    for entry in analysis.files:
        for commit in (*entry.history.dev, *entry.history.main):
            found.setdefault(commit.sha, commit)
    for commit in facts.commits:
        found.setdefault(commit.sha, commit)
    return found


def _behind(cause: Cause, hunks: Sequence[Hunk], facts: WorklistFacts) -> tuple[str, ...]:
    """The principal commit, then the writers of the members' lost lines and any squash twins (no sync commit)."""
    out: dict[str, None] = {}
    if cause.commit:
        out[cause.commit] = None
    for hunk in hunks:
        for signal in hunk.signals:
            if signal.kind in LOSS or signal.kind in SUPERSEDING or signal.kind in REMOVING:
                for sha in signal.commits:
                    if sha not in facts.sync_commits:
                        out.setdefault(sha, None)
    return tuple(out)


def _decisions(cause: Cause, hunks: Sequence[Hunk], members: Sequence[Member]) -> tuple[Decision, ...]:
    kind = cause.kind
    if kind is ItemKind.FORMATTING:
        return (Decision.RESULT,)
    if kind is ItemKind.API_BREAK:
        return (Decision.CUSTOM, Decision.RESULT)
    if kind is ItemKind.DUPLICATE_DEFINITION:
        return (Decision.DEV, Decision.MAIN, Decision.CUSTOM)
    if kind is ItemKind.DELETED_FILE:
        return (Decision.FILE_MAIN, Decision.RESULT)
    if kind is ItemKind.POLICY:
        return _FILE_DECISIONS.get(cause.key[0], (Decision.RESULT, Decision.CUSTOM))
    offered: set[Decision] = {Decision.RESULT, Decision.CUSTOM}
    for hunk in hunks:
        if hunk.kind is HunkKind.EDIT or kind is ItemKind.WHOLE_FILE:
            offered.add(Decision.MERGED)
            continue
        dev, main = bool(hunk.lost_lines.dev), bool(hunk.lost_lines.main)
        if hunk.taken is Taken.UNRESOLVED or (dev and main):
            offered |= {Decision.MAIN, Decision.DEV, Decision.BOTH, Decision.BOTH_MAIN_FIRST}
        elif dev:
            offered |= {Decision.DEV, Decision.BOTH}
        elif main:
            offered |= {Decision.MAIN, Decision.BOTH, Decision.BOTH_MAIN_FIRST}
    return tuple(d for d in Decision if d in offered)


def _claims(cause: Cause, hunks: Sequence[Hunk], lost: int) -> tuple[Claim, ...]:
    """What keeping the result could claim: each claim only where the evidence for it is on a member."""
    found: set[Claim] = {Claim.JUDGEMENT}
    if cause.kind is ItemKind.POLICY:
        found.add(Claim.POLICY)
    if not lost and cause.kind not in ALWAYS_HIGH:
        found.add(Claim.RESTORED)
    for hunk in hunks:
        for signal in hunk.signals:
            if signal.kind in REMOVING and signal.weight < 0:
                found.add(Claim.INTENTIONAL_REMOVAL)
            elif signal.kind in SUPERSEDING:
                found.add(Claim.SUPERSEDED)
    return tuple(c for c in Claim if c in found)


def _why(
    cause: Cause,
    members: Sequence[Member],
    hunks: Sequence[Hunk],
    notes: Sequence[str],
    causes: int,
    known: dict[str, Commit],
    dev: int,
    main: int,
    facts: WorklistFacts,
) -> str:
    paths = list(dict.fromkeys(m.path for m in members))
    where = why.places(paths, len(hunks))
    loss = why.lost(dev, main)
    kind, key = cause.kind, cause.key
    if kind is ItemKind.API_BREAK:
        first = notes[0] if notes else "the merged tree cannot satisfy it"
        return why.api_break(key[1], first, where) if len(key) > 1 else why.api_file(key[0], causes, first)
    if kind is ItemKind.DUPLICATE_DEFINITION:
        lines = next((d.lines for d in facts.duplicates if (d.path, d.scope, d.name) == key), ())
        return why.duplicate(key[1], key[2], key[0], lines)
    if kind is ItemKind.DELETED_FILE:
        return why.deleted(key[0], notes[0] if notes else "")
    if kind is ItemKind.POLICY:
        return why.policy(key[0], key[1], loss)
    if kind is ItemKind.FIX_COMMIT:
        return why.fix_commit(cause.commit, known, where, loss)
    if kind is ItemKind.FORMATTING:
        return why.formatting(where)
    if kind is ItemKind.RENAME:
        return why.rename(key[0], key[1], where)
    if kind is ItemKind.COMMIT:
        return why.commit_item(cause.side, cause.commit, key[0] == "squash", known, where, loss)
    if kind is ItemKind.WHOLE_FILE:
        return why.whole_file(key[0], key[1], loss)
    if kind is ItemKind.FILE:
        return why.file_item(key[0], causes, len(hunks), loss)
    return why.hunk(paths[0] if paths else "", loss)
