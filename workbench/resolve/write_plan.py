"""What writing one decided file will do, decided before anything is touched: a ``WritePlan`` or a ``Refusal``.

``check_write`` runs every check once: the file must not hold conflict
markers (of the length its ``conflict-marker-size`` gives), a Python file
must compile (``python_check.py``), the work tree must still hold what the
session loaded, executable bit included (or the user said to overwrite it),
and ``git add`` must be able to stage it.  What it computed on the way is
the plan: the bytes the index gets and their checkout form for the work
tree, the mode, the marker sizes, whether to stage, the side copies git
left to remove, and what the work tree held when checked.  ``write_file``
(``writer.py``) carries the plan out; the workspace keeps it until the
session changes, so a file is checked and spliced once per write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from workbench.analysis.conflict_map import locate
from workbench.analysis.model import ConflictKind, FileAnalysis, FileStatus, Mode, SyncAnalysis
from workbench.errors import WorkbenchError
from workbench.git.repo import GitRepo
from workbench.git.types import BLOB_MODES, FileMode
from workbench.git.worktree import (
    PathAttributes,
    Seen,
    checkout_form,
    path_attributes,
    paths_attributes,
    raw_blob_id,
    seen,
    stage_problem,
    stage_problems,
    worktree_mode,
    worktree_path,
)
from workbench.git.worktree_read import disk_oid
from workbench.resolve.events import FileChoice, chosen_oid
from workbench.resolve.file_content import FileState
from workbench.resolve.markers import any_markers
from workbench.resolve.python_check import check_python
from workbench.resolve.renormalize import as_git_stages
from workbench.resolve.session import Session, SessionError
from workbench.resolve.splice import Choice, ConflictTextError
from workbench.resolve.write_aside import set_aside
from workbench.resolve.write_modes import file_mode


class Blocked(str, Enum):
    """Why a file may not be written as it stands."""

    MARKERS = "markers"
    SYNTAX = "syntax"
    CHANGED_ON_DISK = "changed-on-disk"
    NO_WORKTREE = "no-worktree"
    UNSAFE_PATH = "unsafe-path"
    UNDECIDED = "undecided"
    NOT_WRITABLE = "not-writable"
    OVERLAP = "overlap"
    RENORMALIZE = "renormalize"
    """``merge.renormalize`` changes this file's sides in a way the model does not follow."""
    CONFLICT_TEXT = "conflict-text"
    """The conflict blocks in the work tree do not match the hunks (only a whole-side choice is written)."""
    NOT_STAGEABLE = "not-stageable"
    """``git add`` would fail (a held index lock, a path outside the sparse-checkout cone)."""


class Action(str, Enum):
    """What a plan does at its path."""

    WRITE = "write"
    """Put a file (or a symlink) there."""
    DELETE = "delete"
    """Remove it (from the index too, when staging)."""
    GITLINK = "gitlink"
    """Stage a submodule's commit (its checkout is left as it is, as ``git merge`` leaves it)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """``path`` cannot be written now, and a sentence saying why."""

    path: str
    blocked: Blocked
    message: str
    warning: str = ""

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class WritePlan:
    """Everything writing ``path`` will do, checked (``check_write``); ``write_file`` carries it out."""

    path: str
    action: Action
    decisions: FileState
    """The file's decisions the plan was made from: another decision makes it stale."""
    expected: str | None
    """The blob the session expected at ``path`` when the plan was made (the session's ``disk_oid``)."""
    blob: bytes | None = None
    """WRITE: what the index gets (a symlink's target for a symlink)."""
    checkout: bytes | None = None
    """WRITE of a file: ``blob`` as ``git checkout`` writes it (smudged)."""
    mode: int = FileMode.REGULAR
    marker_sizes: tuple[int, ...] = (7,)
    stage: bool = False
    commit: str | None = None
    """GITLINK: the submodule commit to stage."""
    gone: tuple[str, ...] = ()
    """Paths removed with the write, from the index too: the side copy git left beside the path
    (``link~HEAD``), the other side's directory when a file replaces it (``write_aside.py``)."""
    own_entry: bool = True
    """False when the path is the kept side's directory: a deletion removes only ``gone``."""
    disk: tuple[tuple[str, Seen], ...] = ()
    """What the work tree held at ``path`` (and ``gone``) when checked: the write stops if that changed."""
    overwrite: bool = False
    """Made with the user's leave to overwrite a file changed on disk (``disk`` is not compared)."""
    warning: str = ""
    """What could not be checked (the user is told when the file is written)."""
    note: str = ""
    """A fact the user is told with the write (the mode chosen for a mode conflict)."""
    blocked: None = field(default=None, init=False)
    message: str = field(default="", init=False)

    @property
    def ok(self) -> bool:
        return True

    @property
    def executable(self) -> bool:
        return self.mode == FileMode.EXECUTABLE


