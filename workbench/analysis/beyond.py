"""Everything the resolution did beyond git's own merge, file by file.

Two kinds of entry come out of here:
* a conflicted file gets ``edits``: regions outside its conflicts where the
  result differs from what git merged there (``edits.py``);
* a path git merged cleanly (or not at all) that the result holds differently
  becomes a file of its own, with a status that says how (``resolution-edited``,
  ``took-dev-file``, ``took-main-file``, ``resolution-added``,
  ``resolution-deleted``) and edit hunks that say where.
The snapshot's ``resolution`` (the git layer's comparison with
``git merge-tree``'s tree) says which paths differ; nothing here reads more
than their blobs.  Each file is its own computation (the engine shares
them out between processes).
"""

from __future__ import annotations

from dataclasses import replace

from workbench.analysis.blame import LineMapper, attribute_hunks, touching_commits
from workbench.analysis.conflict_map import Located, edits_beside, locate
from workbench.analysis.edits import edit_hunks, whole_file_hunk
from workbench.analysis.file_versions import file_analysis
from workbench.analysis.model import ACKS_PATH, Commit, ConflictKind, FileAnalysis, FileHistory, FileStatus, Side
from workbench.analysis.xdiff import Favor, MergeResult, merge_lines, split_lines
from workbench.git.types import BLOB_MODES, CommitLookup, FileMode, ReadBlob, ResolvedPath, SideHistory, SyncSnapshot


def moved_paths(snapshot: SyncSnapshot) -> dict[str, ResolvedPath]:
    """The paths whose result differs from git's merge, by path (the workbench's own acks file aside)."""
    diff = snapshot.resolution
    if diff is None:
        return {}
    return {p.path: p for p in diff.paths if p.path != ACKS_PATH}


def changed_paths(moved: dict[str, ResolvedPath], conflicted: set[str], snapshot: SyncSnapshot) -> list[ResolvedPath]:
    """The paths the result changed that git did not conflict on, in path order (those asked about)."""
    return [
        moved[path] for path in sorted(moved)
        if path not in conflicted and (snapshot.paths is None or path in snapshot.paths)
    ]


def with_edits_beyond(
    entry: FileAnalysis,
    moved: ResolvedPath | None,
    snapshot: SyncSnapshot,
    read_blob: ReadBlob,
    mapper: LineMapper,
    located: Located | None = None,
) -> FileAnalysis:
    """A conflicted file with its edits beyond git's merge (``moved``: the path's entry in ``moved_paths``;
    ``located``: git's conflict blocks found in its result, when a merge in progress left it conflicted)."""
    if snapshot.resolution is None:
        return entry
    if moved is None:
        return _with_edits(entry, snapshot, mapper, located)
    merge, result = _merge_of(moved, read_blob, snapshot.rediff_shifted)
    held = [h.result for h in entry.hunks if h.result is not None]
    edits = edit_hunks(merge, result, None, held, len(entry.hunks))
    return replace(entry, edits=attribute_hunks(edits, merge, snapshot, entry.dev, entry.main, mapper))


def _with_edits(entry: FileAnalysis, snapshot: SyncSnapshot, mapper: LineMapper, located: Located | None) -> FileAnalysis:
    """A conflicted file's regions outside its conflicts that the result changed."""
    if entry.merge is None or not entry.result_present or entry.result_bytes is None:
        return entry
    held = [h.result for h in entry.hunks if h.result is not None]
    if len(held) != len(entry.hunks):
        return entry
    result = snapshot.results.get(entry.path)
    if result is not None and result.unmerged and _git_conflict_text(entry.merge, entry.result_bytes, located):
        return entry
    beside = edits_beside(located, entry.merge, len(entry.hunks)) if located is not None and located.agrees else None
    edits = beside if beside is not None else edit_hunks(entry.merge, entry.result_bytes, None, held, len(entry.hunks))
    if not edits:
        return entry
    return replace(entry, edits=attribute_hunks(edits, entry.merge, snapshot, entry.dev, entry.main, mapper))


