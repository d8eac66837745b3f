"""Which files, and which names in them, can hold a mismatch: decided from text.

Parsing is the expensive part of the audit, so before any file is parsed
this decides whether anything one side brought into it could resolve
differently in the merged tree.  A use can only break when what it uses has
a different *interface* (``symbols.py``: a function's header, a class's
header and the member used, its constructor for a call) in that side's tree
than in the result.  Imports are read from text, submodules and re-exports
are followed by blob ids and text, and only when an interface differs is a
module parsed.  Everything is memoised for the run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workbench.analysis.api.binding import MISSING, TreeModules
from workbench.analysis.api.receivers import receiver_types
from workbench.analysis.api.symbols import Surface, interface, top_level_names
from workbench.analysis.api.view import SIDES, FileView, imported_modules
from workbench.analysis.model import Whose
from workbench.analysis.python.builtin_names import BUILTINS
from workbench.git.types import TreeRole

ImportTriple = tuple[str, str | None, str]
"""(module, imported name, local name) of one import, read from text."""


class Triage:
    """What needs checking in one run; holds the per-run memos."""

    def __init__(self, ws: dict[TreeRole, TreeModules]) -> None:
        self.ws = ws
        self._import_cache: dict[str, set[ImportTriple]] = {}
        self._modules_changed: dict[tuple[Whose, str, str | None], bool] = {}
        self._chains_changed: dict[tuple[Whose, str, str | None, tuple[str, ...]], bool] = {}
        self._receiver_cache: dict[str, dict[str, set[str]]] = {}

    def changed_imports(self, path: str) -> list[ImportTriple] | None:
        """The result's imports from modules that differ between some side's tree and the result.

        None when nothing else needs a look either: the result is one side's
        version and the other side's is the base's (or the same).  Decided
        from blob ids and text alone, before the base's version is read.
        """
        imports = self.imports(path, self.ws["result"].blob(path), self.ws["result"].read(path) or b"")
        changed = [imp for imp in imports if any(self._module_changed(side, imp[0], imp[1]) for side in SIDES)]
        if not changed and self._one_sided(path):
            return None
        return changed

    def risky(self, view: FileView, changed: list[ImportTriple]) -> tuple[frozenset[str], bool]:
        """The names whose uses need checking, and whether a binding may have been lost.

        A use needs checking when what it uses has a different interface in
        its side's tree than in the result (``symbols.py`` compares the text
        of headers): an imported definition, or one of the file's own
        (functions, classes, ``self.x`` members) when the result is not that
        side's version of the file.  When nothing does, the file is not
        even parsed.
        """
        risky: set[str] = set()
        lost = False
        for side in SIDES:
            lines = view.side_lines[side]
            if not lines:
                continue
            own = view.blobs["result"] != view.blobs[side] and view.blobs[side] is not None
            names = self._own_names(view, side) if own else frozenset()
            heads = {local.encode() for _, _, local in changed} | {n.encode() for n in names} | {b"self", b"cls"}
            typed = self._typed_receivers(view, changed)
            heads |= {receiver.split(".", 1)[0].encode() for receiver in typed}
            uses = _uses(b"\n".join(view.lines["result"][n - 1] for n in lines), heads)
            for module, name, local in changed:
                if local not in risky and any(self.chain_changed(side, module, name, use) for use in uses.get(local, ())):
                    risky.add(local)
            risky |= self._receivers_changed(side, changed, typed, uses)
            if own:
                risky |= self._own_changed(view, side, names, uses)
                lost = lost or (
                    view.blobs["result"] not in (view.blobs["dev"], view.blobs["main"])
                    and bool(lost_candidates(view, side, self._text_bindings(view.path, view.blobs["result"], view.data)))
                )
        return frozenset(risky), lost

    def receivers(self, path: str) -> dict[str, set[str]]:
        """The typed receivers ``risky`` found in the result's ``path`` (``buf``/``self.buf`` -> declared classes)."""
        return self._receiver_cache.get(path, {})

    def _typed_receivers(self, view: FileView, changed: list[ImportTriple]) -> dict[str, set[str]]:
        """Receivers (``buf``, ``self.buf``) the result declares as instances of a name it imports from a changed module."""
        found = self._receiver_cache.get(view.path)
        if found is None:
            found = receiver_types(view.data, (local for _, _, local in changed)) if changed else {}
            self._receiver_cache[view.path] = found
        return found

    def _receivers_changed(
        self, side: Whose, changed: list[ImportTriple], typed: dict[str, set[str]], uses: dict[str, set[tuple[str, ...]]]
    ) -> set[str]:
        """The heads (``buf``, ``self``) whose uses reach a member that differs between ``side``'s tree and the result."""
        risky: set[str] = set()
        for receiver, types in sorted(typed.items()):
            head, _, attribute = receiver.partition(".")
            chains = [u[1:] for u in uses.get(head, ()) if u and u[0] == attribute] if attribute else uses.get(head, ())
            for declared in sorted(types):
                first, *rest = declared.split(".")
                if any(
                    local == first and self.chain_changed(side, module, name, (*rest, *use))
                    for module, name, local in changed
                    for use in chains
                ):
                    risky.add(head)
        return risky

    def _own_names(self, view: FileView, side: Whose) -> frozenset[str]:
        mine_data = b"\n".join(view.lines[side]) + b"\n"
        return top_level_names(view.blobs["result"] or "", view.data) | top_level_names(view.blobs[side] or "", mine_data)

    def _own_changed(
        self, view: FileView, side: Whose, names: frozenset[str], uses: dict[str, set[tuple[str, ...]]]
    ) -> set[str]:
        """The file's own definitions whose interface, as ``side``'s code uses them, is not ``side``'s."""
        mine_blob = view.blobs[side]
        result_blob = view.blobs["result"] or ""
        if mine_blob is None:
            return set()
        mine_data = b"\n".join(view.lines[side]) + b"\n"
        risky: set[str] = set()
        for name in names & uses.keys():
            there = interface(result_blob, view.data, name)
            theirs = interface(mine_blob, mine_data, name)
            if (there is None) != (theirs is None) or (
                there is not None and theirs is not None and any(_surface_differs(there, theirs, u) for u in uses[name])
            ):
                risky.add(name)
        members = {use[0] for head in ("self", "cls") for use in uses.get(head, ()) if use and use[0] != CALL}
        for name in names if members else ():
            there = interface(result_blob, view.data, name) or ()
            theirs = interface(mine_blob, mine_data, name) or ()
            if any(s.is_class for s in there + theirs) and any(
                [s.member(m) for s in there] != [s.member(m) for s in theirs] for m in members
            ):
                risky |= {"self", "cls"}
                break
        return risky

    def _text_bindings(self, path: str, blob: str | None, data: bytes) -> set[str]:
        return _bindings(self.imports(path, blob, data), data)

    def _one_sided(self, path: str) -> bool:
        """Each side's version is the base's or the result's: no side brought in text the result lacks."""
        result, base = self.ws["result"].blob(path), self.ws["base"].blob(path)
        return all(self.ws[side].blob(path) in (result, base) for side in SIDES)

    def _module_changed(self, side: Whose, module: str, name: str | None) -> bool:
        """The module an import names (``M`` or ``M.name``) is not the same blob in both trees (memoised)."""
        key = (side, module, name)
        found = self._modules_changed.get(key)
        if found is None:
            found = self._modules_changed[key] = self._compare_module(side, module, name)
        return found

    def _compare_module(self, side: Whose, module: str, name: str | None) -> bool:
        merged, mine = self.ws["result"], self.ws[side]
        for dotted in ((f"{module}.{name}",) if name else ()) + (module,):
            merged_path, mine_path = merged.module_path(dotted), mine.module_path(dotted)
            if merged_path is None and mine_path is None:
                continue
            return merged_path != mine_path or merged_path is None or merged.blob(merged_path) != mine.blob(merged_path)
        return False

    def _is_module(self, dotted: str) -> bool:
        return self.ws["result"].module_path(dotted) is not None or any(
            self.ws[side].module_path(dotted) is not None for side in SIDES
        )

    def chain_changed(self, side: Whose, module: str, name: str | None, rest: Sequence[str]) -> bool:
        key = (side, module, name, tuple(rest))
        found = self._chains_changed.get(key)
        if found is None:
            found = self._chains_changed[key] = self._compare_chain(side, module, name, rest)
        return found

    def _compare_chain(self, side: Whose, module: str, name: str | None, rest: Sequence[str]) -> bool:
        """Whether ``module[.name].rest`` may resolve differently in ``side``'s tree and the result.

        Walks submodules first; the first part that is not a module is a
        definition, compared by its interface (``symbols.py``) as far as the
        use needs: ``CALL`` its signature (a class: its constructor), an
        attribute that member, nothing its existence.
        """
        merged, mine = self.ws["result"], self.ws[side]
        dotted, parts = module, [*([name] if name else []), *rest]
        for i in range(len(parts) + 1):
            merged_path, mine_path = merged.module_path(dotted), mine.module_path(dotted)
            if merged_path is None and mine_path is None:
                return False
            if merged_path != mine_path or merged_path is None:
                return True
            if i == len(parts) or parts[i] == CALL:
                return merged.blob(merged_path) != mine.blob(merged_path)
            deeper = f"{dotted}.{parts[i]}"
            if self._is_module(deeper):
                dotted = deeper
                continue
            return self.symbol_changed(side, merged_path, parts[i], parts[i + 1:], 0)
        return True

    def symbol_changed(self, side: Whose, path: str, name: str, use: Sequence[str], depth: int) -> bool:
        """Whether definition ``name`` of ``path`` differs, for ``use``, between ``side``'s tree and the result."""
        merged, mine = self.ws["result"], self.ws[side]
        merged_blob, mine_blob = merged.blob(path), mine.blob(path)
        if merged_blob == mine_blob:
            return False
        merged_data, mine_data = merged.read(path), mine.read(path)
        if merged_blob is None or mine_blob is None or merged_data is None or mine_data is None:
            return True
        there, theirs = interface(merged_blob, merged_data, name), interface(mine_blob, mine_data, name)
        if there is None and theirs is None:
            return self._reexport_changed(side, path, name, use, depth)
        if there is None or theirs is None:
            return True
        if use and use[0] != CALL and there == theirs and all(_variable(x) for x in there + theirs):
            return self._held_class_changed(side, path, name, there, use, depth)
        return _surface_differs(there, theirs, use)

    def _held_class_changed(
        self, side: Whose, path: str, name: str, surfaces: tuple[Surface, ...], use: Sequence[str], depth: int
    ) -> bool:
        """A module variable (``pool = BufferPool()``) used for its members: compare the class it holds.

        Without a declared class the members are unknowable, and the use
        counts as changed (the parse decides).
        """
        matches = [_HELD.match(s.header) for s in surfaces]
        declared = {(m.group(1) or m.group(2)).decode() for m in matches if m is not None and (m.group(1) or m.group(2))}
        if len(declared) != 1 or depth >= 3:
            return True
        first, *rest = next(iter(declared)).split(".")
        data = self.ws["result"].read(path) or b""
        sources = {(m, n) for m, n, local in self.imports(path, self.ws["result"].blob(path), data) if local == first}
        if len(sources) == 1:
            module, imported = next(iter(sources))
            return self.chain_changed(side, module, imported, (*rest, *use))
        return self.symbol_changed(side, path, first, (*rest, *use), depth + 1)

    def _reexport_changed(self, side: Whose, path: str, name: str, use: Sequence[str], depth: int) -> bool:
        """``name`` is bound in ``path`` some other way, usually a re-export: follow it, then compare.

        The import is read from text first (a package ``__init__`` is parsed
        only when that fails); both trees must import it from the same place.
        """
        if depth >= 3:
            return True
        sources = []
        for role in ("result", side):
            data = self.ws[role].read(path) or b""
            found = {(module, imported) for module, imported, local in self.imports(path, self.ws[role].blob(path), data) if local == name}
            sources.append(found)
        if len(sources[0]) == 1 and sources[0] == sources[1]:
            module, imported = next(iter(sources[0]))
            return self.chain_changed(side, module, imported, use)
        there, theirs = self.ws["result"].member(path, name), self.ws[side].member(path, name)
        if there.kind != theirs.kind or there.path != theirs.path or there.path in (None, path):
            return there.kind != theirs.kind or there.path != theirs.path or (there.kind not in (MISSING, "unknown") and there.path == path)
        return self.symbol_changed(side, there.path or path, there.name.rsplit(".", 1)[-1], use, depth + 1)

    def imports(self, path: str, blob: str | None, data: bytes) -> set[ImportTriple]:
        """``imported_modules``, memoised by blob for the run."""
        if blob is None:
            return imported_modules(path, data)
        found = self._import_cache.get(blob)
        if found is None:
            found = self._import_cache[blob] = imported_modules(path, data)
        return found


