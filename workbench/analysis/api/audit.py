"""The API-mismatch audit: one side's caller against the other side's callee.

Which code is checked: every line of the result that one side brought in
(see ``view.py``), in Python files either side changed.  What is reported:
an import, call or name that fails in the merged tree *and works in the
tree of the side the code came from*.  That second condition is what keeps
the audit quiet: code that was already broken, or that reaches into things
the repository does not hold (``torch``, dynamic attributes), never fails
only in the merge, so it is never reported.  How a finding is worded, and
which hunk it lands on, is ``findings.py``.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable
from typing import Final

from tree_sitter import Node

from workbench.analysis.api.binding import CLASS, FUNCTION, MISSING, Resolution, Target, TreeModules
from workbench.analysis.api.calls import Arguments, Problem, check_call
from workbench.analysis.api.definition_changes import History, Key, shape
from workbench.analysis.api.findings import Findings, PathFindings, rename_hint, shas
from workbench.analysis.api.refs import Reference, references
from workbench.analysis.api.triage import CALL, Triage, lost_candidates
from workbench.analysis.api.view import OTHER, SIDES, FileView, file_view
from workbench.analysis.model import MismatchKind, SyncAnalysis, Whose
from workbench.analysis.python.module_index import Import, ModuleIndex
from workbench.analysis.python.parse import parse
from workbench.analysis.python.undefined import undefined_uses
from workbench.analysis.readers import Trees
from workbench.git.types import CommitLookup, TreeRole
from workbench.wording import plural

MISSING_IMPORT: Final = "missing-import"
MISSING_ATTRIBUTE: Final = "missing-attribute"
ARITY: Final = "arity"
UNKNOWN_KEYWORD: Final = "unknown-keyword"
UNDEFINED_NAME: Final = "undefined-name"
_DEFINITION = re.compile(
    rb"^\s*(?:async\s+)?def\s+(\w+)|^\s*class\s+(\w+)|^(?:\s*self\.)?(\w++)\s*+(?::\s*+[\w.\[\], |]++)?\s*+=(?!=)"
)
"""A line defining a name: a function, a class, a module-level assignment or an attribute."""
_IMPORT = re.compile(rb"\bimport\s+(.*)")
_WORD = re.compile(rb"[A-Za-z_]\w*")


class Auditor:
    """Runs the audit over one analysis; holds the per-run caches and, in ``findings``, what it found."""

    def __init__(
        self, analysis: SyncAnalysis, trees: Trees, history: History, commit: CommitLookup,
        override: Callable[[str], bool] = lambda path: False, only: frozenset[str] | None = None,
    ) -> None:
        self.analysis = analysis
        self.override = override
        self.only = only
        self.trees = trees
        self.history = history
        roles: tuple[TreeRole, ...] = ("result", "dev", "main", "base")
        self.ws = {role: TreeModules(role, trees) for role in roles}
        self.findings = Findings(analysis, self.ws, history, commit)
        self.triage = Triage(self.ws)

    # -- which files ------------------------------------------------------------------

    def candidates(self) -> list[str]:
        """Python files either side changed, plus the conflicted ones, present in the result.

        Asked about some paths only (``only``), the audit keeps to them and
        to the files that use a name their hunks define: a caller elsewhere
        is what makes a hunk that drops a definition risky.
        """
        paths = {f.path for f in self.analysis.files if f.is_python}
        for side in SIDES:
            paths.update(c.path for c in self.trees.files.changes("base", side) if c.path.endswith(".py") and c.status != "D")
        if self.only is not None:
            paths &= self.only | self._callers(self.only)
        return sorted(p for p in paths if self.trees.present("result", p))

    def _callers(self, paths: frozenset[str]) -> set[str]:
        """Result files using a name that a hunk of ``paths`` defines on either side (by the word: a superset)."""
        names: set[str] = set()
        for path in paths:
            entry = self.analysis.file(path)
            for hunk in entry.hunks if entry is not None and entry.is_python else ():
                for line in (*hunk.dev_text, *hunk.main_text):
                    names.update(_defined_names(line))
        return set(self.trees.files.grep("result", *sorted(names))) if names else set()

    def found_in(self, path: str) -> PathFindings:
        """What auditing ``path`` adds to ``findings``: a path's checks read other paths' code, never
        their findings, so paths are audited in any order or process, then put in ``candidates()`` order."""
        mismatches, notes = len(self.findings.mismatches), len(self.findings.notes)
        self.audit_path(path)
        return PathFindings(tuple(self.findings.mismatches[mismatches:]), tuple(self.findings.notes[notes:]))

    def audit_path(self, path: str) -> None:
        changed = self.triage.changed_imports(path)
        if changed is None and not self.override(path):
            return
        view = file_view(
            path, self.analysis.file(path), self.ws["result"], self.ws,
            self.ws["base"].blob(path), self.ws["base"].read(path), self.override(path),
        )
        if view is None:
            return
        risky, lost = self.triage.risky(view, changed or [])
        if risky or lost:
            self.audit_file(view, risky, lost)

    def audit_file(self, view: FileView, risky: frozenset[str], lost: bool) -> None:
        """Check the imports and uses of ``risky`` names on the lines the sides brought in."""
        index = self.ws["result"].index(view.path)
        if index is None:
            return
        for imp in index.all_imports:
            if imp.local in risky:
                for side in view.sides_at(imp.line, imp.end_line):
                    self.check_import(view, imp, side)
        wanted = view.side_lines["main"] | view.side_lines["dev"]
        root = parse(view.blobs["result"] or "", view.data).root_node
        for ref in references(root, wanted, risky):
            for side in view.sides_at(ref.line):
                self.check_reference(view, index, ref, side)
        if lost:
            self.check_names(view, index, root)

    # -- imports ----------------------------------------------------------------------

    def check_import(self, view: FileView, imp: Import, side: Whose) -> None:
        merged, mine = self.ws["result"], self.ws[side]
        mine_path = mine.module_path(imp.module)
        if mine_path is None:
            return
        merged_path = merged.module_path(imp.module)
        if merged_path == mine_path and merged.blob(merged_path) == mine.blob(mine_path) and not mine_path.endswith("__init__.py"):
            return
        if imp.name is None:
            if merged_path is None and self._side_imports(view, side, imp):
                self._missing_module(view, imp, side, mine_path)
            return
        if merged_path is None:
            if self._side_imports(view, side, imp):
                self._missing_module(view, imp, side, mine_path)
            return
        if merged.module_path(f"{imp.module}.{imp.name}") is not None:
            return
        if merged_path == mine_path and not self.triage.symbol_changed(side, merged_path, imp.name, (), 0):
            return
        if merged.member(merged_path, imp.name).kind != MISSING:
            return
        theirs = mine.member(mine_path, imp.name)
        if not theirs.found or not self._side_imports(view, side, imp):
            return
        key = Key(None, imp.name)
        other = OTHER[side]
        change, dropped = self.findings.why_missing(side, mine_path, key)
        hint = rename_hint(change, key, merged.index(merged_path), mine.index(mine_path))
        origin = self.findings.origin(other, merged_path, key, None)
        message = (
            f"{side}'s `from {imp.module} import {imp.name}` fails in the merged tree: {origin}module "
            f"{imp.module} has no `{imp.name}`{hint}{self.findings.cause(side, change, dropped)}"
        )
        self.findings.note_callee(mine_path, side, theirs.line, imp.name, view.path)
        self.findings.add(view, self._name_line(view, imp), imp.name, MISSING_IMPORT, message, side, merged_path,
                          None, shas(change, dropped))

    def _missing_module(self, view: FileView, imp: Import, side: Whose, mine_path: str) -> None:
        message = (
            f"{side}'s import of {imp.module} fails in the merged tree: {mine_path} is not in it "
            "(see deleted files)"
        )
        self.findings.add(view, imp.line, imp.module, MISSING_IMPORT, message, side, mine_path, None, ())

    def _side_imports(self, view: FileView, side: Whose, imp: Import) -> bool:
        """``side``'s own version of the file makes the same import (the code is that side's)."""
        index = self.ws[side].index(view.path)
        if index is None:
            return False
        return any(i.module == imp.module and i.name == imp.name and i.local == imp.local for i in index.all_imports)

    def _name_line(self, view: FileView, imp: Import) -> int:
        """The line of a multi-line import that names ``imp``."""
        word = (imp.name or imp.module).encode()
        for n in range(imp.line, imp.end_line + 1):
            if word in view.lines["result"][n - 1]:
                return n
        return imp.line

    # -- calls and attributes ----------------------------------------------------------

    def check_reference(self, view: FileView, index: ModuleIndex, ref: Reference, side: Whose) -> None:
        if self._unchanged(view, index, ref, side):
            return
        merged = self.ws["result"].chain(view.path, index, list(ref.chain), ref.line)
        if merged is None:
            return
        if merged.target.kind == MISSING and merged.failed is not None:
            self._missing_attribute(view, ref, side, merged)
        elif ref.args is not None and merged.complete and merged.target.kind in (FUNCTION, CLASS):
            problem = self._problem(self.ws["result"], merged.target, ref.args)
            if problem is not None:
                self._bad_call(view, ref, side, merged, problem)

    def _unchanged(self, view: FileView, index: ModuleIndex, ref: Reference, side: Whose) -> bool:
        """What the reference uses has the same definition in ``side``'s tree and the result.

        Then it resolves the same way in both, and cannot be a mismatch;
        this spares parsing the modules a file imports from.
        """
        head = ref.chain[0]
        imports = () if head in ("self", "cls") else index.binding(head, ref.line)
        if not imports:
            typed = self._typed_unchanged(view, index, ref, side)
            return typed if typed is not None else view.blobs["result"] == view.blobs[side]
        imp = imports[0]
        rest = list(ref.chain[1:]) + ([CALL] if ref.args is not None else [])
        return not self.triage.chain_changed(side, imp.module, imp.name, rest)

    def _typed_unchanged(self, view: FileView, index: ModuleIndex, ref: Reference, side: Whose) -> bool | None:
        """For a receiver declared as an imported class: whether what the use reaches is the same in both trees.

        None when the receiver has no such declaration (the caller decides by the file's blobs).
        """
        head = ref.chain[0]
        receiver, rest = (f"self.{ref.chain[1]}", ref.chain[2:]) if head == "self" and len(ref.chain) > 2 else (head, ref.chain[1:])
        types = self.triage.receivers(view.path).get(receiver)
        if not types or head == "cls":
            return None
        use = [*rest, *([CALL] if ref.args is not None else [])]
        for declared in sorted(types):
            first, *more = declared.split(".")
            imports = index.binding(first, ref.line)
            if not imports:
                return None
            if self.triage.chain_changed(side, imports[0].module, imports[0].name, [*more, *use]):
                return False
        return True

    def _theirs(self, view: FileView, ref: Reference, side: Whose) -> Resolution | None:
        """The same reference resolved in ``side``'s tree, from ``side``'s version of the file."""
        if not view.in_side(side, ref.line):
            return None
        line = view.side_line(side, ref.line)
        index = self.ws[side].index(view.path)
        if line is None or index is None:
            return None
        return self.ws[side].chain(view.path, index, list(ref.chain), line)

    def _missing_attribute(self, view: FileView, ref: Reference, side: Whose, merged: Resolution) -> None:
        depth = len(merged.steps) - 1
        theirs = self._theirs(view, ref, side)
        if theirs is None or len(theirs.steps) <= depth or not theirs.steps[depth].found:
            return
        owner = merged.parent
        name = merged.failed or ref.chain[-1]
        if owner is None or owner.path is None:
            return
        key = Key(owner.cls.name if owner.kind == CLASS and owner.cls is not None else None, name)
        mine = theirs.steps[depth]
        mine_owner = theirs.steps[depth - 1]
        mine_path = mine_owner.path or owner.path
        change, dropped = self.findings.why_missing(side, mine_path, key)
        hint = rename_hint(change, key, self.ws["result"].index(owner.path), self.ws[side].index(mine_path))
        what = merged.target.owner or f"`{ref.chain[depth - 1]}`"
        origin = self.findings.origin(OTHER[side], owner.path, key, None)
        verb = "calls" if ref.args is not None and depth == len(ref.chain) - 1 else "uses"
        message = (
            f"{side}'s code {verb} `{ref.text}`, but {origin}{what} in the merged tree has no `{name}`"
            f"{hint}{self.findings.cause(side, change, dropped)}"
        )
        self.findings.note_callee(mine_path, side, mine.line, str(key), view.path)
        self.findings.add(view, ref.line, name, MISSING_ATTRIBUTE, message, side, owner.path, owner.line,
                          shas(change, dropped))

    def _bad_call(self, view: FileView, ref: Reference, side: Whose, merged: Resolution, problem: Problem) -> None:
        assert ref.args is not None
        theirs = self._theirs(view, ref, side)
        if theirs is None or not theirs.complete or theirs.target.kind != merged.target.kind:
            return
        if self._problem(self.ws[side], theirs.target, ref.args) is not None:
            return
        callee = self._callee(self.ws["result"], merged.target)
        if callee is None or callee.path is None:
            return
        owner = merged.target.cls.name if merged.target.kind == CLASS and merged.target.cls else (
            merged.parent.cls.name if merged.parent is not None and merged.parent.kind == CLASS and merged.parent.cls else None
        )
        name = "__init__" if merged.target.kind == CLASS else ref.chain[-1]
        key = Key(owner, name)
        other = OTHER[side]
        now = shape(self.ws["result"].index(callee.path), key)
        change = self.history.reshaped(other, callee.path, key, now)
        origin = self.findings.origin(other, callee.path, key, now)
        signature = callee.functions[-1].signature()
        kind: MismatchKind = UNKNOWN_KEYWORD if problem.keyword else ARITY
        message = (
            f"{side}'s call `{ref.text}` passes {ref.args.describe()}, but the merged tree has "
            f"{origin}`{signature}`: {problem.detail}{self.findings.cause(side, change, None, changed=True)}"
        )
        self.findings.add(view, ref.line, ref.chain[-1], kind, message, side, callee.path, callee.line,
                          shas(change, None))

    def _callee(self, ws: TreeModules, target: Target) -> Target | None:
        if target.kind == FUNCTION:
            return target
        if target.kind == CLASS and target.cls is not None and target.path is not None:
            found = ws.constructor(target.path, target.cls)
            return found if found.kind == FUNCTION else None
        return None

    def _problem(self, ws: TreeModules, target: Target, args: Arguments) -> Problem | None:
        callee = self._callee(ws, target)
        if callee is None:
            return None
        return check_call(callee.functions, args, callee.instance)

    # -- names ------------------------------------------------------------------------

    def check_names(self, view: FileView, index: ModuleIndex, root: Node) -> None:
        """Names one side's code uses whose module-level binding the result lost.

        Candidates come from text (no parsing); ``side``'s file is indexed
        only when there are some, and pyflakes runs only on what is left.
        """
        lost: dict[str, set[Whose]] = {}
        for side in SIDES:
            if not view.blobs[side]:
                continue
            candidates = lost_candidates(view, side, index.names | {i.local for i in index.local_imports})
            mine = self.ws[side].index(view.path) if candidates else None
            for name in candidates & mine.names if mine is not None else ():
                if not self._from_star(view.path, index, name):
                    lost.setdefault(name, set()).add(side)
        if not lost:
            return
        uses = undefined_uses(view.path, view.data, lost, root)
        for name, lines in sorted(uses.items()):
            for side in sorted(lost[name]):
                on_side = [n for n in lines if view.in_side(side, n)]
                if on_side:
                    self._undefined(view, name, side, on_side)
                    break

    def _from_star(self, path: str, index: ModuleIndex, name: str) -> bool:
        merged = self.ws["result"]
        for star in index.stars:
            star_path = merged.module_path(star)
            if star_path is None or merged.member(star_path, name).kind != MISSING:
                return True
        return False

    def _undefined(self, view: FileView, name: str, side: Whose, lines: list[int]) -> None:
        bound_at = _binding_line(view, side, name)
        other = OTHER[side]
        dropper = self.findings.dropping_hunk(view.path, side, bound_at)
        commits: tuple[str, ...] = ()
        if dropper is not None:
            commits = dropper.main_commits if other == "main" else dropper.dev_commits
            cause = f"; hunk {dropper.index + 1} took {other}'s side there" + (
                f" ({self.findings.label(commits[0])})" if commits else ""
            )
        else:
            change = self.history.removed(other, view.path, Key(None, name))
            commits = shas(change, None)
            cause = f"; {other}'s {self.findings.label(change.sha)} removed it" if change else ""
        where = f" at line {bound_at}" if bound_at else ""
        uses = plural(len(lines), "use")
        message = (
            f"{side}'s code uses `{name}` ({uses}), but the merged file neither imports nor defines it; "
            f"{side}'s version binds it{where}{cause}"
        )
        self.findings.add(view, lines[0], name, UNDEFINED_NAME, message, side, view.path, None, commits)


def _binding_line(view: FileView, side: Whose, name: str) -> int | None:
    """The first line of ``side``'s file, missing from the result, that names ``name``."""
    gone = view.sets[side] - view.sets["result"]
    pattern = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
    for n, text in enumerate(view.lines[side], start=1):
        if text in gone and pattern.search(text):
            return n
    return None


def _defined_names(line: bytes) -> set[str]:
    """Names ``line`` defines or imports (to find, by the word, the files that could use them)."""
    imported = _IMPORT.search(line)
    if imported:
        return {w.decode("ascii") for w in _WORD.findall(imported[1])} - _KEYWORDS
    found = _DEFINITION.match(line)
    return {name.decode("ascii") for name in found.groups() if name} if found else set()


_KEYWORDS = frozenset(keyword.kwlist)
