"""``git mergetool --tool=workbench``: one file's three-way merge as an analysis.

git hands the tool four paths: BASE, LOCAL (ours: the sync branch, dev) and
REMOTE (theirs: main) as temporary files, and MERGED, the work-tree file
holding git's conflict markers.

During a merge (MERGE_HEAD), when LOCAL and REMOTE are MERGED's index stages
(what ``git mergetool`` hands out), the file is analysed the way ``workbench
open`` analyses it on that merge, restricted to this one path: each side's
history, the commits behind each hunk, risk signals, the sync policy and the
API audit.  Otherwise (a rebase, a cherry-pick, unrelated files) there are
only the three versions: the hunks are built from them, with no history, and
a file-wide note says why.  Either way the hunks sit on git's markers in
MERGED, and the app decides and writes MERGED; git stages it when the tool
exits 0.

``dev``/``main`` of the analysis are LOCAL's and REMOTE's blob ids in both
cases: git mergetool works a file at a time, and so does its journal.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.analysis.file_versions import file_analysis
from workbench.analysis.hunks import build_hunks
from workbench.analysis.model import (
    ConflictKind,
    FileStatus,
    Hunk,
    Mode,
    Side,
    Signal,
    SignalKind,
    SyncAnalysis,
)
from workbench.analysis.policy.rules import load_policy
from workbench.analysis.xdiff import Favor, text_model
from workbench.errors import WorkbenchError
from workbench.git.content import is_binary
from workbench.git.repo import GitRepo
from workbench.git.runner import git_version, rediffs_shifted
from workbench.git.types import FileMode, ResultFile
from workbench.git.worktree import worktree_mode
from workbench.git.worktree_read import clean_contents, stored_forms, stored_oids
from workbench.services.sync import Later, SyncRequest, open_sync

LABELS = ("LOCAL", "REMOTE")
_ROLES = ("BASE", "LOCAL", "REMOTE")
_STAGE = {"BASE": 1, "LOCAL": 2, "REMOTE": 3}


def _read(path: Path, role: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        if role == "BASE":
            return b""  # add/add: git passes a base that may not exist
        raise WorkbenchError(f"{role} file not found: {path}") from None
    except OSError as exc:
        raise WorkbenchError(f"cannot read {role} file {path}: {exc.strerror}") from None


@dataclass(frozen=True)
class MergetoolInput:
    """What git handed the tool, read and checked: MERGED's path, the three versions, MERGED's bytes."""

    repo: GitRepo
    root: Path
    path: str
    """MERGED, relative to the work tree."""
    versions: dict[str, bytes]
    """BASE, LOCAL and REMOTE by role."""
    result: bytes | None
    policy: str | None
    stages: dict[str, str | None] | str
    """MERGED's stage blobs by role when LOCAL and REMOTE are them in a merge in progress (the merge's
    evidence can be read), else why not (the three versions are all there is)."""


def read_mergetool(
    base: str, local: str, remote: str, merged: str, policy: str | None = None
) -> MergetoolInput:
    """Read and check ``workbench mergetool``'s arguments: bad input is a ``WorkbenchError`` here, at once.

    ``policy``: a policy preset or file for the merge's analysis (None: the
    repository's own configuration, as ``workbench open`` reads it).
    """
    # The versions first, so a wrong path is named rather than reported as MERGED's directory not
    # being a repository.
    versions = {role: _read(Path(p), role) for role, p in zip(_ROLES, (base, local, remote), strict=True)}
    merged_path = Path(merged).absolute()
    parent = merged_path.parent
    if not parent.is_dir():
        what = f"{parent} is a file, not a directory" if parent.exists() else f"{parent}: no such directory"
        raise WorkbenchError(f"MERGED's directory {what} (MERGED: {merged})")
    if merged_path.is_dir():
        raise WorkbenchError(f"MERGED is a directory, not a file: {merged}")
    repo = GitRepo.open(merged_path.parent)
    root = repo.workdir
    if root is None:
        raise WorkbenchError("git mergetool needs a work tree")
    relative = _work_tree_file(repo, root, merged_path, merged)
    result = _read(merged_path, "MERGED") if merged_path.exists() else None
    if result is not None:
        files = dict(zip(_ROLES, (base, local, remote), strict=True))
        versions, result = _as_git_stores(repo, relative, merged_path, files, versions, result)
    if policy is not None:
        load_policy(policy, lambda: None)  # an unknown preset or unreadable file is bad input, merge or not
    return MergetoolInput(repo, root, relative, versions, result, policy, _merge_stages(repo, relative, versions))


def _as_git_stores(
    repo: GitRepo, relative: str, merged_path: Path, files: dict[str, str], versions: dict[str, bytes], result: bytes
) -> tuple[dict[str, bytes], bytes]:
    """The three versions and MERGED as git stores them, where the work tree holds another form.

    git hands the tool each version's work-tree form (``core.autocrlf``,
    ``eol=crlf``, a smudge filter) and MERGED is one too, while the writer
    compares the file on disk, and stages it, as ``git add`` stores it.  The
    model is built on the stored forms, as ``workbench open`` builds it, so
    a file nobody touched is never "changed on disk" and hunks compare with
    the index's stages.  Where git stores MERGED as it is (the common case:
    one ``hash-object``), everything is used as read.
    """
    if stored_oids(repo, relative, [merged_path]) == [repo.hash_bytes(result)]:
        return versions, result
    cleaned = clean_contents(repo, [relative]).get(relative)  # as ``git add`` would, the index's CRs rule included
    if cleaned is None or cleaned[1] == result:
        return versions, result
    present = [role for role in _ROLES if versions[role]]
    stored = dict(zip(present, stored_forms(repo, relative, [files[role] for role in present]), strict=True))
    return {role: stored.get(role, versions[role]) for role in _ROLES}, cleaned[1]


def _work_tree_file(repo: GitRepo, root: Path, merged_path: Path, merged: str) -> str:
    """MERGED relative to the work tree, symlinks and ``..`` resolved; never a file of the repository
    itself (``.git/config``, a hook), which ``w`` would otherwise overwrite."""
    resolved = merged_path.resolve()
    try:
        relative = resolved.relative_to(root.resolve()).as_posix()
    except ValueError:
        raise WorkbenchError(f"MERGED is outside the repository's work tree: {merged}") from None
    in_git = any(part.lower() == ".git" for part in relative.split("/")) or any(
        resolved == d or d in resolved.parents for d in (repo.gitdir.resolve(), repo.common_dir.resolve())
    )
    if in_git:
        raise WorkbenchError(f"MERGED is inside the repository's .git directory, not a work-tree file: {merged}")
    return relative


def analyse_mergetool(given: MergetoolInput, later: Later | None = None) -> SyncAnalysis:
    """The file's analysis: the merge's evidence when LOCAL/REMOTE are its stages, else the versions alone.

    It holds nothing of this process (it may be computed in another, ``sync_process.py``);
    ``mergetool_repo`` is the repository to open it with.  ``later``: see ``open_sync``.
    """
    stages = given.stages
    loaded = stages if isinstance(stages, str) else _merge_analysis(given, stages, later)
    return _files_only(given, loaded) if isinstance(loaded, str) else loaded


FIRST_LOOK_PENDING = "this merge's history, risk and API audit for the file"
"""What a first look is still waiting for (``Workspace.pending``)."""


def reads_history(given: MergetoolInput) -> bool:
    """Whether the analysis reads the merge's evidence (seconds, cold), so that a ``first_look`` is worth showing;
    else the three versions are all there is, and the analysis is as quick."""
    return not isinstance(given.stages, str)


def first_look(given: MergetoolInput) -> tuple[GitRepo, SyncAnalysis]:
    """The three versions' hunks, to show while the merge's evidence is read (``reads_history``).

    Building the hunks takes milliseconds; the merge's history, risk and API
    audit for the path take one to three seconds, cold.  No note is added:
    the first look carries the merge's identity (its journal is the merge's,
    so decisions made in ``workbench open`` show at once), and the app marks
    its risk as pending until ``analyse_mergetool``'s answer replaces it.
    Where that answer falls back to the three versions alone (a content
    filter, a merge git would make otherwise), its journal is the file's
    own, and the decisions shown may change with it; none is made meanwhile.
    It has a repository object of its own: the complete analysis's is used
    by another thread meanwhile.
    """
    repo = GitRepo.open(given.root)
    repo.remember_blobs(given.versions.values())
    return repo, _versions_alone(given, repo, ())


def mergetool_repo(given: MergetoolInput) -> GitRepo:
    """The repository to review and write MERGED with: BASE, LOCAL and REMOTE readable by blob id (they are
    temporary files, not necessarily objects of the repository)."""
    given.repo.remember_blobs(given.versions.values())
    return given.repo


def load_mergetool(
    base: str, local: str, remote: str, merged: str, policy: str | None = None
) -> tuple[GitRepo, SyncAnalysis]:
    """The analysis for ``workbench mergetool BASE LOCAL REMOTE MERGED`` (every step at once)."""
    given = read_mergetool(base, local, remote, merged, policy)
    return mergetool_repo(given), analyse_mergetool(given)


def _merge_stages(repo: GitRepo, relative: str, data: dict[str, bytes]) -> dict[str, str | None] | str:
    """MERGED's stage blobs by role when LOCAL and REMOTE are them in a merge in progress, else why not."""
    heads = repo.merge_heads()
    if not heads:
        return "not a merge in progress"
    if len(heads) > 1:
        return "an octopus merge is in progress"
    stages = repo.index_unmerged().get(relative)
    if stages is None:
        return "MERGED is not a conflicted path of the merge in progress"
    oids: dict[str, str | None] = {}
    for role in _ROLES:
        stage = stages.get(_STAGE[role])
        oids[role] = stage[1] if stage is not None else None
        if (repo.hash_bytes(data[role]) != stage[1]) if stage is not None else bool(data[role]):
            return (f"{role} differs from MERGED's stage {_STAGE[role]} in the merge in progress "
                    "(another file, or a content filter's copy)")
    return oids