_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_TOP_LEVEL_BINDING = re.compile(rb"^(?:(?:async[ \t]+)?def[ \t]+(\w+)|class[ \t]+(\w+)|(\w+)[ \t]*(?::[^=\n]*)?=(?!=))", re.M)


CALL = "()"
"""A use that calls the definition: its signature matters."""


_USE = re.compile(rb"([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*)[ \t]*(\()?")


def _uses(text: bytes, heads: set[bytes]) -> dict[str, set[tuple[str, ...]]]:
    """How ``text`` uses each of ``heads``: ``a.b.c(`` gives ``a: (b, c, CALL)``; a bare ``a`` gives ``()``."""
    uses: dict[str, set[tuple[str, ...]]] = {}
    for head, chain, called in _USE.findall(text):
        if head not in heads:
            continue
        parts = chain.decode("ascii")[1:].split(".") if chain else []
        uses.setdefault(head.decode("ascii"), set()).add((*parts, *((CALL,) if called else ())))
    return uses


def _surface_differs(there: tuple[Surface, ...], theirs: tuple[Surface, ...], use: Sequence[str]) -> bool:
    """Whether two interfaces of a definition differ for ``use`` (see ``_chain_changed``)."""
    if not use:
        return False
    classes = all(s.is_class for s in there + theirs)
    if use[0] == CALL:
        if not classes:
            return there != theirs
        if any(s.generated_init for s in there + theirs):
            return False
        return _constructor(there) != _constructor(theirs)
    if not classes:
        return there != theirs
    return [(s.header, s.member(use[0])) for s in there] != [(s.header, s.member(use[0])) for s in theirs]


