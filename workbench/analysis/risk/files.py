"""Signals for files without hunks: one side deleted the file, or both changed a binary.

A modify/delete conflict has no lines to compare: one side changed the
file, the other removed it.  What decides the risk is which way the result
went and whether the code in the result still imports the file.  Main
deleting a file dev changed loses dev's change; harmless when main removed
dead code, fatal when the result still imports it.  Dev deleting a file
main changed is usually deliberate; the bot's "favour main" brings main's
copy back, which somebody should delete again unless the result imports it.
A binary changed on both sides cannot be merged at all: ``-X theirs`` took
main's version, and only a person comparing the two can say if that is right,
unless one side's history already holds the other's version.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.model import Commit, ConflictKind, DeletedFile, FileAnalysis, FileStatus, Importer, Mode, Signal, SignalKind, Whose
from workbench.analysis.risk.chain import MAIN_AHEAD_WEIGHT, OLDER_DEV_STATE_WEIGHT
from workbench.analysis.risk.evidence import FileEvidence, SideFile, label, labels
from workbench.analysis.risk.line_compare import shorten
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.risk.type_conflict import type_conflict

IMPORTED_WEIGHT = kind_weight(SignalKind.MAIN_DELETED_FILE)
"""Main deleted a file dev changed, and the result still imports it: it fails at import time."""
MAIN_DELETED_WEIGHT = 10
"""Main deleted a file dev changed, and nothing imports it: dev's change goes with dead code."""
DEV_DELETED_WEIGHT = kind_weight(SignalKind.DEV_DELETED_FILE)
"""Dev deleted a file main changed, the result leaves it deleted, and nothing imports it: dev's decision stands.
(When something does, the deleted-files audit's ``deleted-imported`` signal weighs it.)"""
RESURRECTED_WEIGHT = 15
"""Dev deleted a file, the result has main's copy again, and nothing imports it."""
BINARY_WEIGHT = kind_weight(SignalKind.BINARY_CHANGED_BOTH)
"""Both sides changed a binary and the result has main's version: compare the two."""

SHOWN_COMMITS = 3
"""Commits named in a sentence; the rest are counted."""

Importers = tuple[Importer, ...] | None
"""Lines of the result that import the file; None when there was no repository reader to search it."""


def file_signals(
    entry: FileAnalysis, ev: FileEvidence, mode: Mode, importers: Importers, audited: DeletedFile | None = None
) -> list[Signal]:
    """This package's signals for a file that has no hunks.

    ``audited``: the deleted-files audit's finding when the result lacks a
    file main has; its verdict and importers are not repeated here.
    """
    if entry.hunks:
        return []
    state = _state(entry, mode)
    conflict = type_conflict(entry, state)
    if conflict is not None:
        return [conflict]
    if entry.kind is ConflictKind.BINARY and entry.dev.present and entry.main.present:
        return _binary(entry, ev, state)
    if not entry.base.present:
        return []
    if entry.dev.present and not entry.main.present:
        return [_main_deleted(ev, state, importers)]
    if entry.main.present and not entry.dev.present:
        return [_dev_deleted(ev, state, importers, audited)]
    return []


def _state(entry: FileAnalysis, mode: Mode) -> str:
    """What the result holds: ``pending`` (nobody chose yet), ``absent``, ``main``, ``dev`` or ``other``.

    A preview is ``-X theirs`` itself: it takes main's binary, and stops on
    a modify/delete conflict.
    """
    if entry.status is FileStatus.CONFLICTED:
        return "pending"
    if mode is Mode.PREVIEW:
        return "main" if entry.kind is ConflictKind.BINARY and entry.result_present else "pending"
    if not entry.result_present:
        return "absent"
    if entry.result_oid == entry.main.oid:
        return "main"
    return "dev" if entry.result_oid == entry.dev.oid else "other"


def _deleter(side: SideFile) -> str | None:
    """The newest commit on the side that removed the file."""
    return next((v.commit for v in side.versions if v.blob is None and v.parent_blob is not None), None)


def _some(commits: Sequence[Commit]) -> str:
    """``#1, #2 and #3``, or ``#1, #2, #3 and 4 more commits``."""
    if len(commits) <= SHOWN_COMMITS:
        return labels(commits)
    return f"{', '.join(label(c) for c in commits[:SHOWN_COMMITS])} and {len(commits) - SHOWN_COMMITS} more commits"


def _who(side: Whose, deleter: Commit | None) -> str:
    if deleter is None:
        return f"{side} deleted this file"
    return f"{side}'s {label(deleter)} deleted this file (\u201c{shorten(deleter.subject, 70)}\u201d)"


def _changed(side: Whose, commits: Sequence[Commit]) -> str:
    return f"{side}'s {_some(commits)} changed it since the base" if commits else f"{side} changed it since the base"


