"""The one place the agent's commands get a sync's worklist from."""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import FileAnalysis, FileStatus, Level, SyncAnalysis
from workbench.analysis.worklist import Claim, Decision, Item, ItemKind, Member, Worklist, WorklistFacts, build_worklist
from workbench.analysis.worklist.identity import item_id

_KIND_WORDS = {"modify-delete": "one side modified and the other deleted", "binary": "both sides changed the binary",
               "symlink": "the sides disagree on the symlink", "submodule": "both sides moved the submodule",
               "mode": "the sides disagree on the file mode"}


def worklist_of(analysis: SyncAnalysis) -> Worklist:
    """The analysis' worklist: the stage's when the analysis carries one, else grouped here without extra facts;
    either way with the files that have no hunks to join an item and still need a whole-file decision."""
    wired = getattr(analysis, "worklist", None)
    worklist = wired if isinstance(wired, Worklist) else build_worklist(analysis, WorklistFacts())
    return with_whole_files(worklist, analysis)


def with_whole_files(worklist: Worklist, analysis: SyncAnalysis) -> Worklist:
    """``worklist`` plus an item for each file without hunks that still needs a decision (a conflict the merge in
    progress left in the index, or a file rated above low: modify/delete, binary, symlink...), unless an item
    already holds it."""
    held = {m.path for item in worklist.items for m in item.members}
    extra = [_whole_file(entry) for entry in analysis.files
             if not entry.all_hunks and entry.path not in held and _needs_decision(entry)]
    if not extra:
        return worklist
    items = sorted((*worklist.items, *extra), key=lambda i: (-i.level.rank, i.kind.rank, -(i.lost_dev + i.lost_main), i.id))
    return replace(worklist, items=tuple(items))


def _needs_decision(entry: FileAnalysis) -> bool:
    return entry.status is FileStatus.CONFLICTED or entry.level.rank > Level.LOW.rank


def _whole_file(entry: FileAnalysis) -> Item:
    level = Level.HIGH if entry.status is FileStatus.CONFLICTED else entry.level
    what = _KIND_WORDS.get(entry.kind.value, "the sides disagree on the whole file")
    state = "still conflicted in the index" if entry.status is FileStatus.CONFLICTED else "resolved"
    why = f"{entry.path}: {what}; {state}. Decide the whole file (file-dev or file-main), or keep the result."
    return Item(
        id=item_id(ItemKind.WHOLE_FILE.value, (entry.status.value, entry.path)),
        kind=ItemKind.WHOLE_FILE,
        level=level,
        why=why,
        members=(Member(entry.path, None, level, fingerprint=f"{entry.kind.value}:{entry.dev.oid}:{entry.main.oid}"),),
        commits=tuple(dict.fromkeys(s for signal in entry.signals for s in signal.commits)),
        decisions=(Decision.FILE_DEV, Decision.FILE_MAIN, Decision.RESULT),
        claims=(Claim.RESTORED, Claim.JUDGEMENT),
    )


def sync_commits_of(analysis: SyncAnalysis) -> frozenset[str]:
    """Commits of the sync itself the analysis recognised (never a side's intent); none until it says."""
    found = getattr(analysis, "sync_commits", None)
    return frozenset(found) if isinstance(found, (frozenset, set, tuple, list)) else frozenset()
