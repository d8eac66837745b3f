"""``git mergetool --tool=workbench``: one file's three-way merge as an analysis.

git hands the tool four paths: BASE, LOCAL (ours: the sync branch, dev) and
REMOTE (theirs: main) as temporary files, and MERGED, the work-tree file
holding git's conflict markers.  The workbench builds the same hunk model it
uses for a whole sync from those three versions, places the hunks in MERGED,
and lets the app decide and write MERGED; git stages it when the tool exits 0.
"""

from __future__ import annotations

import os
from pathlib import Path

from workbench.analysis.hunks import build_hunks
from workbench.analysis.model import (
    ConflictKind,
    FileAnalysis,
    FileHistory,
    FileStatus,
    Hunk,
    Mode,
    Side,
    SyncAnalysis,
)
from workbench.analysis.xdiff import Algorithm, Favor, Level, coalesce_alnum, merge_lines, split_lines
from workbench.errors import WorkbenchError
from workbench.git.content import is_binary
from workbench.git.repo import GitRepo
from workbench.git.runner import git_version


def _read(path: Path, role: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if role == "BASE":
            return b""  # add/add: git passes a base that may not exist
        raise WorkbenchError(f"{role} file not found: {path}") from None
    except OSError as exc:
        raise WorkbenchError(f"cannot read {role} file {path}: {exc.strerror}") from None


def load_mergetool(base: str, local: str, remote: str, merged: str) -> tuple[GitRepo, SyncAnalysis]:
    """The one-file analysis for ``workbench mergetool BASE LOCAL REMOTE MERGED``."""
    merged_path = Path(merged).absolute()
    repo = GitRepo.open(merged_path.parent)
    root = repo.workdir
    if root is None:
        raise WorkbenchError("git mergetool needs a work tree")
    try:
        relative = merged_path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        raise WorkbenchError(f"MERGED is outside the repository's work tree: {merged}") from None
    data = {role: _read(Path(p), role) for role, p in (("BASE", base), ("LOCAL", local), ("REMOTE", remote))}
    result = _read(merged_path, "MERGED") if merged_path.exists() else None
    oids = {role: repo.hash_bytes(content) for role, content in data.items()}
    kind = ConflictKind.BINARY if any(is_binary(d) for d in data.values()) else ConflictKind.CONTENT
    merge = None
    hunks: tuple[Hunk, ...] = ()
    if kind is ConflictKind.CONTENT:
        zealous = merge_lines(
            split_lines(data["BASE"]),
            split_lines(data["LOCAL"]),
            split_lines(data["REMOTE"]),
            Algorithm.HISTOGRAM,
            Level.ZEALOUS,
            rediff_shifted=git_version() >= (2, 54, 0),
        )
        merge = coalesce_alnum(zealous)
        hunks = build_hunks(merge, result, unmerged=True)
    mode = 0o100755 if result is not None and os.access(merged_path, os.X_OK) else 0o100644
    entry = FileAnalysis(
        path=relative,
        status=FileStatus.CONFLICTED,
        kind=kind,
        base=Side(relative, oids["BASE"], 0o100644),
        dev=Side(relative, oids["LOCAL"], 0o100644),
        main=Side(relative, oids["REMOTE"], 0o100644),
        result_oid=repo.hash_bytes(result) if result is not None else None,
        result_present=result is not None,
        hunks=hunks,
        history=FileHistory(),
        merge=merge,
        result_bytes=result,
        theirs_bytes=merge.render(Favor.THEIRS) if merge is not None else None,
        result_mode=mode if result is not None else None,
    )
    repo.remember_blobs(data.values())
    analysis = SyncAnalysis(
        mode=Mode.MERGETOOL,
        dev=oids["LOCAL"],
        main=oids["REMOTE"],
        base=None,
        merge=None,
        files=(entry,),
        git_version=".".join(str(n) for n in git_version()),
        repo_path=str(root),
        labels=("LOCAL", "REMOTE"),
    )
    return repo, analysis
