"""Everything a screen needs to draw one file, prepared in a worker.

Alignment, word changes, unified diffs and syntax spans are computed here,
off the UI thread and once per file (or once per toggle), by calling the pure
helpers of ``workbench.analysis.display`` and ``syntax``; the widgets only
look the results up while rendering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench.analysis.display.layout import FileLayout, hunks_layout, lost_rows, merge_layout, with_edits
from workbench.analysis.display.unified import DiffRow, unified_rows
from workbench.analysis.model import FileAnalysis, Side
from workbench.analysis.xdiff import joined, split_lines
from workbench.errors import WorkbenchError
from workbench.git.types import FileMode
from workbench.resolve.session import SessionError
from workbench.services.workspace import Workspace
from workbench.tui.syntax import SyntaxSpans, highlighter_for


@dataclass(frozen=True, slots=True)
class SideFacts:
    """One side of a whole-file choice: is it there, which blob, how big."""

    label: str
    oid: str | None
    size: int | None
    mode: int | None


@dataclass(frozen=True)
class PreparedFile:
    """A file ready to draw: its aligned layout (text files) or its sides (the rest)."""

    path: str
    layout: FileLayout | None
    syntax: dict[str, SyntaxSpans] = field(default_factory=dict)
    """Side name ("base", "dev", "main") -> highlight spans."""
    sides: tuple[SideFacts, ...] = ()
    lost: dict[str, frozenset[int]] = field(default_factory=dict)
    """Side -> layout rows whose line of that side the result lost (marked, jumped to)."""
    basis: tuple[object, ...] | None = None
    """What the layout and syntax were made from (the file's merge and its hunks' places): the same file of
    another workspace on an equal basis reuses them (``reprepared``)."""


@dataclass(frozen=True)
class BothDiffs:
    """The result as it would be written, against dev and against main."""

    path: str
    dev: tuple[DiffRow, ...]
    main: tuple[DiffRow, ...]
    syntax: dict[str, SyntaxSpans] = field(default_factory=dict)
    """"dev", "main" and "result" spans (old sides and the new one)."""
    deleted: bool = False


@dataclass(frozen=True)
class CommitDiff:
    """One commit's change to one file."""

    sha: str
    path: str
    rows: tuple[DiffRow, ...]
    syntax: dict[str, SyntaxSpans] = field(default_factory=dict)
    """"old" and "new" spans."""
    note: str = ""


@dataclass(frozen=True)
class FirstLook:
    """A workspace to show while the complete one loads (``Workspace.first_look``), with the file it opens on
    already prepared: both are made before the screen exists (``launch.start_first_look``)."""

    workspace: Workspace
    view: PreparedFile | None
    """The first file's rows (None: it has no files)."""

    @classmethod
    def of(cls, workspace: Workspace) -> FirstLook:
        """``workspace`` with its first file (the one file of ``git mergetool``) prepared."""
        return cls(workspace, prepare_file(workspace, workspace.files[0].path) if workspace.files else None)


def _basis(entry: FileAnalysis) -> tuple[object, ...]:
    return (entry.merge, tuple((h.index, h.kind, h.base, h.dev, h.main, h.result) for h in entry.all_hunks))


def reprepared(workspace: Workspace, path: str, like: PreparedFile | None) -> PreparedFile | None:
    """``path`` in ``workspace`` from ``like``'s rows and syntax, at once, when they were made from the same
    versions and hunks (the complete analysis replacing a first look: parsing and aligning them again is
    a visible pause); None when it must be prepared anew."""
    entry = workspace.entry(path)
    if like is None or like.path != path or like.layout is None or not entry.all_hunks:
        return None
    basis = _basis(entry)
    if like.basis != basis:
        return None
    return PreparedFile(path, like.layout, like.syntax, lost=lost_rows(like.layout, entry.all_hunks), basis=basis)


def prepare_file(workspace: Workspace, path: str) -> PreparedFile:
    entry = workspace.entry(path)
    if not entry.all_hunks:
        return PreparedFile(path, None, sides=_sides(workspace, entry))
    basis = _basis(entry)
    if entry.merge is not None:
        layout = with_edits(merge_layout(entry.merge, entry.hunks), entry.edits)
    else:
        layout = hunks_layout(entry.all_hunks)
    syntax: dict[str, SyntaxSpans] = {}
    highlight = highlighter_for(path)
    if highlight is not None and entry.merge is not None:
        for name, lines in (("base", entry.merge.base), ("dev", entry.merge.ours), ("main", entry.merge.theirs)):
            syntax[name] = highlight(joined(lines))
    return PreparedFile(path, layout, syntax, lost=lost_rows(layout, entry.all_hunks), basis=basis)


def _sides(workspace: Workspace, entry: FileAnalysis) -> tuple[SideFacts, ...]:
    def facts(label: str, side: Side) -> SideFacts:
        size = workspace.repo.blob_size(side.oid) if side.oid and side.mode != FileMode.GITLINK else None
        return SideFacts(label, side.oid, size, side.mode)

    return (facts("base", entry.base), facts("dev", entry.dev), facts("main", entry.main))


def prepare_diffs(workspace: Workspace, path: str) -> BothDiffs:
    """``git diff dev result`` and ``git diff main result`` for the file as decided now."""
    entry = workspace.entry(path)
    try:
        result = workspace.session.preview(path)
    except SessionError:  # decisions that cannot be written (w says why): diff the file as it is
        result = entry.result_bytes if entry.result_present else None
    new = split_lines(result or b"")
    dev = _blob_lines(workspace, entry.dev)
    main = _blob_lines(workspace, entry.main)
    syntax: dict[str, SyntaxSpans] = {}
    highlight = highlighter_for(path)
    if highlight is not None:
        syntax = {"dev": highlight(b"".join(dev)), "main": highlight(b"".join(main)), "result": highlight(result or b"")}
    return BothDiffs(path, unified_rows(dev, new), unified_rows(main, new), syntax, deleted=result is None)


def _blob_lines(workspace: Workspace, side: Side) -> list[bytes]:
    if side.oid is None or side.mode == FileMode.GITLINK:
        return []
    return split_lines(workspace.repo.read_blob(side.oid))


def prepare_commit_diff(workspace: Workspace, sha: str, path: str) -> CommitDiff:
    """What commit ``sha`` did to ``path`` (against its first parent)."""
    repo = workspace.repo
    try:
        info = repo.commit_info(sha)
        new_entry = repo.tree_entry(sha, path)
        old_entry = repo.tree_entry(info.parents[0], path) if info.parents else None
    except WorkbenchError as exc:
        return CommitDiff(sha, path, (), note=str(exc))
    old = repo.read_blob(old_entry[0]) if old_entry and old_entry[1] != FileMode.GITLINK else b""
    new = repo.read_blob(new_entry[0]) if new_entry and new_entry[1] != FileMode.GITLINK else b""
    note = ""
    if b"\0" in old[:8000] or b"\0" in new[:8000]:
        return CommitDiff(sha, path, (), note=f"binary file: {len(old)} bytes before, {len(new)} after")
    if old_entry is None and new_entry is None:
        note = f"{path} is in neither this commit nor its parent (renamed?)"
    elif old_entry is None:
        note = "this commit adds the file"
    elif new_entry is None:
        note = "this commit deletes the file"
    syntax: dict[str, SyntaxSpans] = {}
    highlight = highlighter_for(path)
    if highlight is not None:
        syntax = {"old": highlight(old), "new": highlight(new)}
    return CommitDiff(sha, path, unified_rows(split_lines(old), split_lines(new)), syntax, note)
