"""What a file becomes under a set of decisions: the bytes to write, or the side's blob to copy.

Pure functions of one file's analysis and its decisions, kept apart from the
session's bookkeeping (undo, journal replay, what is written) so the one
question "what would writing this put on disk" has one answer.
"""

from __future__ import annotations

from workbench.analysis.conflict_map import Located, locate
from workbench.analysis.model import FileAnalysis, FileStatus
from workbench.git.types import ReadBlob
from workbench.resolve.events import FileChoice, chosen_oid
from workbench.resolve.splice import Decision, edit_replacements, splice_conflicted, splice_merge, splice_result

FileState = tuple[FileChoice | None, tuple[Decision | None, ...]]
"""A file's decisions: its whole-file choice and each hunk's decision (conflict hunks, then edit hunks)."""


class ContentError(ValueError):
    """The decisions cannot be put together into one file (overlapping hunks, a deleted result)."""


def spliced(entry: FileAnalysis, decisions: list[Decision | None], located: Located | None = None) -> bytes:
    """The file ``decisions`` (conflict hunks', then edit hunks') make of the result (``located``: git's blocks
    found in it, ``conflict_blocks``)."""
    assert entry.merge is not None
    conflicts, edits = decisions[: len(entry.hunks)], decisions[len(entry.hunks) :]
    try:
        extra = edit_replacements(entry.edits, edits)
        if not entry.result_present or entry.result_bytes is None:
            if not extra:
                return splice_merge(entry.merge, conflicts)
            if entry.hunks:
                raise ValueError("the result deleted the file: decide it whole (m, d or x)")
            return splice_result(b"", (), (), entry.merge, extra)  # git's merge (or a side) written back
        if entry.status is FileStatus.CONFLICTED:
            return splice_conflicted(entry.result_bytes, entry.hunks, conflicts, entry.merge, extra, located)
        return splice_result(entry.result_bytes, entry.hunks, conflicts, entry.merge, extra)
    except ValueError as exc:
        raise ContentError(f"{entry.path}: {exc}") from exc


def whole_file(entry: FileAnalysis, choice: FileChoice, read_blob: ReadBlob | None) -> bytes | None:
    """The side's file a whole-file choice copies (None: the choice deletes it)."""
    oid = chosen_oid(entry, choice)
    if oid is None:
        return None
    if read_blob is None:
        raise ContentError("this session cannot read blobs (no reader given)")
    return read_blob(oid)


def conflict_blocks(entry: FileAnalysis) -> Located | None:
    """git's conflict blocks found in a file a merge in progress left conflicted (None: none, or another file)."""
    if entry.status is not FileStatus.CONFLICTED or entry.merge is None or entry.result_bytes is None:
        return None
    return locate(entry.result_bytes, entry.merge)


class FoundBlocks:
    """git's conflict blocks found in each file of a session, once per file: every preview splices into them."""

    def __init__(self) -> None:
        self._analysed: dict[str, Located | None] = {}
        self._shown: dict[str, Located | None] = {}

    def analysed(self, entry: FileAnalysis) -> Located | None:
        """In the text the analysis read (``conflict_blocks``)."""
        if entry.path not in self._analysed:
            self._analysed[entry.path] = conflict_blocks(entry)
        return self._analysed[entry.path]

    def shown(self, entry: FileAnalysis) -> Located | None:
        """In the work tree's own bytes where git drew them in another style than the analysed text's."""
        if entry.worktree_conflicts is None or entry.merge is None:
            return self.analysed(entry)
        if entry.path not in self._shown:
            self._shown[entry.path] = locate(entry.worktree_conflicts, entry.merge)
        return self._shown[entry.path]


def written_content(
    entry: FileAnalysis, state: FileState, located: Located | None = None
) -> tuple[str, bytes | str | None]:
    """What writing ``state`` puts on disk, cheap to compare: a side's blob id for a whole-file choice, else
    the bytes (the blob itself is not read to tell two states apart)."""
    choice, decisions = state
    if choice is not None:
        return "blob", chosen_oid(entry, choice)
    if entry.merge is None:
        return "blob", entry.result_oid if entry.result_present else None
    return "bytes", spliced(entry, list(decisions), located)
