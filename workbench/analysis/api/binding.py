"""Resolving names to definitions inside one tree (the result, dev's or main's).

A ``TreeModules`` is one tree's modules, indexed on demand; resolution follows
imports (relative ones, re-exports, ``*``), module attributes, submodules and
class bases as far as the repository holds them.  Anything outside the
repository (``torch``, builtins) resolves to ``unknown``: the audit never
reports what it cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from tree_sitter import Node

from workbench.analysis.api.receivers import attribute_types, declared_type
from workbench.analysis.python.module_index import ROOTS, ClassInfo, Function, ModuleIndex, assigned_attributes, module_index, module_name
from workbench.analysis.python.parse import parse
from workbench.analysis.readers import Trees
from workbench.git.types import TreeRole

MAX_DEPTH = 8
"""Re-export hops and base classes followed before giving up (cycles, deep chains)."""

TargetKind = Literal["module", "function", "class", "name", "missing", "unknown"]
"""What a name resolved to (``unknown``: the lookup gave up)."""
MODULE: Final = "module"
FUNCTION: Final = "function"
CLASS: Final = "class"
NAME: Final = "name"
MISSING: Final = "missing"
UNKNOWN: Final = "unknown"


@dataclass(frozen=True)
class Target:
    """What a name resolved to in one tree."""

    kind: TargetKind
    path: str | None = None
    """The module file holding the definition (or, when missing, the container)."""
    name: str = ""
    functions: tuple[Function, ...] = ()
    cls: ClassInfo | None = None
    line: int | None = None
    owner: str = ""
    """For ``missing``: what lacks the name (``class X``, ``module a.b``)."""
    open: bool = False
    """For ``missing``: a base class lies outside the repository, so it might still exist."""
    instance: bool = False
    """A class reached through ``self``: calls bind the instance."""

    @property
    def found(self) -> bool:
        return self.kind not in (MISSING, UNKNOWN)


UNKNOWN_TARGET = Target(UNKNOWN)


@dataclass(frozen=True)
class Resolution:
    """A dotted chain resolved step by step; ``failed`` is the part that is missing."""

    steps: tuple[Target, ...]
    """What each part of the chain resolved to, as far as resolution went."""
    complete: bool
    """Every part of the chain resolved (the target is the chain's last part)."""
    failed: str | None = None

    @property
    def target(self) -> Target:
        return self.steps[-1]

    @property
    def parent(self) -> Target | None:
        return self.steps[-2] if len(self.steps) > 1 else None


class TreeModules:
    """One tree's Python modules, indexed on first use (indexes are cached by blob id)."""

    def __init__(self, role: TreeRole, trees: Trees) -> None:
        self.role = role
        self.trees = trees
        self._paths: dict[str, str | None] = {}
        self._attrs: dict[tuple[str, int], frozenset[str]] = {}
        self._held: dict[tuple[str, int], dict[str, str]] = {}

    def blob(self, path: str) -> str | None:
        return self.trees.blob_id(self.role, path)

    def read(self, path: str) -> bytes | None:
        return self.trees.read(self.role, path)

    def index(self, path: str) -> ModuleIndex | None:
        blob = self.blob(path)
        if blob is None or not path.endswith(".py"):
            return None
        data = self.read(path)
        return module_index(path, blob, data) if data is not None else None

    def module_path(self, dotted: str) -> str | None:
        """The file of module ``dotted`` in this tree, or None (outside the repository)."""
        if dotted in self._paths:
            return self._paths[dotted]
        found = None
        if dotted:
            rel = dotted.replace(".", "/")
            for root in ROOTS:
                for candidate in (f"{root}{rel}.py", f"{root}{rel}/__init__.py"):
                    if self.blob(candidate) is not None:
                        found = candidate
                        break
                if found:
                    break
        self._paths[dotted] = found
        return found

    # -- names ------------------------------------------------------------------------

    def head(self, path: str, index: ModuleIndex, name: str, line: int) -> Target | None:
        """What ``name`` means at ``line`` of ``path``: an import, a def, a class; None if local."""
        imports = index.binding(name, line)
        if imports:
            found = [self._follow(imp.module, imp.name, 0) for imp in imports]
            return next((t for t in found if t.found), found[0])
        defined = _definition(index, path, name)
        if defined is not None:
            return defined
        if name in index.names:
            return Target(NAME, path, name)
        return None

    def _follow(self, module: str, name: str | None, depth: int) -> Target:
        path = self.module_path(module)
        if path is None:
            return UNKNOWN_TARGET
        if name is None:
            return Target(MODULE, path, module)
        return self.member(path, name, depth)

    def member(self, path: str, name: str, depth: int = 0) -> Target:
        """Attribute ``name`` of the module at ``path``."""
        index = self.index(path)
        if index is None or depth > MAX_DEPTH:
            return UNKNOWN_TARGET
        defined = _definition(index, path, name)
        if defined is not None:
            return defined
        if name in index.imports:
            imp = index.imports[name][0]
            found = self._follow(imp.module, imp.name, depth + 1)
            return found if found.found else Target(NAME, path, name, line=imp.line)
        if name in index.names:
            return Target(NAME, path, name)
        sub = self.module_path(f"{module_name(path)}.{name}") if path.endswith("__init__.py") else None
        if sub is not None:
            return Target(MODULE, sub, name)
        for star in index.stars:
            star_path = self.module_path(star)
            if star_path is None:
                return UNKNOWN_TARGET
            found = self.member(star_path, name, depth + 1)
            if found.kind != MISSING:
                return found
        if index.dynamic:
            return UNKNOWN_TARGET
        return Target(MISSING, path, name, owner=f"module {module_name(path)}")

    # -- classes ------------------------------------------------------------------------

    def attribute(self, path: str, cls: ClassInfo, name: str, depth: int = 0) -> Target:
        """Attribute ``name`` of class ``cls`` (defined in ``path``), searching its bases."""
        if name in cls.methods:
            fns = cls.methods[name]
            return Target(FUNCTION, path, f"{cls.name}.{name}", functions=fns, line=fns[-1].line)
        if name in cls.attributes or name in self._assigned(path, cls):
            return Target(NAME, path, f"{cls.name}.{name}")
        if cls.dynamic or depth > MAX_DEPTH:
            return UNKNOWN_TARGET
        open_ = cls.opaque_bases
        for base in cls.bases:
            found = self.base_class(path, base)
            if found is None:
                open_ = open_ or base != "object"
                continue
            result = self.attribute(found[0], found[1], name, depth + 1)
            if result.kind != MISSING:
                return result
            open_ = open_ or result.open
        return Target(MISSING, path, name, line=cls.line, owner=f"class {cls.name}", open=open_)

    def _assigned(self, path: str, cls: ClassInfo) -> frozenset[str]:
        """Attributes the methods of ``cls`` assign on ``self`` (computed on first need)."""
        blob = self.blob(path)
        key = (blob or "", cls.line)
        found = self._attrs.get(key)
        if found is None:
            data = self.read(path)
            found = assigned_attributes(parse(blob, data).root_node, cls) if blob and data is not None else frozenset()
            self._attrs[key] = found
        return found

    def base_class(self, path: str, dotted: str) -> tuple[str, ClassInfo] | None:
        """The repository class a base expression names, or None (outside, or not a class)."""
        index = self.index(path)
        if index is None:
            return None
        parts = dotted.split(".")
        target = self.head(path, index, parts[0], 0)
        for part in parts[1:]:
            if target is None or target.kind != MODULE or target.path is None:
                return None
            target = self.member(target.path, part)
        if target is None or target.kind != CLASS or target.cls is None or target.path is None:
            return None
        return target.path, target.cls

    def constructor(self, path: str, cls: ClassInfo) -> Target:
        """``__init__`` of ``cls`` or of its nearest repository base; unknown when unknowable."""
        if cls.is_dataclass_like or "__new__" in cls.methods:
            return UNKNOWN_TARGET
        found = self.attribute(path, cls, "__init__")
        if found.kind != FUNCTION:
            return UNKNOWN_TARGET
        return replace(found, instance=True)

    # -- chains ------------------------------------------------------------------------

    def chain(
        self, path: str, index: ModuleIndex, parts: list[str], line: int, typed: bool = True
    ) -> Resolution | None:
        """Resolve ``a.b.c`` at ``line`` of ``path``; None when its head is a local value of unknown class.

        A receiver whose class is declared (``receivers.py``: an annotation,
        a constructor assignment, at function or module level, or on
        ``self``) resolves to an instance of that class; ``typed=False``
        (resolving a declared type itself) does not look further.
        """
        head = parts[0]
        if head in ("self", "cls"):
            cls = index.class_at(line)
            if cls is None:
                return None
            target: Target = Target(CLASS, path, cls.name, cls=cls, line=cls.line, instance=head == "self")
        else:
            found = self.head(path, index, head, line)
            if typed and len(parts) > 1 and (found is None or found.kind == NAME):
                if found is None or found.path in (None, path):
                    held = self.instance(path, head, line)
                else:
                    held = self.instance(found.path, found.name, None)
                found = held or found
            if found is None:
                return None
            target = found
        steps = [target]
        for part in parts[1:]:
            if target.kind == MODULE and target.path is not None:
                step = self.member(target.path, part)
            elif target.kind == CLASS and target.cls is not None and target.path is not None:
                step = replace(self.attribute(target.path, target.cls, part), instance=target.instance)
                if typed and step.kind == NAME and target.instance:
                    step = self._held_by(target.path, target.cls, part) or step
            else:
                return Resolution(tuple(steps), complete=False)
            steps.append(step)
            target = step
            if step.kind == MISSING:
                return Resolution(tuple(steps), complete=False, failed=part)
            if step.kind == UNKNOWN:
                return Resolution(tuple(steps), complete=False)
        return Resolution(tuple(steps), complete=True)

    # -- receivers -------------------------------------------------------------------

    def instance(self, path: str | None, name: str, line: int | None) -> Target | None:
        """The class instance ``name`` holds at ``line`` of ``path`` (None: at module level), if declared."""
        root = self._root(path)
        if root is None or path is None:
            return None
        return self._instance_of(path, declared_type(root, name, line), line or 0)

    def _held_by(self, path: str, cls: ClassInfo, attribute: str) -> Target | None:
        """The class instance ``self.<attribute>`` of ``cls`` holds, if declared in the class."""
        key = (self.blob(path) or "", cls.line)
        held = self._held.get(key)
        if held is None:
            root = self._root(path)
            held = self._held[key] = attribute_types(root, cls.line) if root is not None else {}
        return self._instance_of(path, held.get(attribute), cls.line)

    def _instance_of(self, path: str, declared: str | None, line: int) -> Target | None:
        index = self.index(path)
        if declared is None or index is None:
            return None
        found = self.chain(path, index, declared.split("."), line, typed=False)
        if found is None or not found.complete or found.target.kind != CLASS:
            return None
        return replace(found.target, instance=True)

    def _root(self, path: str | None) -> Node | None:
        blob = self.blob(path) if path is not None else None
        data = self.read(path) if path is not None else None
        return parse(blob, data).root_node if blob and data is not None else None


def _definition(index: ModuleIndex, path: str, name: str) -> Target | None:
    """The class or function ``name`` defines at module level (the last one wins)."""
    if name in index.classes:
        cls = index.classes[name][-1]
        return Target(CLASS, path, name, cls=cls, line=cls.line)
    if name in index.functions:
        fns = index.functions[name]
        return Target(FUNCTION, path, name, functions=fns, line=fns[-1].line)
    return None
