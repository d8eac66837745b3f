"""The ``score_files`` stage: risk's signals for the files without hunks (``risk/files.py``).

A modify/delete conflict or a binary has no lines to compare: what decides
is which way the result went and whether the result still imports the file.
The deleted-files audit has looked for the importers of the files main has
and the result lacks, so this stage reads its findings (and waits for them);
the files one side deleted that it did not look at are searched here, with
the same reader and import index.  ``score_risk`` folds these signals into
the files' risk with every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cached_property

from workbench.analysis.model import Importer, Signal, SyncAnalysis
from workbench.analysis.python.importers import find_importers
from workbench.analysis.readers import Trees
from workbench.analysis.risk.evidence import FileEvidence, RunCache
from workbench.analysis.risk.files import file_signals
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit


class _Scorer:
    """The signals of one file without hunks at a time; what every file shares is read once per process."""

    def __init__(self, analysis: SyncAnalysis, context: AnalysisContext) -> None:
        snapshot = context.snapshot
        self.analysis, self._context = analysis, context
        self._run = RunCache.build(
            context.read_blob, context.commit, snapshot.dev_history, snapshot.main_history, analysis.resolver
        )
        self._deleted = {d.path: d for d in analysis.deleted_files}

    def units(self) -> list[Unit[int]]:
        return [Unit(k) for k, entry in enumerate(self.analysis.files) if not entry.hunks]

    def signals(self, index: int) -> tuple[Signal, ...]:
        entry = self.analysis.files[index]
        found = None if self._importers is None else self._importers.get(entry.path)
        evidence = FileEvidence.build(entry, self._run)
        return tuple(file_signals(entry, evidence, self.analysis.mode, found, self._deleted.get(entry.path)))

    @cached_property
    def _importers(self) -> dict[str, tuple[Importer, ...]] | None:
        """Who in the result imports each ``.py`` file one side deleted (None: no repository reader).

        A file the deleted-files audit already looked at (main has it, the
        result lacks it) keeps the audit's answer; the others are searched
        (``importers.py``), when a file first needs them.
        """
        analysis, context = self.analysis, self._context
        files = context.repo_files
        if files is None:
            return None
        targets = [
            f.path
            for f in analysis.files
            if f.is_python and not f.hunks and f.base.present and f.dev.present != f.main.present
        ]
        audited = {d.path: d.importers for d in analysis.deleted_files if d.path in targets}
        rest = [path for path in targets if path not in audited]
        conflicted = {f.path: f for f in analysis.files}
        found = find_importers(rest, Trees(files, conflicted, context.held), list(conflicted)) if rest else {}
        return {**found, **audited}


def _fold(analysis: SyncAnalysis, found: Sequence[tuple[Signal, ...]], scorer: _Scorer) -> SyncAnalysis:
    signals = {unit.key: mine for unit, mine in zip(scorer.units(), found, strict=True) if mine}
    files = tuple(
        replace(entry, signals=(*entry.signals, *signals[k])) if k in signals else entry
        for k, entry in enumerate(analysis.files)
    )
    return replace(analysis, files=files)


STAGE = Stage(
    "score_files", frozenset({Fact.DELETED_FILES}), frozenset({Fact.SIGNALS}), _Scorer, _Scorer.units, _Scorer.signals, _fold
)
"""File-level signals for the files without hunks; reads the deleted-files audit's findings."""
