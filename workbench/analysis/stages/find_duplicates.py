"""The ``find_duplicates`` stage: names the merge defined twice (``risk/duplicates.py``).

Both sides add the same field or function at different places; git merges
the file "cleanly" and the result defines it twice: the docs build or a
test fails days later.  Every Python file git merged from both sides'
changes (its "Auto-merging" messages, conflicted or not, and every file
both sides modified since the base: a merge without conflicts has no
messages) is scanned in the result; what it finds is high, with both definitions' lines, on the hunk
that holds a definition when one does, else on the file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from workbench.analysis.model import DuplicateDefinition, FileAnalysis, Hunk, Signal, SignalKind, SyncAnalysis
from workbench.analysis.readers import Trees
from workbench.analysis.risk.duplicates import MODULE, duplicates
from workbench.analysis.risk.signals import kind_weight
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit

CONTENT_MERGE = "Auto-merging"
"""The kind of git's message for a file it merged from both sides' changes."""
WEIGHT = kind_weight(SignalKind.DUPLICATE_DEFINITION)


@dataclass(frozen=True)
class _Given:
    trees: Trees | None
    paths: tuple[str, ...]
    files: Mapping[str, FileAnalysis] = field(default_factory=dict)
    """The analysis' files by path: a result ``trees`` reads from them is the analysis', the others the scope's."""


def _prepare(analysis: SyncAnalysis, context: AnalysisContext) -> _Given:
    """The Python files both sides changed (none without a whole-tree reader)."""
    if context.repo_files is None:
        return _Given(None, ())
    merged = {
        path
        for message in context.snapshot.merge_tree.messages
        if message.kind == CONTENT_MERGE
        for path in message.paths
        if path.endswith(".py") and (context.paths is None or path in context.paths)
    }
    merged |= {f.path for f in analysis.files if f.is_python and f.dev.present and f.main.present}
    if context.snapshot.base is not None:  # a merge with no conflict at all has no messages: both sides' changes
        files = context.repo_files
        dev, main = ({c.path for c in files.changes("base", side) if c.status == "M"} for side in ("dev", "main"))
        merged |= {p for p in dev & main if p.endswith(".py") and (context.paths is None or p in context.paths)}
    own = {f.path: f for f in analysis.files}
    return _Given(Trees(context.repo_files, own, context.held), tuple(sorted(merged)), own)


def _units(given: _Given) -> list[Unit[str]]:
    return [Unit(path) for path in given.paths]


def _find(given: _Given, path: str) -> tuple[DuplicateDefinition, ...]:
    trees = given.trees
    assert trees is not None
    return duplicates(path, trees.read("dev", path), trees.read("main", path), trees.read("result", path))


def _inputs(given: _Given, path: str) -> tuple[object, ...]:
    """What ``_find`` reads besides the scope: the path, its file's facts when the analysis holds it, else its
    result's blob id (a merge in progress's work tree is read as the stage goes, and may have changed since the
    snapshot; asked here first, ``_find`` reads the same bytes)."""
    entry = given.files.get(path)
    assert given.trees is not None
    return (path, entry) if entry is not None else (path, None, given.trees.blob_id("result", path))


def _fold(analysis: SyncAnalysis, found: Sequence[tuple[DuplicateDefinition, ...]], _given: _Given) -> SyncAnalysis:
    every = tuple(d for per_path in found for d in per_path)
    if not every:
        return analysis
    by_path: dict[str, list[DuplicateDefinition]] = {}
    for d in every:
        by_path.setdefault(d.path, []).append(d)
    files = tuple(_flagged(f, by_path[f.path]) if f.path in by_path else f for f in analysis.files)
    return replace(analysis, files=files, duplicates=every)


STAGE = Stage(
    "find_duplicates", frozenset(), frozenset({Fact.SIGNALS, Fact.DUPLICATES}), _prepare, _units, _find, _fold,
    _inputs,
)
"""Names the merge defined twice: its work reads only the engine's facts, so it is done beside the audit."""


def signal(d: DuplicateDefinition) -> Signal:
    """What a duplicate says, with both definitions' lines and each side's own."""
    owner = "" if d.scope == MODULE else f"{d.scope}."
    sides = ", ".join(f"{side} defines it at line {line}" for side, line in (("dev", d.dev_line), ("main", d.main_line))
                      if line is not None)
    at = " and ".join(str(n) for n in d.lines)
    return Signal(
        SignalKind.DUPLICATE_DEFINITION,
        f"the result defines {owner}{d.name} twice, at lines {at} ({sides or 'neither side defines it'}): "
        "git merged both copies; keep one",
        (),
        WEIGHT,
    )


def _flagged(entry: FileAnalysis, found: list[DuplicateDefinition]) -> FileAnalysis:
    """Each duplicate's signal on the hunks holding one of its definitions, else on the file."""
    hunks, edits, signals = list(entry.hunks), list(entry.edits), list(entry.signals)
    for d in found:
        placed = False
        for group in (hunks, edits):
            for k, hunk in enumerate(group):
                if _holds(hunk, d):
                    group[k] = replace(hunk, signals=(*hunk.signals, signal(d)))
                    placed = True
        if not placed:
            signals.append(signal(d))
    return replace(entry, hunks=tuple(hunks), edits=tuple(edits), signals=tuple(signals))


def _holds(hunk: Hunk, d: DuplicateDefinition) -> bool:
    """Whether the hunk's result lines hold one of the definitions' first lines."""
    where = hunk.result
    return where is not None and any(where.start <= n <= max(where.start, where.end) for n in d.lines)