def _git_conflict_text(merge: MergeResult, result: bytes, located: Located | None) -> bool:
    """Whether a file still conflicted in the index is git's conflict text, untouched outside its blocks.

    Each block replaced by main's section then gives the file ``-X theirs``
    would make.  A diff3 block holds lines both sides share that the model
    merged cleanly beside its hunk (git does not refine diff3 conflicts): read
    as text, they would look like edits the resolution made around the hunk.
    """
    located = located if located is not None else locate(result, merge)
    return (located is not None and located.agrees
            and list(located.theirs.lines) == split_lines(merge.render(Favor.THEIRS)))


def _merge_of(found: ResolvedPath, read_blob: ReadBlob, rediff_shifted: bool) -> tuple[MergeResult, bytes | None]:
    """git's line merge of the path's three blobs (absent: empty), and the result's bytes."""
    merge = merge_lines(
        _lines(found.base, read_blob),
        _lines(found.dev, read_blob),
        _lines(found.main, read_blob),
        rediff_shifted=rediff_shifted,
        scripts=found.scripts,
    )
    result = found.result
    data = result.data if result.data is not None else (read_blob(result.oid) if result.present and result.oid else None)
    return merge, data if result.present else None


def _lines(oid: str | None, read_blob: ReadBlob) -> list[bytes]:
    return split_lines(read_blob(oid)) if oid is not None else []


def changed_file(
    found: ResolvedPath,
    snapshot: SyncSnapshot,
    read_blob: ReadBlob,
    commit: CommitLookup,
    mapper: LineMapper,
) -> FileAnalysis:
    """A path git merged without conflict (or a newer dev's conflict) that the result changed."""
    merge, result = _merge_of(found, read_blob, snapshot.rediff_shifted)
    merge = merge.packed()  # before the hunks, whose texts are then slices of its pool
    auto = read_blob(found.auto[0]) if found.auto is not None and found.auto[1] in BLOB_MODES else b""
    exact = found.conflicted or merge.render(Favor.NONE) == auto
    script = found.edit_script if exact and not found.conflicted else None
    if exact:
        hunks = edit_hunks(merge, result, script)
    else:
        lines = split_lines(result) if result is not None else []
        merged = None if found.conflicted else tuple(split_lines(auto))
        hunks = () if split_lines(auto) == lines else (whole_file_hunk(merge, lines, 0, merged),)
    base = Side(found.path, found.base, FileMode.REGULAR if found.base else None)
    dev = Side(found.path, found.dev, FileMode.REGULAR if found.dev else None)
    main = Side(found.path, found.main, FileMode.REGULAR if found.main else None)
    messages = () if exact else ("git's merge of this file could not be rebuilt line by line; one hunk covers it",)
    history = FileHistory(
        dev=_touching(snapshot.dev_history, found.path, commit),
        main=_touching(snapshot.main_history, found.path, commit),
    )
    return file_analysis(
        found.path, ConflictKind.NONE, _status(found), (base, dev, main), replace(found.result, data=result),
        history=history, merge=merge, messages=messages, edits=attribute_hunks(hunks, merge, snapshot, dev, main, mapper),
    )


def _touching(history: SideHistory, path: str, commit: CommitLookup) -> tuple[Commit, ...]:
    return tuple(commit(sha) for sha in touching_commits(history, path))


def _status(found: ResolvedPath) -> FileStatus:
    """How the result differs from git's merge, as a whole."""
    result = found.result
    if not result.present:
        return FileStatus.RESOLUTION_DELETED
    if result.oid is not None and result.oid == found.dev and found.dev != found.main:
        return FileStatus.TOOK_DEV_FILE
    if result.oid is not None and result.oid == found.main and found.dev != found.main:
        return FileStatus.TOOK_MAIN_FILE
    if found.auto is None:
        return FileStatus.RESOLUTION_ADDED
    return FileStatus.RESOLUTION_EDITED
