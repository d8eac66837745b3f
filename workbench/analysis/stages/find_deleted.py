"""Files main has that the result lacks: restore them, or leave them deleted.

The procedure's rule: restore a file if something in the merged tree
imports it; leave it out if dev deleted it on purpose (the deletion commit
is the evidence); otherwise somebody has to look.  Importers are found with
``git grep`` for the module's name, then confirmed from each candidate's
parsed imports, so a comment or a string never counts.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from workbench.analysis.model import Commit, DeletedFile, FileAnalysis, Importer, Signal, SignalKind, SyncAnalysis, Verdict
from workbench.analysis.python.importers import find_importers
from workbench.analysis.readers import RepoFiles, Trees
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.risk.sync_commits import SyncCommits, of_sync
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit
from workbench.git.types import CommitLookup

RESTORE: Final = "restore-file"
LEAVE: Final = "leave-deleted"
CHECK: Final = "check"


MISSING_COST = 64
"""A guess at the search's share of a wave's work (git runs): large, so a process claims it first."""


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> tuple[SyncAnalysis, AnalysisContext]:
    return analysis, context


def _units(given: tuple[SyncAnalysis, AnalysisContext]) -> tuple[Unit[None], ...]:
    """One search (none without a whole-tree reader)."""
    return (Unit(None, MISSING_COST),) if given[1].repo_files is not None else ()


def _find(given: tuple[SyncAnalysis, AnalysisContext], _key: None) -> tuple[DeletedFile, ...]:
    """The files main has and the result lacks, each with a verdict.

    Reads the conflicted files' sides and the trees, never another stage's output.
    """
    analysis, context = given
    files = context.repo_files
    assert files is not None
    entries = {f.path: f for f in analysis.files}
    trees = Trees(files, entries, context.held)
    missing = _missing(files, trees, entries, context.paths)
    users = find_importers([p for p in missing if p.endswith(".py")], trees, [], thorough=True)
    deleting = files.deletions([p for p in missing if _dev_deleted(trees, p)])
    sync = of_sync(context.snapshot, context.policy, context.commit) if deleting else SyncCommits()
    return tuple(
        _deleted(path, trees, deleting.get(path), analysis, context.commit, users.get(path, ()), sync)
        for path in missing
    )


def _fold(
    analysis: SyncAnalysis, found: Sequence[tuple[DeletedFile, ...]], _given: tuple[SyncAnalysis, AnalysisContext]
) -> SyncAnalysis:
    """Fill ``deleted_files``, its conflicted files that the result still imports flagged."""
    if not found:
        return analysis
    (deleted,) = found
    return replace(analysis, deleted_files=deleted, files=tuple(_flag(entry, deleted) for entry in analysis.files))


STAGE = Stage("find_deleted", frozenset(), frozenset({Fact.DELETED_FILES, Fact.SIGNALS}), _prepare, _units, _find, _fold)
"""Files main has that the result lacks: one search of the trees, reading only the engine's facts."""


def _dev_deleted(trees: Trees, path: str) -> bool:
    """The base had the file and dev does not: some dev commit deleted it."""
    return trees.blob_id("base", path) is not None and trees.blob_id("dev", path) is None


def _missing(
    files: RepoFiles, trees: Trees, entries: dict[str, FileAnalysis], only: frozenset[str] | None
) -> list[str]:
    """Paths in main's tree that the result does not have (no rename pairing), among ``only`` if given."""
    paths = {p for p, e in entries.items() if e.main.present and not e.result_present}
    if only is None:
        paths |= {c.path for c in files.changes("main", "result") if c.status == "D"}
    else:
        paths |= {p for p in only if trees.blob_id("main", p) is not None}
    return sorted(p for p in paths if trees.blob_id("main", p) is not None and not trees.present("result", p))


def _deleted(
    path: str, trees: Trees, sha: str | None, analysis: SyncAnalysis, commit: CommitLookup, users: tuple[Importer, ...],
    sync: SyncCommits,
) -> DeletedFile:
    """``path``'s verdict; ``sha``: the dev commit that deleted it, if dev did (a commit of the sync itself, an
    earlier sync's merge or its fixes, is nobody's intent: such a deletion is to ``check``)."""
    in_base = trees.blob_id("base", path) is not None
    dev_present = trees.blob_id("dev", path) is not None
    deleted_by: Commit | None = commit(sha) if sha else None
    restore = f"git checkout {analysis.main} -- {shlex.quote(path)}"
    by = f'{deleted_by.sha[:10]} "{deleted_by.subject}"' if deleted_by else ""
    verdict: Verdict
    if users:
        where = ", ".join(f"{u.path}:{u.line}" for u in users[:3]) + (f" and {len(users) - 3} more" if len(users) > 3 else "")
        verdict = RESTORE
        message = f"the result imports it ({where}) but lacks it: restore it with {restore}"
        if deleted_by:
            message += f" (dev deleted it in {by}; the importers are main's code)"
    elif deleted_by and deleted_by.sha in sync:
        verdict = CHECK
        message = (
            f"the sync itself deleted it ({sync.reasons[deleted_by.sha].value} {by}), not dev; nothing in the result imports it: "
            f"restore with {restore} if it was dropped by mistake"
        )
    elif deleted_by:
        verdict = LEAVE
        message = f"dev deleted it in {by} and nothing in the result imports it: leave it out"
    elif dev_present:
        verdict = CHECK
        message = (
            "dev and main both have it, yet the result does not (nothing imports it): "
            f"restore with {restore} if it was dropped by mistake"
        )
    else:
        verdict = CHECK
        message = f"main added it and the result lacks it (nothing imports it): restore with {restore} if it belongs in dev"
    return DeletedFile(
        path=path,
        main_oid=trees.blob_id("main", path) or "",
        in_base=in_base,
        dev_present=dev_present,
        verdict=verdict,
        message=message,
        importers=users,
        deleted_by=deleted_by,
    )


def _flag(entry: FileAnalysis, found: tuple[DeletedFile, ...]) -> FileAnalysis:
    """A conflicted file the result dropped although it is imported gets a risk signal."""
    hit = next((d for d in found if d.path == entry.path and d.verdict == RESTORE), None)
    if hit is None:
        return entry
    kind = SignalKind.DELETED_IMPORTED
    signal = Signal(kind, hit.message, (hit.deleted_by.sha,) if hit.deleted_by else (), kind_weight(kind))
    return replace(entry, signals=entry.signals + (signal,))