WriteCheck = WritePlan | Refusal
"""What ``check_write`` says: the plan, or why not (``ok``, ``blocked`` and ``message`` on both)."""


def write_blocker(repo: GitRepo, analysis: SyncAnalysis) -> str | None:
    """Why nothing of this sync may be written to the work tree, or None.

    Only the situation the analysis describes may be written: the merge in
    progress it read, or the merge commit (or --result commit) when it is
    what HEAD points at.  A preview, or a merge commit that is not checked
    out, would overwrite unrelated work.
    """
    if repo.workdir is None:
        return "this repository has no work tree to write to"
    head = repo.head()
    if analysis.mode is Mode.MERGETOOL:
        return None  # git mergetool handed us MERGED to write
    if analysis.mode is Mode.PREVIEW:
        return "a preview writes nothing: open the merge in progress, or the sync branch, to write"
    if analysis.mode is Mode.IN_PROGRESS:
        if head != analysis.dev or analysis.main not in repo.merge_heads():
            return "the merge in progress changed since it was loaded: reopen the workbench"
        return None
    if head != analysis.result_commit:
        target = (analysis.result_commit or "")[:10]
        return f"the work tree is not at {target} (HEAD is {(head or 'unborn')[:10]}): check it out to write fixes"
    return None


def decisions_of(session: Session, entry: FileAnalysis) -> FileState:
    """The file's decisions now, as a plan records them."""
    path = entry.path
    return session.file_choice(path), tuple(session.decision(path, h.index) for h in entry.all_hunks)


def fits(session: Session, plan: WritePlan, stage: bool, overwrite: bool) -> bool:
    """Whether ``plan`` still says what writing its file now would do (the decisions and expectations it was made
    from hold, and it asks no more leave than given); the work tree is compared when it is carried out."""
    entry = session.file(plan.path)
    return (plan.decisions == decisions_of(session, entry) and plan.expected == session.disk_oid(plan.path)
            and plan.stage == stage and (overwrite or not plan.overwrite))


def moved(repo: GitRepo, plan: WritePlan) -> str | None:
    """The path of ``plan`` whose work-tree content changed since the plan was made, or None."""
    if plan.overwrite:
        return None
    return next((path for path, then in plan.disk if seen(repo, path) != then), None)


@dataclass(frozen=True, slots=True)
class Probes:
    """What git says about many paths at once (``check_writes``): their attributes, and why staging would fail."""

    attributes: dict[str, PathAttributes]
    unstageable: dict[str, str]


def check_write(repo: GitRepo, session: Session, path: str, overwrite_changed: bool = False,
                stage: bool | None = None, probes: Probes | None = None) -> WriteCheck:
    """Everything that must hold before ``path`` is written, and the plan (a probe that fails refuses, never raises).

    ``stage``: update the index too (default: during a merge in progress); ``probes``: asked already."""
    if stage is None:
        stage = session.analysis.mode is Mode.IN_PROGRESS
    try:
        return _check(repo, session, path, overwrite_changed, stage, probes)
    except (OSError, WorkbenchError) as exc:
        return Refusal(path, Blocked.NOT_WRITABLE, f"{path} cannot be checked: {exc}")


def check_writes(repo: GitRepo, session: Session, paths: Sequence[str], stage: bool | None = None) -> dict[str, WriteCheck]:
    """``check_write`` of every path, git asked about all of them at once (two git runs in all, for most)."""
    if stage is None:
        stage = session.analysis.mode is Mode.IN_PROGRESS
    try:
        probes = Probes(paths_attributes(repo, paths), stage_problems(repo, paths) if stage else {})
    except (OSError, WorkbenchError):
        probes = None  # each path is asked on its own, and says what fails
    return {path: check_write(repo, session, path, False, stage, probes) for path in paths}


