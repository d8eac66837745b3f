"""Items for files without hunks that still need a decision: a conflict the merge in progress left in the index,
or a file rated above low (modify/delete, binary, symlink, submodule, mode), which no hunk can carry."""

from __future__ import annotations

from collections.abc import Iterable

from workbench.analysis.model import FileAnalysis, FileStatus, Level, SyncAnalysis
from workbench.analysis.worklist.identity import item_id
from workbench.analysis.worklist.items import Claim, Decision, Item, ItemKind, Member

_KIND_WORDS = {"modify-delete": "one side modified and the other deleted", "binary": "both sides changed the binary",
               "symlink": "the sides disagree on the symlink", "submodule": "both sides moved the submodule",
               "mode": "the sides disagree on the file mode"}


def whole_file_items(analysis: SyncAnalysis, held: Iterable[str]) -> list[Item]:
    """An item for each file without hunks that needs a decision, unless a path in ``held`` is it."""
    taken = set(held)
    return [_whole_file(entry) for entry in analysis.files
            if not entry.all_hunks and entry.path not in taken and _needs_decision(entry)]


def whole_file_fingerprint(entry: FileAnalysis) -> str:
    """A whole-file member's fingerprint: its kind and both sides' blobs (what the decision record names it by)."""
    return f"{entry.kind.value}:{entry.dev.oid}:{entry.main.oid}"


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
        members=(Member(entry.path, None, level, fingerprint=whole_file_fingerprint(entry)),),
        commits=tuple(dict.fromkeys(s for signal in entry.signals for s in signal.commits)),
        decisions=(Decision.FILE_DEV, Decision.FILE_MAIN, Decision.RESULT),
        claims=(Claim.RESTORED, Claim.JUDGEMENT),
    )
