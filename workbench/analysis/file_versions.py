"""The one way to make the analysis of one file's versions (the engine's, a path beyond git's merge, mergetool's).

What a ``FileAnalysis`` keeps of a file's texts is decided here only: a
text file's line merge is kept, and what ``-X theirs`` writes is rendered
from it whenever read, as is the result when it is exactly that (every file
of a preview, every file the bot left as ``-X theirs``); only a result that
differs keeps its bytes, and only a file without a merge (a binary) keeps
main's bytes.
"""

from __future__ import annotations

from workbench.analysis.model import (
    ConflictKind,
    FileAnalysis,
    FileHistory,
    FileStatus,
    Hunk,
    Rendered,
    Side,
    Signal,
    Whose,
)
from workbench.analysis.xdiff import MergeResult
from workbench.git.types import ResultFile


def file_analysis(
    path: str,
    kind: ConflictKind,
    status: FileStatus,
    sides: tuple[Side, Side, Side],
    result: ResultFile,
    *,
    history: FileHistory | None = None,
    merge: MergeResult | None = None,
    theirs: bytes | None = None,
    hunks: tuple[Hunk, ...] = (),
    edits: tuple[Hunk, ...] = (),
    messages: tuple[str, ...] = (),
    signals: tuple[Signal, ...] = (),
    exact: bool | None = None,
    asides: tuple[str, ...] = (),
    directory: Whose | None = None,
    worktree_conflicts: bytes | None = None,
) -> FileAnalysis:
    """``path``'s analysis from its base, dev and main ``sides`` and the ``result``.

    ``theirs``: what ``-X theirs`` writes at the path (with a ``merge``, its
    rendering for main; None: not decidable, or not asked).  ``result.data``
    None keeps no bytes of the result (an outline, before any is read).
    """
    base, dev, main = sides
    if theirs is not None and result.data == theirs:
        theirs = result.data  # one object: a binary resolved as main's is kept once
    rendered = Rendered.NOTHING
    if merge is not None and theirs is not None:
        rendered = Rendered.BOTH if result.data == theirs else Rendered.THEIRS
    return FileAnalysis(
        path=path,
        status=status,
        kind=kind,
        base=base,
        dev=dev,
        main=main,
        result_oid=result.oid,
        result_present=result.present,
        hunks=hunks,
        history=history or FileHistory(),
        merge=merge,
        stored_result=None if rendered is Rendered.BOTH else result.data,
        stored_theirs=theirs if merge is None else None,
        rendered=rendered,
        messages=messages,
        signals=signals,
        exact=exact,
        result_mode=result.mode if result.present else None,
        edits=edits,
        asides=asides,
        directory=directory,
        worktree_conflicts=worktree_conflicts,
    )
