"""From a snapshot of the repository to the SyncAnalysis every front end shows.

Per conflicted path: decide the conflict kind, rebuild git's merge from the
stage blobs (and check it re-renders git's own conflicted blob byte for
byte), find what the result holds in each hunk, and name the commits on
each side that touched the file and each hunk's lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from workbench.analysis.beyond import changed_file, changed_paths, moved_paths, with_edits_beyond
from workbench.analysis.blame import LineChanges, LineMapper, attribute_hunks, touching_commits
from workbench.analysis.conflict_map import Located, in_default_style
from workbench.analysis.conflict_text import DEFAULT_MARKER_SIZE, marker_sizes, parse_conflicts
from workbench.analysis.file_versions import file_analysis
from workbench.analysis.forked import Runner
from workbench.analysis.hunks import build_hunks
from workbench.analysis.memo import Fingerprint, UnitMemo, digest, run_memoized
from workbench.analysis.model import (
    ConflictKind,
    FileAnalysis,
    FileHistory,
    FileStatus,
    Mode,
    Side,
    Signal,
    SignalKind,
    SyncAnalysis,
    Whose,
)
from workbench.analysis.pipeline import IN_PROCESS, run_stages
from workbench.analysis.policy.rules import Policy
from workbench.analysis.readers import HeldBlobs, RepoFiles
from workbench.analysis.resolver import resolver_of, with_later
from workbench.analysis.seam import AnalysisContext, AnyStage
from workbench.analysis.stages import DEFAULT_STAGES
from workbench.analysis.xdiff import (
    Algorithm,
    Favor,
    MergeLevel,
    MergeResult,
    coalesce_alnum,
    merge_lines,
    split_lines,
)
from workbench.git.content import is_binary
from workbench.git.types import (
    BLOB_MODES,
    CommitLookup,
    ConflictEntry,
    FileMode,
    ReadBlob,
    ResultFile,
    StageEntry,
    SyncSnapshot,
)

Progress = Callable[[str, int, int], None]
"""Hears (phase, done, total) while the analysis runs."""


def analyze(
    snapshot: SyncSnapshot,
    read_blob: ReadBlob,
    commit: CommitLookup,
    line_changes: LineChanges,
    *,
    policy: Policy | None = None,
    repo_files: RepoFiles | None = None,
    stages: Sequence[AnyStage] = DEFAULT_STAGES,
    progress: Progress | None = None,
    memo: UnitMemo | None = None,
) -> SyncAnalysis:
    """Analyse every path the plain merge of dev and main conflicts on.

    ``read_blob``, ``commit`` and ``line_changes`` read the repository (blobs
    and commits never change, so the analysis stays a pure function of them).
    The enrichment ``stages`` (policy, API audit, risk) then run in order, on
    ``policy`` and the whole-tree reads of ``repo_files`` when given.  The
    files' work, and the stages' when there is a whole-tree reader, is shared
    with a forked child when it pays (``Runner``).
    ``progress(phase, done, total)`` hears how far it got ("files", then each
    stage's name), for a front end's progress indicator.  ``memo``: the
    answers of earlier analyses' units, reused where a unit's inputs are the
    same (``memo.py``), and added to.  A snapshot
    restricted to some paths (``load_sync(paths=...)``) keeps the stages to
    those paths too.
    """
    report = progress or (lambda _phase, _done, _total: None)
    mapper = LineMapper(line_changes)
    files, fingerprints = _analyze_files(snapshot, read_blob, commit, mapper, report, memo)
    listed = with_later(tuple(files), snapshot)
    if memo is not None:  # a file's facts are a function of its engine unit's inputs (and the scope's ``later``)
        for entry, fingerprint in zip(listed, fingerprints, strict=True):
            memo.known(entry, digest(fingerprint, entry.later))
    base = replace(_sync_analysis(snapshot, listed), resolver=resolver_of(listed, snapshot, read_blob))
    held = HeldBlobs(listed)
    context = AnalysisContext(snapshot, held.over(read_blob), commit, line_changes, mapper, policy, repo_files,
                              snapshot.paths, held, memo)
    runner = Runner.for_files(len(listed)) if repo_files is not None else IN_PROCESS
    return run_stages(base, context, stages, runner, report)


def _analyze_files(
    snapshot: SyncSnapshot, read_blob: ReadBlob, commit: CommitLookup, mapper: LineMapper, report: Progress,
    memo: UnitMemo | None = None,
) -> tuple[list[FileAnalysis], list[Fingerprint]]:
    """Every conflicted file's analysis with its edits beyond git's merge, then every other path the
    result changed, in order: shared with a forked child when a second core pays; and their fingerprints
    in ``memo`` (none without one).

    The child's blame alignments come back with its files, so the stages'
    blame (risk) finds them in ``mapper`` as if this process had made them.
    """
    entries = snapshot.merge_tree.conflicts
    moved = moved_paths(snapshot)
    changed = changed_paths(moved, {entry.path for entry in entries}, snapshot)
    count = len(entries) + len(changed)

    def one(k: int) -> FileAnalysis:
        if k >= len(entries):
            return changed_file(changed[k - len(entries)], snapshot, read_blob, commit, mapper)
        entry, located = _analyze_file(entries[k], snapshot, read_blob, commit, mapper)
        return with_edits_beyond(entry, moved.get(entry.path), snapshot, read_blob, mapper, located)

    paths = [entry.path for entry in entries] + [found.path for found in changed]
    fingerprints = [] if memo is None else [  # a file reads its own result; the rest is the scope's
        *(memo.unit("engine", entry, snapshot.results.get(entry.path)) for entry in entries),
        *(memo.unit("engine-changed", found) for found in changed),
    ]
    files, alignments = run_memoized(
        Runner.for_files(count), count, one, fingerprints, memo, cost=lambda k: _cost(paths[k], snapshot),
        child_state=mapper.alignments, progress=lambda done: report("files", done, count),
    )
    mapper.learn(alignments or {})
    return files, fingerprints


def _cost(path: str, snapshot: SyncSnapshot) -> int:
    """A guess at a file's share of the engine's work from what the snapshot holds (nothing read).

    Blame walks each version of the file on both sides, and the merge and
    the blame diffs grow with its change: versions times the runs of git's
    scripts.  On Megatron-LM #4291 it ranks files by their measured time
    well enough (correlation 0.86) for the largest to be claimed first, so
    neither process is left with a large file at the end.
    """
    versions = len(set(snapshot.dev_history.blobs.get(path, {}).values()))
    versions += len(set(snapshot.main_history.blobs.get(path, {}).values()))
    scripts = snapshot.line_scripts.get(path)
    return (versions + 1) * (1 + (len(scripts[0]) + len(scripts[1]) if scripts is not None else 0))


def outline(snapshot: SyncSnapshot, read_blob: ReadBlob) -> SyncAnalysis:
    """The paths, kinds and index state at once, before any hunk is computed.

    Good enough for a file list to appear while the rest loads; statuses of
    content conflicts are provisional (``complete`` is False).
    """
    files = []
    for entry in snapshot.merge_tree.conflicts:
        kind = conflict_kind(entry, read_blob)
        result = _result_for(snapshot, entry.path, None)
        base, dev, main = _side(entry.base, entry.path), _side(entry.ours, entry.path), _side(entry.theirs, entry.path)
        status = _status(kind, result, None, main)
        files.append(file_analysis(entry.path, kind, status, (base, dev, main), replace(result, data=None),
                                   messages=tuple(m.text for m in entry.messages), asides=entry.asides,
                                   directory=_whose(entry.directory)))
    return replace(_sync_analysis(snapshot, tuple(files)), complete=False)


def _sync_analysis(snapshot: SyncSnapshot, files: tuple[FileAnalysis, ...]) -> SyncAnalysis:
    return SyncAnalysis(
        mode=Mode(snapshot.mode),
        dev=snapshot.dev,
        main=snapshot.main,
        base=snapshot.base,
        merge=snapshot.merge,
        files=files,
        main_commits=snapshot.main_count,
        dev_commits=snapshot.dev_count,
        git_version=".".join(str(n) for n in snapshot.git_version),
        repo_path=snapshot.repo_path,
        result_commit=snapshot.result_commit,
    )


def conflict_kind(entry: ConflictEntry, read_blob: ReadBlob) -> ConflictKind:
    """Classify a conflicted path from its stages and git's messages."""
    stages = [s for s in (entry.base, entry.ours, entry.theirs) if s is not None]
    modes = {s.mode for s in stages}
    kinds = " ".join(m.kind for m in entry.messages)
    if FileMode.GITLINK in modes:
        return ConflictKind.SUBMODULE
    if FileMode.SYMLINK in modes:
        return ConflictKind.SYMLINK
    if entry.base is not None and (entry.ours is None) != (entry.theirs is None):
        return ConflictKind.MODIFY_DELETE
    if entry.ours is None or entry.theirs is None:
        return ConflictKind.RENAME if "rename" in kinds else ConflictKind.MODIFY_DELETE
    if "binary" in kinds or any(is_binary(read_blob(s.oid)) for s in stages):
        return ConflictKind.BINARY
    if entry.base is None:
        return ConflictKind.ADD_ADD
    if "rename" in kinds:
        return ConflictKind.RENAME
    if "distinct modes" in kinds or "file/directory" in kinds:
        return ConflictKind.MODE
    return ConflictKind.CONTENT


def _side(stage: StageEntry | None, path: str) -> Side:
    if stage is None:
        return Side(path, None, None)
    return Side(stage.path, stage.oid, stage.mode)


def _analyze_file(
    entry: ConflictEntry,
    snapshot: SyncSnapshot,
    read_blob: ReadBlob,
    commit: CommitLookup,
    mapper: LineMapper,
) -> tuple[FileAnalysis, Located | None]:
    """The file's analysis, and git's conflict blocks found in its result (a file a merge in progress left
    conflicted), read once for its hunks, its warnings and its edits beyond git's merge."""
    kind = conflict_kind(entry, read_blob)
    base, dev, main = _side(entry.base, entry.path), _side(entry.ours, entry.path), _side(entry.theirs, entry.path)
    merge: MergeResult | None = None
    exact: bool | None = None
    theirs_bytes: bytes | None = None
    if kind in (ConflictKind.CONTENT, ConflictKind.ADD_ADD, ConflictKind.RENAME) and dev.present and main.present:
        zealous = merge_lines(
            split_lines(read_blob(base.oid)) if base.oid else [],
            split_lines(read_blob(dev.oid or "")),
            split_lines(read_blob(main.oid or "")),
            Algorithm.HISTOGRAM,
            MergeLevel.ZEALOUS,
            rediff_shifted=snapshot.rediff_shifted,
            scripts=snapshot.line_scripts.get(entry.path),
        )
        exact = _matches_git(zealous, entry, read_blob)
        merge = coalesce_alnum(zealous).packed()  # kept until the last stage, and by the app and the cache
        theirs_bytes = merge.render(Favor.THEIRS)  # rendered again when read (``file_analysis``)
    elif kind is ConflictKind.BINARY and main.oid is not None:
        theirs_bytes = read_blob(main.oid)

    result = _result_for(snapshot, entry.path, theirs_bytes)
    located = None
    worktree = None
    if merge is not None and result.unmerged and result.data is not None:
        drawn, located = in_default_style(result.data, merge)  # the same analysis whatever conflictStyle drew it
        worktree = result.data if drawn is not result.data else None
        result = replace(result, data=drawn)
    hunks = build_hunks(merge, result.data if result.present else None, result.unmerged, located) if merge else ()
    hunks = attribute_hunks(hunks, merge, snapshot, dev, main, mapper)
    history = FileHistory(
        dev=tuple(commit(sha) for sha in touching_commits(snapshot.dev_history, dev.path)),
        main=tuple(commit(sha) for sha in touching_commits(snapshot.main_history, main.path)),
    )
    return file_analysis(
        entry.path, kind, _status(kind, result, theirs_bytes, main), (base, dev, main), result,
        history=history, merge=merge, theirs=theirs_bytes, hunks=hunks, messages=tuple(m.text for m in entry.messages),
        signals=_warnings(exact, located) + _mode_conflict(dev, main, base), exact=exact,
        asides=entry.asides, directory=_whose(entry.directory), worktree_conflicts=worktree,
    ), located


def _whose(side: str | None) -> Whose | None:
    return "dev" if side == "dev" else "main" if side == "main" else None


def _matches_git(merge: MergeResult, entry: ConflictEntry, read_blob: ReadBlob) -> bool | None:
    """Does our model re-render the blob git wrote (markers of its size, labels and all) exactly?"""
    if entry.merged_oid is None:
        return None
    expected = read_blob(entry.merged_oid)
    for size in marker_sizes(expected) or [DEFAULT_MARKER_SIZE]:
        text = parse_conflicts(expected, size)
        labels = text.labels if text is not None else (None, None, None)
        if merge.render(Favor.NONE, labels, size) == expected:
            return True
    return False


EXACT_WARNING = ("the hunks shown do not re-create the conflicted text git wrote for this file (exact: false): "
                 "check them against the file before deciding")


def _warnings(exact: bool | None, located: Located | None) -> tuple[Signal, ...]:
    """File-wide warnings: the model does not match git's merge, or the conflict text in the work tree."""
    found: list[str] = []
    if exact is False:
        found.append(EXACT_WARNING)
    if located is not None and located.problem is not None:
        found.append(f"the conflict text in the work tree does not match the hunks ({located.problem}): "
                     "only a whole-file choice (M/D) can be written, from git's own conflict blocks")
    return tuple(Signal(SignalKind.MODEL_MISMATCH, text) for text in found)


def _mode_conflict(dev: Side, main: Side, base: Side) -> tuple[Signal, ...]:
    """Both sides set a mode of their own (``run.sh`` added executable on dev, not on main): git keeps the
    path conflicted whatever the content, and the mode written is the side taken (``resolve/write_modes.py``)."""
    if dev.mode not in BLOB_MODES or main.mode not in BLOB_MODES or dev.mode == main.mode or base.mode in (dev.mode, main.mode):
        return ()
    words = {FileMode.EXECUTABLE: "executable", FileMode.REGULAR: "not executable"}
    return (Signal(SignalKind.MODE_CONFLICT,
                   f"dev's file is {words[FileMode(dev.mode)]} ({dev.mode:o}) and main's is "
                   f"{words[FileMode(main.mode)]} ({main.mode:o}): git cannot merge the modes; taking one side "
                   "in every hunk (or the whole file) writes its mode, any other choice keeps the work tree's"),)


def _result_for(snapshot: SyncSnapshot, path: str, theirs_bytes: bytes | None) -> ResultFile:
    if snapshot.mode == Mode.PREVIEW.value:
        return ResultFile(theirs_bytes is not None, theirs_bytes, None)
    return snapshot.results.get(path, ResultFile(False, None, None))


def _status(kind: ConflictKind, result: ResultFile, theirs_bytes: bytes | None, main: Side) -> FileStatus:
    if result.unmerged:
        return FileStatus.CONFLICTED
    if kind is ConflictKind.MODIFY_DELETE or (kind is ConflictKind.RENAME and not (main.present and result.present)):
        return FileStatus.MODIFY_DELETE
    if kind is ConflictKind.ADD_ADD:
        return FileStatus.ADD_ADD
    if kind is ConflictKind.BINARY:
        return FileStatus.BINARY
    if theirs_bytes is not None:
        same = result.present and result.data == theirs_bytes
    else:
        same = result.present and result.oid == main.oid
    return FileStatus.THEIRS_RESOLVED if same else FileStatus.HAND_RESOLVED