def _main_deleted(ev: FileEvidence, state: str, importers: Importers) -> Signal:
    deleter = _deleter(ev.main)
    dev = ev.dev_commits()
    head = f"{_who('main', ev.commit(deleter) if deleter else None)}; {_changed('dev', dev)}"
    if state in ("absent", "pending"):
        head += (
            ", and the result lacks it"
            if state == "absent"
            else "; the file is still conflicted, and taking main's side deletes it"
        )
        if importers:
            tail, weight = f"; the result still imports it ({describe(importers)})", IMPORTED_WEIGHT
        else:
            tail, weight = ("" if importers is None else "; nothing in the result imports it"), MAIN_DELETED_WEIGHT
    else:
        head += ", and the result keeps " + ("dev's version" if state == "dev" else "a copy")
        tail, weight = _users(importers), 0
    commits = ((deleter,) if deleter else ()) + tuple(c.sha for c in dev)
    return Signal(SignalKind.MAIN_DELETED_FILE, head + tail, commits, weight)


def _dev_deleted(ev: FileEvidence, state: str, importers: Importers, audited: DeletedFile | None) -> Signal:
    deleter = audited.deleted_by.sha if audited is not None and audited.deleted_by else _deleter(ev.dev)
    main = ev.file.history.main
    head = f"{_who('dev', ev.commit(deleter) if deleter else None)}; {_changed('main', main)}"
    if state == "absent":  # whether anything imports it is the deleted-files audit's finding
        head += ", and the result leaves it deleted"
        tail, weight = "", 0 if importers else DEV_DELETED_WEIGHT
    else:
        if state == "pending":
            head += "; the file is still conflicted, and taking main's side brings main's copy back"
        else:
            head += ", and the result has " + ("main's copy" if state == "main" else "the file") + " again"
        tail, weight = _users(importers), (0 if importers else RESURRECTED_WEIGHT)
    commits = ((deleter,) if deleter else ()) + tuple(c.sha for c in main)
    return Signal(SignalKind.DEV_DELETED_FILE, head + tail, commits, weight)


def describe(importers: Sequence[Importer], limit: int = 3) -> str:
    """``a.py:3, b.py:7 and 2 more``."""
    shown = ", ".join(f"{i.path}:{i.line}" for i in importers[:limit])
    extra = len(importers) - limit
    return shown + (f" and {extra} more" if extra > 0 else "")


def _users(importers: Importers) -> str:
    if importers is None:
        return ""
    if not importers:
        return "; nothing in the result imports it"
    return f"; {describe(importers)} import{'s' if len(importers) == 1 else ''} it"


def _binary(entry: FileAnalysis, ev: FileEvidence, state: str) -> list[Signal]:
    dev, main = entry.history.dev, entry.history.main
    head = f"both sides changed this binary file (dev's {_some(dev)}, main's {_some(main)})"
    where = {
        "pending": ("; it is still conflicted: compare the two versions", BINARY_WEIGHT),
        "main": (" and the result has main's version: compare the two versions", BINARY_WEIGHT),
        "dev": (" and the result has dev's version", 0),
        "other": (" and the result has neither version", 0),
        "absent": (" and the result lacks it", 0),
    }
    tail, weight = where[state]
    found = [Signal(SignalKind.BINARY_CHANGED_BOTH, head + tail, tuple(c.sha for c in (*dev, *main)), weight)]
    if state in ("pending", "main"):
        found.extend(s for s in (_binary_older_dev_state(entry, ev), _binary_main_ahead(entry, ev)) if s is not None)
    return found


def _binary_older_dev_state(entry: FileAnalysis, ev: FileEvidence) -> Signal | None:
    """Main's version is one dev had, and dev changed the file afterwards."""
    for at, version in enumerate(ev.dev.versions):
        if version.blob == entry.main.oid:
            later = [ev.commit(v.commit) for v in ev.dev.versions[:at]]
            if not later:
                return None
            return Signal(
                SignalKind.OLDER_DEV_STATE,
                f"main's version is this file as dev's {label(ev.commit(version.commit))} left it; "
                f"dev's {_some(later[::-1])} changed it afterwards, and main's version undoes that",
                (*(c.sha for c in later), version.commit),
                OLDER_DEV_STATE_WEIGHT,
            )
    return None


def _binary_main_ahead(entry: FileAnalysis, ev: FileEvidence) -> Signal | None:
    """Main once had dev's version and changed it afterwards."""
    for at, version in enumerate(ev.main.versions):
        if version.blob == entry.dev.oid and at > 0:
            newer = ev.commit(ev.main.versions[at - 1].commit)
            return Signal(
                SignalKind.MAIN_AHEAD,
                f"main already had dev's version, and main's {label(newer)} changed it afterwards: "
                "main's version is the newer one",
                (newer.sha,),
                MAIN_AHEAD_WEIGHT,
            )
    return None