def _check(repo: GitRepo, session: Session, path: str, overwrite: bool, stage: bool,
           probes: Probes | None) -> WriteCheck:
    blocker = write_blocker(repo, session.analysis)
    if blocker is not None:
        return Refusal(path, Blocked.NO_WORKTREE if repo.workdir is None else Blocked.NOT_WRITABLE, blocker)
    try:
        worktree_path(repo, path)
    except WorkbenchError as exc:
        return Refusal(path, Blocked.UNSAFE_PATH, str(exc))
    entry = session.file(path)
    if entry.status is FileStatus.CONFLICTED and not session.is_decided(path):
        return Refusal(path, Blocked.UNDECIDED, f"{path} is still conflicted: decide every hunk (or the whole file) first")
    if _spliced_over_an_inexact_model(session, entry):
        return Refusal(path, Blocked.CONFLICT_TEXT, f"{path}: the hunks do not re-create the conflict text git wrote "
                       "for this file, so a hunk-level splice could put the wrong lines in: choose the whole file "
                       "(keep dev's or take main's, in the file list) or resolve it in an editor")
    decisions = decisions_of(session, entry)
    choice = session.file_choice(path)
    aside = set_aside(repo, entry, choice, session.analysis.mode)
    if aside.problem is not None:
        return Refusal(path, Blocked.NOT_WRITABLE, aside.problem)
    plan = WritePlan(path, Action.DELETE, decisions, session.disk_oid(path), stage=stage, overwrite=overwrite,
                     gone=aside.gone, own_entry=aside.own_entry)
    if entry.kind is ConflictKind.SUBMODULE and _side_mode(entry, choice) in (FileMode.GITLINK, None):
        return _gitlink(repo, session, entry, plan)
    try:
        data = session.preview(path)
    except SessionError as exc:
        blocked = Blocked.CONFLICT_TEXT if isinstance(exc.__cause__, ConflictTextError) else Blocked.OVERLAP
        return Refusal(path, blocked, str(exc))
    attributes = probes.attributes[path] if probes is not None else path_attributes(repo, path)
    plan = _with(plan, marker_sizes=_marker_sizes(attributes.marker_size, entry))
    warning = note = ""
    if data is not None:
        mode, note = file_mode(entry, choice, _sides_taken(decisions))
        if mode != FileMode.SYMLINK:
            staged = as_git_stages(repo, session, path, data)  # merge.renormalize: git merged the sides renormalized
            if staged is None:
                return Refusal(path, Blocked.RENORMALIZE, f"{path}: {RENORMALIZE_MESSAGE}")
            data = staged
            if any_markers(data, plan.marker_sizes) is not None:
                return Refusal(path, Blocked.MARKERS, _markers_message(session, path))
            if path.endswith(".py"):
                python = check_python(data, path)
                if python.error:
                    return Refusal(path, Blocked.SYNTAX,
                                   f"{path} would not parse ({python.error}): edit the hunk before writing")
                warning = python.warning or ""
        plan = _with(plan, action=Action.WRITE, blob=data, mode=mode)
    if not overwrite:
        changed = _changed_on_disk(repo, session, path, attributes.filtered)
        if changed:
            return Refusal(path, Blocked.CHANGED_ON_DISK, f"{path} {changed} since it was loaded: overwrite it?")
    if stage and data is not None:
        problem = probes.unstageable.get(path) if probes is not None else stage_problem(repo, path)
        if problem:
            return Refusal(path, Blocked.NOT_STAGEABLE, f"{path} not written: it could not be staged ({problem})")
    checkout = None
    if data is not None and plan.mode != FileMode.SYMLINK:
        checkout = checkout_form(repo, path, data, attributes.filtered)
    disk = tuple((p, seen(repo, p)) for p in (path, *plan.gone))
    return _with(plan, checkout=checkout, disk=disk, warning=warning, note=note)


def _with(plan: WritePlan, **changes: object) -> WritePlan:
    return replace(plan, **changes)  # type: ignore[arg-type]


