"""Who decided the sync's conflicts: ``-X theirs`` alone, or a resolution (the bot's, a person's).

Since Megatron-LM's sync bot resolves conflicts itself, a merge commit whose
result holds main's text in a hunk was not necessarily ``-X theirs``: the
words the analysis and the report use must follow what happened.  A sync
counts as a pure ``-X theirs`` merge when every content conflict of the
sync merge itself holds exactly what ``-X theirs`` writes and the merge
changed nothing git merged cleanly (a preview is ``-X theirs`` by definition).
Commits after the merge (``--result``) are told apart per file (``later``).
"""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.model import FileAnalysis, Mode, Resolver
from workbench.git.types import ReadBlob, SyncSnapshot


def resolver_of(files: tuple[FileAnalysis, ...], snapshot: SyncSnapshot, read_blob: ReadBlob) -> Resolver:
    """``-X theirs`` when the sync merge is exactly what it writes, else the resolution."""
    if snapshot.mode == Mode.PREVIEW.value:
        return Resolver.THEIRS
    diff = snapshot.resolution
    if diff is not None and diff.merge_beyond:
        return Resolver.RESOLUTION
    at_merge = diff.at_merge if diff is not None else {}
    for entry in files:
        if entry.merge is None or entry.theirs_bytes is None or entry.status.beyond_merge:
            continue
        if entry.path in at_merge:
            oid = at_merge[entry.path]
            if oid is None or read_blob(oid) != entry.theirs_bytes:
                return Resolver.RESOLUTION
        elif entry.result_bytes != entry.theirs_bytes or entry.edits:
            return Resolver.RESOLUTION
    return Resolver.THEIRS


def with_later(files: tuple[FileAnalysis, ...], snapshot: SyncSnapshot) -> tuple[FileAnalysis, ...]:
    """Mark the files a commit after the sync merge changed (the result is not the merge's file)."""
    diff = snapshot.resolution
    if diff is None or not diff.at_merge:
        return files
    return tuple(
        replace(f, later=True) if f.path in diff.at_merge and diff.at_merge[f.path] != f.result_oid else f
        for f in files
    )
