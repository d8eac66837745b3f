"""Which files of the merge result import a module, and on which line.

A file one side deleted matters when the result still imports it: the
merge compiles and fails at import time.  The result tree is searched by
the git layer (``git grep`` for the module's last name, fixed strings),
then each candidate's imports are parsed (``pyscope``), so a comment, a
string (``sys.modules['megatron.legacy.model']``) or a longer name never
counts.  Conflicted files are read from the analysis, not the tree: their
result may still hold conflict markers, which only the analysis resolves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from workbench.analysis.model import SyncAnalysis
from workbench.analysis.risk.names import main_taken
from workbench.analysis.risk.pyscope import ImportFact, python_facts
from workbench.git.types import ReadBlob

RESULT_TREE = "result_tree"
"""Key of the ``ResultTree`` in ``AnalysisContext.options`` (absent: importers are unknown)."""


class ResultTree(Protocol):
    """The merge result beyond the conflicted paths, as the git layer reads it."""

    def grep(self, words: Sequence[str], under: Sequence[str] = ()) -> dict[str, str]:
        """``.py`` files (path -> blob id) whose text contains any of ``words`` (in ``under``, else anywhere)."""
        ...


@dataclass(frozen=True, slots=True)
class Importer:
    """A line of the result that imports a module."""

    path: str
    line: int
    """1-based."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


def module_of(path: str) -> str:
    """The dotted module a ``.py`` path defines (``pkg/__init__.py`` is ``pkg``)."""
    parts = path[: -len(".py")].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class _Target:
    """What an import of one module must mention, as text, to be worth parsing."""

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
        """Where relative and sibling imports of it can come from without naming its package."""
        return self.parent.replace(".", "/")

    def wide(self) -> list[str]:
        """Strings any importer outside ``folder`` contains (``legacy.model``; ``megatron.legacy`` with the tail)."""
        if not self.parent:
            return [self.tail]
        return [f"{self.parent.rsplit('.', 1)[-1]}.{self.tail}", self.parent]

    def may_import(self, path: str, text: bytes) -> bool:
        tail = self.tail.encode()
        if tail not in text:
            return False
        if not self.parent or path.startswith(self.folder + "/"):
            return True
        near, parent = self.wide()
        return near.encode() in text or parent.encode() in text


def find_importers(
    targets: Sequence[str], analysis: SyncAnalysis, tree: ResultTree, read_blob: ReadBlob
) -> dict[str, tuple[Importer, ...]]:
    """For each target ``.py`` path, the result's lines that import it.

    Two searches for all targets: everywhere for what an absolute or distant
    relative import must name, and in each module's own package for its
    bare name; then each candidate is read, filtered and parsed.
    """
    wanted = [_Target(path, module_of(path)) for path in targets]
    wanted = [t for t in wanted if t.module]
    conflicted = {entry.path: entry for entry in analysis.files}
    candidates = dict(tree.grep(sorted({w for t in wanted for w in t.wide()})))
    folders = sorted({t.folder for t in wanted if t.parent})
    if folders:
        candidates.update(tree.grep(sorted({t.tail for t in wanted if t.parent}), folders))
    texts = {path: read_blob(blob) for path, blob in candidates.items() if path not in conflicted}
    for path, entry in conflicted.items():
        if path.endswith(".py") and entry.result_present and entry.result_bytes is not None:
            texts[path] = main_taken(entry)
    by_module = {t.module: t.path for t in wanted}
    found: dict[str, list[Importer]] = {path: [] for path in targets}
    for path in sorted(texts):
        text = texts[path]
        if not any(t.may_import(path, text) for t in wanted):
            continue
        for fact in python_facts(text, [t.tail for t in wanted]).imports:
            for module in _imported_modules(path, fact):
                target = by_module.get(module)
                if target is not None and target != path:
                    found[target].append(Importer(path, fact.line + 1))
    return {path: tuple(dict.fromkeys(lines)) for path, lines in found.items()}


def _imported_modules(path: str, fact: ImportFact) -> set[str]:
    """Modules an import statement in ``path`` may load: absolute, relative, or a sibling script's."""
    here = path.split("/")[:-1]
    if fact.level:
        if len(here) < fact.level - 1:
            return set()
        bases = [".".join([*here[: len(here) - (fact.level - 1)], *([fact.module] if fact.module else [])])]
    else:
        bases = [fact.module]
        if here and fact.module:
            bases.append(".".join([*here, fact.module]))  # `import loader_base` from a script beside it
    out: set[str] = set()
    for base in bases:
        if base:
            out.add(base)
        out.update(f"{base}.{name}" if base else name for name in fact.names)
    return out


def describe(importers: Sequence[Importer], limit: int = 3) -> str:
    """``a.py:3, b.py:7 and 2 more``."""
    shown = ", ".join(str(i) for i in importers[:limit])
    extra = len(importers) - limit
    return shown + (f" and {extra} more" if extra > 0 else "")