def _merge_analysis(given: MergetoolInput, stages: dict[str, str | None], later: Later | None) -> SyncAnalysis | str:
    """``workbench open``'s analysis of MERGED in the merge in progress, or why there is none."""
    try:
        _repo, analysis = open_sync(SyncRequest(repo=str(given.root), policy=given.policy, paths=(given.path,)),
                                    later=later)
    except WorkbenchError as exc:
        return str(exc)
    entry = analysis.file(given.path)
    if entry is None or (entry.base.oid, entry.dev.oid, entry.main.oid) != tuple(stages[r] for r in _ROLES):
        return "a plain merge of HEAD and MERGE_HEAD gives other versions of MERGED"
    if entry.result_oid != (given.repo.hash_bytes(given.result) if given.result is not None else None):
        return "MERGED is not what git stores for it (content filters)"
    local, remote = (stages[role] or "" for role in LABELS)
    return replace(analysis, mode=Mode.MERGETOOL, dev=local, main=remote, base=None, labels=LABELS)


def _files_only(given: MergetoolInput, why: str) -> SyncAnalysis:
    """The three versions alone: hunks placed in MERGED, no history, and a note saying why."""
    note = Signal(SignalKind.NO_HISTORY, f"no history: {why}, so only the three versions git passed are compared "
                  "(no commits, no risk evidence)")
    return _versions_alone(given, given.repo, (note,))


