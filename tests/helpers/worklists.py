"""Small analyses built record by record, for the worklist's tests (no repository: the grouping is pure)."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.analysis.kinds import PolicyRule
from workbench.analysis.model import (
    ApiMismatch,
    Commit,
    ConflictKind,
    DeletedFile,
    FileAnalysis,
    FileHistory,
    FileStatus,
    Hunk,
    HunkKind,
    Level,
    LineRange,
    LostLines,
    Mode,
    Side,
    Signal,
    SignalKind,
    SyncAnalysis,
    Taken,
)

DEV_SHA = "d" * 40
MAIN_SHA = "a" * 40


def sha(tag: str) -> str:
    """A 40-hex commit id made from a short tag (``sha("f1")``)."""
    return (tag.encode().hex() * 40)[:40]


def commit(tag: str, subject: str, pr: int | None = None) -> Commit:
    return Commit(sha(tag), subject, "someone", "2026-01-01T00:00:00+00:00", pr)


def hunk(
    index: int,
    *,
    at: int = 10,
    dev: Sequence[str] = ("x = 1",),
    main: Sequence[str] = ("x = 2",),
    result: Sequence[str] | None = None,
    taken: Taken = Taken.MAIN,
    level: Level = Level.HIGH,
    lost_dev: Sequence[tuple[int, int]] = (),
    lost_main: Sequence[tuple[int, int]] = (),
    signals: Sequence[Signal] = (),
    kind: HunkKind = HunkKind.CONFLICT,
) -> Hunk:
    """A hunk at line ``at`` on every side; lost ranges are offsets into each side's text (0-based, inclusive)."""
    res = list(main if result is None else result)
    return Hunk(
        index=index,
        base=LineRange(at, at),
        dev=LineRange(at, at + len(dev) - 1),
        main=LineRange(at, at + len(main) - 1),
        result=LineRange(at, at + len(res) - 1),
        taken=taken,
        base_text=(b"x = 0\n",),
        dev_text=tuple(f"{line}\n".encode() for line in dev),
        main_text=tuple(f"{line}\n".encode() for line in main),
        result_text=tuple(f"{line}\n".encode() for line in res),
        level=level,
        signals=tuple(signals),
        kind=kind,
        lost_lines=LostLines(
            tuple(LineRange(at + a, at + b) for a, b in lost_dev), tuple(LineRange(at + a, at + b) for a, b in lost_main)
        ),
    )


def lost(side: str, *commits: str) -> Signal:
    """The loss signal naming the writers of a side's lost lines (newest first)."""
    kind = SignalKind.DEV_ONLY_LINES_DROPPED if side == "dev" else SignalKind.MAIN_ONLY_LINES_DROPPED
    return Signal(kind, f"{side} lines dropped", tuple(commits), 40)


def file(
    path: str,
    hunks: Sequence[Hunk] = (),
    *,
    edits: Sequence[Hunk] = (),
    status: FileStatus = FileStatus.THEIRS_RESOLVED,
    policy: PolicyRule | None = None,
    history: Sequence[Commit] = (),
) -> FileAnalysis:
    side = Side(path, "b" * 40, 0o100644)
    return FileAnalysis(
        path=path,
        status=status,
        kind=ConflictKind.CONTENT,
        base=side,
        dev=side,
        main=side,
        result_oid="c" * 40,
        result_present=True,
        hunks=tuple(hunks),
        edits=tuple(edits),
        history=FileHistory(tuple(c for c in history), ()),
        policy=policy,
    )


def sync(*files: FileAnalysis, api_mismatches: tuple[ApiMismatch, ...] = (),
         deleted_files: tuple[DeletedFile, ...] = ()) -> SyncAnalysis:
    return SyncAnalysis(Mode.MERGE_COMMIT, DEV_SHA, MAIN_SHA, "e" * 40, "f" * 40, tuple(files),
                        api_mismatches=api_mismatches, deleted_files=deleted_files)