def _side_mode(entry: FileAnalysis, choice: FileChoice | None) -> int | None:
    """The mode of the side a whole-file choice keeps (None: no choice, or a deletion)."""
    side = {FileChoice.KEEP_DEV: entry.dev, FileChoice.TAKE_MAIN: entry.main}.get(choice) if choice else None
    return side.mode if side is not None else None


def _gitlink(repo: GitRepo, session: Session, entry: FileAnalysis, plan: WritePlan) -> WriteCheck:
    """A submodule: stage the chosen commit for the gitlink (never read as a blob), or remove it."""
    if not plan.stage:
        return Refusal(entry.path, Blocked.NOT_WRITABLE,
                       f"{entry.path} is a submodule: commit the pointer you want by hand")
    commit = chosen_oid(entry, session.file_choice(entry.path))
    disk = tuple((p, seen(repo, p)) for p in plan.gone)  # the checkout itself is left as it is
    if commit is None:
        return _with(plan, disk=disk)
    return _with(plan, action=Action.GITLINK, commit=commit, mode=FileMode.GITLINK, disk=disk)


def _sides_taken(decisions: FileState) -> Choice | None:
    """The one side every decided hunk takes (DEV or MAIN), or None."""
    _choice, hunks = decisions
    taken = {d.choice for d in hunks if d is not None}
    return taken.pop() if len(taken) == 1 and taken <= {Choice.DEV, Choice.MAIN} else None


RENORMALIZE_MESSAGE = ("merge.renormalize is set, and git merged this file's sides renormalized in a way the "
                       "hunks shown do not follow (a side that changed only line ends, a side git leaves as "
                       "binary, a filter): resolve it in an editor")


def _spliced_over_an_inexact_model(session: Session, entry: FileAnalysis) -> bool:
    """Conflict hunks decided one by one in a file whose model git does not confirm (``exact`` false).

    During a merge in progress the work tree's own blocks are matched instead (``splice_conflicted``
    writes only what they hold); elsewhere the model is all there is, so only a whole-file choice
    (a side's blob, git's bytes) may be written."""
    if entry.exact is not False or session.analysis.mode is Mode.IN_PROGRESS:
        return False
    if session.file_choice(entry.path) is not None:
        return False
    return any(session.decision(entry.path, h.index) is not None for h in entry.hunks)


def _marker_sizes(attribute: int, entry: FileAnalysis) -> tuple[int, ...]:
    """The marker lengths that count as conflict markers in the file: its attribute's, and the work tree's blocks'."""
    sizes = [attribute]
    if entry.status is FileStatus.CONFLICTED and entry.merge is not None and entry.result_bytes is not None:
        found = locate(entry.result_bytes, entry.merge)
        if found is not None and found.text.marker_size not in sizes:
            sizes.append(found.text.marker_size)
    return tuple(sizes)


def _changed_on_disk(repo: GitRepo, session: Session, path: str, filtered: bool) -> str | None:
    """How the file on disk differs from what the session loaded or last wrote ("changed", ...), or None.

    Without a filter the bytes are hashed here; with one, ``git add`` (into a private index) says what it stores."""
    now = disk_oid(repo, path) if filtered else raw_blob_id(repo, path)
    if now != session.disk_oid(path):
        return "changed on disk"
    entry = session.file(path)
    if session.was_written(path) or entry.result_mode not in BLOB_MODES:
        return None
    target = worktree_path(repo, path)
    if target.is_symlink() or not target.is_file():
        return None
    executable = worktree_mode(repo, path, target.stat().st_mode) == FileMode.EXECUTABLE
    if executable != (entry.result_mode == FileMode.EXECUTABLE):
        return "became executable" if executable else "lost its executable bit"
    return None


def _markers_message(session: Session, path: str) -> str:
    """Which hunks still hold markers: the user's edits of them, when that is where they are."""
    marked = [index + 1 for index in session.marked_hunks(path)]
    if not marked:
        return f"{path} still holds conflict markers: decide every hunk first"
    which = f"hunk {marked[0]}" if len(marked) == 1 else "hunks " + ", ".join(str(n) for n in marked)
    return (f"{path} still holds conflict markers in your edit of {which}: "
            "edit it again (e) to remove them, or take a side")