def _versions_alone(given: MergetoolInput, repo: GitRepo, signals: tuple[Signal, ...]) -> SyncAnalysis:
    """MERGED's hunks from the three versions git passed, placed on its markers; no history."""
    root, relative, data, result = given.root, given.path, given.versions, given.result
    oids = {role: repo.hash_bytes(content) for role, content in data.items()}
    kind = ConflictKind.BINARY if any(is_binary(d) for d in data.values()) else ConflictKind.CONTENT
    merge = None
    hunks: tuple[Hunk, ...] = ()
    if kind is ConflictKind.CONTENT:
        merge = text_model(data["BASE"], data["LOCAL"], data["REMOTE"], rediffs_shifted())
        hunks = build_hunks(merge, result, unmerged=True)
    mode = FileMode.REGULAR
    if result is not None:
        with suppress(OSError):  # gone since it was read: as if not executable
            mode = worktree_mode(repo, relative, (root / relative).stat().st_mode)
    base, dev, main = (Side(relative, oids[role], FileMode.REGULAR) for role in _ROLES)
    present = result is not None
    entry = file_analysis(
        relative, kind, FileStatus.CONFLICTED, (base, dev, main),
        ResultFile(present, result, repo.hash_bytes(result) if result is not None else None, mode=mode if present else None),
        merge=merge, theirs=merge.render(Favor.THEIRS) if merge is not None else None, hunks=hunks, signals=signals,
    )
    return SyncAnalysis(
        mode=Mode.MERGETOOL,
        dev=oids["LOCAL"],
        main=oids["REMOTE"],
        base=None,
        merge=None,
        files=(entry,),
        git_version=".".join(str(n) for n in git_version()),
        repo_path=str(root),
        labels=LABELS,
    )
