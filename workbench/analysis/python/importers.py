"""Which files of the merge result import a module one side deleted, and on which line.

The deleted-files audit asks it ``thorough``ly for the files main has and
the result lacks (``SyncAnalysis.deleted_files``), and its answer is reused.
For the others (main deleted the file) the search is narrower: the audit greps the module's last name
(``model`` matches most of Megatron-LM), here one ``git grep`` looks for what
an import from elsewhere must name (``legacy.model``, or the package
``megatron.legacy`` with the name) and one looks for the bare name only in
the module's own package (relative and sibling imports); each candidate
is then read and its parsed imports decide, so a comment or a string
(``sys.modules['megatron.legacy.model']``) never counts.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.analysis.model import Importer
from workbench.analysis.python.module_index import module_index, module_name
from workbench.analysis.readers import Trees


@dataclass(frozen=True)
class _Target:
    """A deleted module and what an import of it must mention to be worth parsing."""

    path: str
    module: str

    @property
    def tail(self) -> str:
        return self.module.rsplit(".", 1)[-1]

    @property
    def parent(self) -> str:
        """The package holding the module (``a.b`` for ``a.b.c``), '' at the top."""
        return self.module.rpartition(".")[0]

    @property
    def folder(self) -> str:
        """The directory whose files may import it without naming its package."""
        folder = posixpath.dirname(self.path)
        return posixpath.dirname(folder) if self.path.endswith("/__init__.py") else folder

    def wide(self) -> list[str]:
        """Strings an import from outside ``folder`` contains: ``legacy.model``; ``megatron.legacy`` (with the tail)."""
        if not self.parent:
            return [self.tail]
        return [f"{self.parent.rsplit('.', 1)[-1]}.{self.tail}", self.parent]

    def may_import(self, path: str, text: bytes) -> bool:
        if self.tail.encode() not in text:
            return False
        if not self.parent or path.startswith(self.folder + "/"):
            return True
        return any(part.encode() in text for part in self.wide())


def find_importers(
    paths: Sequence[str], trees: Trees, conflicted: Sequence[str], thorough: bool = False
) -> dict[str, tuple[Importer, ...]]:
    """For each ``.py`` path, the lines of the result that import it (two searches for all of them).

    ``conflicted``: the analysis' paths, whose result the analysis holds (``trees`` reads it from there).
    ``thorough`` (the deleted-files audit, whose verdict is "restore it"): every file naming the module's
    last name is parsed, so even a relative import from a sibling package (``from ..legacy import model``)
    is found.
    """
    targets = [_Target(path, module_name(path)) for path in paths]
    targets = [t for t in targets if t.module]
    if not targets:
        return {path: () for path in paths}
    if thorough:
        candidates = set(trees.files.grep("result", *sorted({t.tail for t in targets})))
        return _parsed(paths, targets, trees, candidates, thorough=True)
    wide = sorted({word for t in targets for word in t.wide()})
    candidates = set(trees.files.grep("result", *wide))
    near = [t for t in targets if t.parent]
    if near:
        folders = sorted({t.folder for t in near if t.folder})
        tails = sorted({t.tail for t in near})
        candidates.update(trees.files.grep("result", *tails, under=folders) if folders else ())
    candidates.update(path for path in conflicted if path.endswith(".py"))
    return _parsed(paths, targets, trees, candidates)


def _parsed(
    paths: Sequence[str], targets: list[_Target], trees: Trees, candidates: set[str], thorough: bool = False
) -> dict[str, tuple[Importer, ...]]:
    """The candidates' parsed imports of the targets, per target path (``thorough``: every candidate is
    parsed, not only those whose text names the module the way an import from elsewhere must)."""
    by_module = {t.module: t.path for t in targets}
    found: dict[str, list[Importer]] = {path: [] for path in paths}
    for candidate in sorted(candidates):
        blob, text = trees.blob_id("result", candidate), trees.read("result", candidate)
        if blob is None or text is None:
            continue
        if not thorough and not any(t.may_import(candidate, text) for t in targets):
            continue
        for found_import in module_index(candidate, blob, text).all_imports:
            for module in found_import.targets:
                target = by_module.get(module)
                if target is not None and target != candidate:
                    found[target].append(Importer(candidate, found_import.line))
    return {path: tuple(dict.fromkeys(lines)) for path, lines in found.items()}