_HELD = re.compile(
    rb"[ \t]*\w+[ \t]*(?::[ \t]*(?:(?:Optional|Final)\[)?[\"']?([A-Za-z_][\w.]*)[^=\n]*)?"
    rb"(?:=[ \t]*([A-Za-z_][\w.]*)[ \t]*\()?"
)
"""``x: T = ...`` or ``x = T(...)``: the class a module variable's header declares."""
_DEF_HEADER = re.compile(rb"^[ \t]*(?:@|(?:async[ \t]+)?def\b)")


def _variable(surface: Surface) -> bool:
    """A surface that is an assignment (not a function or class header)."""
    return not surface.is_class and _DEF_HEADER.match(surface.header) is None


def _constructor(surfaces: tuple[Surface, ...]) -> list[tuple[bytes, tuple[bytes, ...]]]:
    return [(s.header, s.member("__init__") + s.member("__new__")) for s in surfaces]


def _bindings(imports: set[ImportTriple], data: bytes) -> set[str]:
    """Names a file's text binds at column 0 or by an import (a generous superset of its module names)."""
    found = {local for _, _, local in imports}
    for match in _TOP_LEVEL_BINDING.finditer(data):
        found.update(g.decode("ascii", "replace") for g in match.groups() if g)
    return found


def lost_candidates(view: FileView, side: Whose, merged: frozenset[str] | set[str]) -> set[str]:
    """Names ``side``'s file may bind that the result does not, used on lines the result kept from ``side``.

    Read from text, so that ``side``'s file is parsed only when there is
    a candidate; pyflakes then decides which uses really fail.
    """
    data = b"\n".join(view.lines[side])
    names = _bindings(imported_modules(view.path, data), data) - merged - BUILTINS
    if not names:
        return set()
    kept = b"\n".join(view.sets[side] & view.sets["result"])
    alternatives = b"|".join(re.escape(name.encode()) for name in sorted(names))
    return {word.decode("ascii") for word in re.findall(rb"\b(?:" + alternatives + rb")\b", kept)}
