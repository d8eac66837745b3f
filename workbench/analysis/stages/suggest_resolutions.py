"""The ``suggest_resolutions`` stage: each conflict hunk's menu of exact resolutions and, where the evidence
stands behind one, its suggestion; one choice per file for lock files and measured values (``suggest/``).

The menus read only the hunks' texts and dev's formatter configuration, so
their work is done in the first wave, beside the audits and risk, file by
file in either process (black's layout of main's text is most of it).  A
file that gets one choice as a whole (a lock file, measured values) gets no
menu per hunk: its hunks are decided by the file's choice.  The suggestion
reads every stage's signals, so it is made in the fold, which comes after
risk's: the ladder is a few lookups per hunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.analysis.model import FileAnalysis, FileRung, SyncAnalysis
from workbench.analysis.readers import Trees
from workbench.analysis.seam import AnalysisContext, Fact, Stage, Unit
from workbench.analysis.suggest.files import file_rung, file_suggestion
from workbench.analysis.suggest.formatting import FormatterConfig, load_formatters, read_formatter_config
from workbench.analysis.suggest.hunks import HunkMenu, Known, conflict_hunks, file_menus, suggested
from workbench.analysis.suggest.reflowing import PYTHON_SUFFIXES
from workbench.analysis.suggest.rungs import squash_facts

PYTHON_COST = 20
"""A Python file's menus cost about this many times a data file's of the same size (black lays out main's
text): so the largest are claimed first and one process mostly lays out all of them."""


@dataclass(frozen=True, slots=True)
class FileMenus:
    """What the stage's work finds for one file: its whole-file rung (``file_rung``), else its hunks' menus."""

    rung: FileRung | None
    menus: tuple[HunkMenu, ...]


class _Menus:
    """The menus of one file at a time; the formatter configuration is read once per analysis, and the
    formatters imported here, before the work is shared out, when some Python hunk will be laid out."""

    def __init__(self, analysis: SyncAnalysis, context: AnalysisContext) -> None:
        self.analysis = analysis
        self._known: Known = {}
        python = [f for f in analysis.files if f.path.endswith(PYTHON_SUFFIXES) and conflict_hunks(f)]
        self.formatter = _formatter(context, analysis) if python else None
        if self.formatter is not None:
            load_formatters(self.formatter, [h.main_text for f in python for h in conflict_hunks(f)])

    def units(self) -> list[Unit[int]]:
        return [Unit(k, _cost(entry)) for k, entry in enumerate(self.analysis.files) if conflict_hunks(entry)]

    def inputs(self, index: int) -> tuple[object, ...]:
        """What ``menus(index)`` reads besides the scope (dev's formatter configuration is read from it): the
        file's engine facts, and whether formatters lay it out."""
        return (self.analysis.files[index], self.formatter)

    def menus(self, index: int) -> FileMenus:
        entry = self.analysis.files[index]
        rung = file_rung(entry)
        return FileMenus(rung, () if rung is not None else file_menus(entry, self.formatter, self._known))


def _formatter(context: AnalysisContext, analysis: SyncAnalysis) -> FormatterConfig | None:
    """Dev's formatter configuration, read as data (None: no whole-tree reader, or none configured); a
    conflicted configuration file is read from the versions the merge holds."""
    if context.repo_files is None:
        return None
    trees = Trees(context.repo_files, {f.path: f for f in analysis.files}, context.held)
    return read_formatter_config(lambda path: trees.read("dev", path))


def _cost(entry: FileAnalysis) -> int:
    lines = sum(len(h.base_text) + len(h.dev_text) + len(h.main_text) + 1 for h in conflict_hunks(entry))
    return lines * PYTHON_COST if entry.path.endswith(PYTHON_SUFFIXES) else lines


def _fold(analysis: SyncAnalysis, found: Sequence[FileMenus], menus: _Menus) -> SyncAnalysis:
    squashes = squash_facts([s for f in analysis.files for h in f.hunks for s in h.signals])
    by_file = {unit.key: mine for unit, mine in zip(menus.units(), found, strict=True)}
    files = []
    for k, entry in enumerate(analysis.files):
        if not entry.hunks:
            files.append(entry)
            continue
        rung, made = (by_file[k].rung, by_file[k].menus) if k in by_file else (file_rung(entry), ())
        if made:
            hunks = {h.index: suggested(h, menu, squashes) for h, menu in zip(conflict_hunks(entry), made, strict=True)}
            entry = replace(entry, hunks=tuple(hunks.get(h.index, h) for h in entry.hunks))
        files.append(replace(entry, suggestion=file_suggestion(entry, rung)))
    return replace(analysis, files=tuple(files))


STAGE = Stage(
    "suggest_resolutions", frozenset(), frozenset({Fact.SUGGESTIONS}), _Menus, _Menus.units, _Menus.menus, _fold,
    _Menus.inputs,
)
"""Candidates and suggestions on conflict hunks, suggestions on lock and data files; its fold reads every signal."""
