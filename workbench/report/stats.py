"""Python line statistics of the sync against dev: ``+A / -D across N files``.

The sync procedure puts ``git diff --numstat origin/dev...HEAD -- '*.py'``
in the PR body so reviewers can gauge the real code surface.  Here the
same sum is taken between dev and whatever the result is: the merge commit
(or ``--result``), the work tree of a merge in progress, or, for a
preview, git's plain merge tree with each conflicted file replaced by what
``-X theirs`` would write there.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.model import ConflictKind, FileAnalysis, Mode, SyncAnalysis
from workbench.analysis.xdiff import Algorithm, diff_lines, split_lines
from workbench.git.merge_tree import merge_tree
from workbench.git.numstat import NumstatEntry, numstat
from workbench.git.repo import GitRepo

PYTHON = ("*.py",)


@dataclass(frozen=True, slots=True)
class LineStats:
    """Lines added and deleted in Python files, result against dev."""

    added: int
    deleted: int
    files: int


def python_line_stats(repo: GitRepo, analysis: SyncAnalysis, result: str | None = None) -> LineStats:
    """Sum ``--numstat`` over every ``.py`` file; ``result`` overrides the merge commit."""
    if analysis.mode is Mode.MERGE_COMMIT:
        return _total(numstat(repo, analysis.dev, result or analysis.merge, PYTHON))
    if analysis.mode is Mode.IN_PROGRESS:
        return _total(numstat(repo, analysis.dev, None, PYTHON))
    return _total(_preview_entries(repo, analysis))


def _preview_entries(repo: GitRepo, analysis: SyncAnalysis) -> list[NumstatEntry]:
    """Git's plain merge tree, with conflicted paths counted from the ``-X theirs`` text."""
    tree = merge_tree(repo, analysis.dev, analysis.main).tree
    conflicted = {f.path: f for f in analysis.files}
    entries = [e for e in numstat(repo, analysis.dev, tree, PYTHON) if e.path not in conflicted]
    for entry in analysis.files:
        counted = _theirs_counts(repo, entry)
        if counted is not None:
            entries.append(counted)
    return entries


def _theirs_counts(repo: GitRepo, entry: FileAnalysis) -> NumstatEntry | None:
    """dev's blob against what the bot leaves at the path, counted as ``git diff`` does (myers).

    That is the ``-X theirs`` text, or, where the conflict is not about
    content, main's file (the bot favours main; absent when main deleted it).
    """
    if not entry.is_python:
        return None
    if entry.theirs_bytes is not None:
        after = entry.theirs_bytes
    else:
        after = repo.read_blob(entry.main.oid) if entry.main.oid else b""
    before = repo.read_blob(entry.dev.oid) if entry.dev.oid else b""
    if before == after:
        return None
    if entry.kind is ConflictKind.BINARY:
        return NumstatEntry(entry.path, None, None)
    changes = diff_lines(split_lines(before), split_lines(after), Algorithm.MYERS)
    return NumstatEntry(entry.path, sum(c.chg2 for c in changes), sum(c.chg1 for c in changes))


def _total(entries: list[NumstatEntry] | tuple[NumstatEntry, ...]) -> LineStats:
    return LineStats(
        added=sum(e.added or 0 for e in entries),
        deleted=sum(e.deleted or 0 for e in entries),
        files=len(entries),
    )
