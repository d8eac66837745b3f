"""What one Python module defines and imports, read from its syntax tree.

Only what the audit needs: module-level bindings, top-level functions and
classes with their methods' parameters, class attributes (including
``self.x = ...`` in methods) and every import with the lines it covers.
Function bodies are never walked, which keeps an index cheap enough to
build for every module a sync touches.  Indexes are cached by blob id.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum

from tree_sitter import Node

from workbench.analysis.api.parse import captures, dotted, line, matches, parse, text

INDEX_CACHE_SIZE = 4096


class ParamKind(str, Enum):
    POSITIONAL_ONLY = "positional-only"
    POSITIONAL = "positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_POSITIONAL = "var-positional"
    VAR_KEYWORD = "var-keyword"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: ParamKind
    default: bool = False

    def __str__(self) -> str:
        if self.kind is ParamKind.VAR_POSITIONAL:
            return f"*{self.name}"
        if self.kind is ParamKind.VAR_KEYWORD:
            return f"**{self.name}"
        return f"{self.name}=…" if self.default else self.name


@dataclass(frozen=True, slots=True)
class Function:
    """A ``def``: its name, where it starts, its parameters and decorators."""

    name: str
    line: int
    params: tuple[Param, ...]
    decorators: tuple[str, ...] = ()

    @property
    def binding(self) -> str:
        """How calls bind it: ``static``, ``class``, ``property`` or ``plain``."""
        for deco in self.decorators:
            last = deco.rsplit(".", 1)[-1]
            if last == "staticmethod":
                return "static"
            if last == "classmethod":
                return "class"
            if last in ("property", "cached_property") or last.endswith(".setter"):
                return "property"
        return "plain"

    def signature(self) -> str:
        """``name(a, b=…, *args, c, **kw)``, as a reviewer reads it."""
        parts: list[str] = []
        starred = False
        for i, param in enumerate(self.params):
            if param.kind is ParamKind.KEYWORD_ONLY and not starred:
                parts.append("*")
            starred = starred or param.kind in (ParamKind.KEYWORD_ONLY, ParamKind.VAR_POSITIONAL)
            parts.append(str(param))
            after = self.params[i + 1] if i + 1 < len(self.params) else None
            if param.kind is ParamKind.POSITIONAL_ONLY and (after is None or after.kind is not ParamKind.POSITIONAL_ONLY):
                parts.append("/")
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Import:
    """One name an import statement binds."""

    local: str
    module: str
    """Absolute dotted module (relative imports resolved against the file's package)."""
    name: str | None
    """The imported attribute for ``from M import name``; None for ``import M``."""
    line: int
    end_line: int
    scope: tuple[int, int] | None = None
    """Lines of the enclosing function for an import inside one; None at module level."""
    full: str = ""
    """The whole dotted name imported (``a.b.c`` for ``import a.b.c``, which binds only ``a``)."""

    @property
    def targets(self) -> tuple[str, ...]:
        """Modules this import may load: ``M`` and, for ``from M import x``, ``M.x``."""
        return (self.full or self.module,) + ((f"{self.module}.{self.name}",) if self.name else ())


@dataclass(frozen=True)
class ClassInfo:
    """A class: its bases (as written), methods, and every attribute it assigns."""

    name: str
    line: int
    end_line: int
    bases: tuple[str, ...]
    methods: dict[str, tuple[Function, ...]]
    attributes: frozenset[str]
    decorators: tuple[str, ...] = ()
    dynamic: bool = False
    """Defines ``__getattr__``/``__getattribute__``: any attribute may exist."""
    opaque_bases: bool = False
    """A base is not a plain (dotted) name, e.g. ``namedtuple(...)``: unknowable."""

    def has(self, name: str) -> bool:
        return name in self.methods or name in self.attributes

    @property
    def is_dataclass_like(self) -> bool:
        """Constructors generated from fields: no ``__init__`` to check calls against."""
        return any(d.rsplit(".", 1)[-1].split("(")[0] in ("dataclass", "define", "attrs", "frozen") for d in self.decorators)


@dataclass(frozen=True)
class ModuleIndex:
    """The bindings of one module (one blob)."""

    path: str
    imports: dict[str, tuple[Import, ...]]
    local_imports: tuple[Import, ...]
    functions: dict[str, tuple[Function, ...]]
    classes: dict[str, tuple[ClassInfo, ...]]
    names: frozenset[str]
    """Every name bound at module level (imports, defs, classes, assignments)."""
    stars: tuple[str, ...] = ()
    """Modules imported with ``*``."""
    dynamic: bool = False
    """Defines a module-level ``__getattr__``: any attribute may exist."""
    broken: bool = False
    """The parse hit syntax errors (conflict markers, a half-merged statement)."""
    all_imports: tuple[Import, ...] = field(default=(), repr=False)

    def defines(self, name: str) -> bool:
        return name in self.names

    def class_at(self, row_line: int) -> ClassInfo | None:
        """The innermost top-level class whose body holds ``row_line``."""
        for variants in self.classes.values():
            for cls in variants:
                if cls.line <= row_line <= cls.end_line:
                    return cls
        return None

    def binding(self, name: str, at_line: int) -> tuple[Import, ...]:
        """The imports that bind ``name`` at ``at_line`` (function-local ones first)."""
        local = tuple(
            imp for imp in self.local_imports
            if imp.local == name and imp.scope is not None and imp.scope[0] <= at_line <= imp.scope[1]
        )
        return local or self.imports.get(name, ())


_CACHE: OrderedDict[str, ModuleIndex] = OrderedDict()


def module_index(path: str, blob_id: str, data: bytes) -> ModuleIndex:
    """The index of ``data`` (the blob ``blob_id`` at ``path``), cached by blob and path."""
    key = f"{blob_id}:{path}"
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return found
    index = build_index(path, parse(blob_id, data).root_node, data)
    _CACHE[key] = index
    if len(_CACHE) > INDEX_CACHE_SIZE:
        _CACHE.popitem(last=False)
    return index


def package_of(path: str) -> str:
    """The dotted package a file's relative imports start from."""
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    return ".".join(parts[:-1])


def build_index(path: str, root: Node, source: bytes = b"") -> ModuleIndex:
    builder = _Builder(package_of(path))
    for block in _flat_statements(root):
        builder.statement(block)
    local_imports = tuple(builder.local_imports(root, source))
    classes = {
        name: tuple(
            ClassInfo(c.name, c.line, c.end_line, c.bases, c.methods, c.attributes, c.decorators, c.dynamic, c.opaque_bases)
            for c in variants
        )
        for name, variants in builder.classes.items()
    }
    module_imports: dict[str, tuple[Import, ...]] = {
        name: tuple(found) for name, found in builder.imports.items()
    }
    return ModuleIndex(
        path=path,
        imports=module_imports,
        local_imports=local_imports,
        functions={name: tuple(v) for name, v in builder.functions.items()},
        classes=classes,
        names=frozenset(builder.names),
        stars=tuple(builder.stars),
        dynamic="__getattr__" in builder.functions,
        broken=root.has_error,
        all_imports=tuple(i for v in module_imports.values() for i in v) + local_imports,
    )


_CLAUSES = frozenset(
    {"elif_clause", "else_clause", "except_clause", "except_group_clause", "finally_clause", "case_clause"}
)
_COMPOUND = frozenset(
    {"if_statement", "try_statement", "with_statement", "for_statement", "while_statement", "match_statement"}
)


def _flat_statements(node: Node) -> Iterator[Node]:
    """Statements of a block, descending into if/try/with/for/match bodies but not into defs."""
    for child in node.named_children:
        if child.type in _CLAUSES:
            yield from _compound_bodies(child)
            continue
        yield child
        if child.type in _COMPOUND:
            yield from _compound_bodies(child)


def _compound_bodies(node: Node) -> Iterator[Node]:
    for child in node.named_children:
        if child.type == "block":
            yield from _flat_statements(child)
        elif child.type in _CLAUSES:
            yield from _compound_bodies(child)


def _targets(node: Node | None) -> Iterator[str]:
    """Names an assignment target binds (attributes and subscripts bind none)."""
    if node is None:
        return
    if node.type == "identifier":
        yield text(node)
    elif node.type in ("pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list"):
        for child in node.named_children:
            yield from _targets(child)
    elif node.type in ("list_splat_pattern", "list_splat", "parenthesized_expression"):
        for child in node.named_children:
            yield from _targets(child)


def _decorators(node: Node) -> tuple[tuple[str, ...], Node | None]:
    """A decorated definition's decorators (as text, without ``@``) and the definition."""
    decos = tuple(text(d).lstrip("@").strip() for d in node.named_children if d.type == "decorator")
    return decos, node.child_by_field_name("definition")


def parameters(node: Node | None) -> tuple[Param, ...]:
    """The parameters of a ``parameters`` node, with their kinds."""
    if node is None:
        return ()
    params: list[Param] = []
    keyword_only = False
    for child in node.named_children:
        kind_node = child
        if child.type == "typed_parameter":
            first = child.named_children[0] if child.named_children else None
            if first is not None and first.type in ("list_splat_pattern", "dictionary_splat_pattern"):
                kind_node = first
            else:
                name = text(first)
                params.append(Param(name, ParamKind.KEYWORD_ONLY if keyword_only else ParamKind.POSITIONAL))
                continue
        if kind_node.type == "identifier":
            params.append(Param(text(kind_node), ParamKind.KEYWORD_ONLY if keyword_only else ParamKind.POSITIONAL))
        elif kind_node.type in ("default_parameter", "typed_default_parameter"):
            name = text(kind_node.child_by_field_name("name"))
            params.append(Param(name, ParamKind.KEYWORD_ONLY if keyword_only else ParamKind.POSITIONAL, True))
        elif kind_node.type == "list_splat_pattern":
            params.append(Param(text(kind_node).lstrip("*"), ParamKind.VAR_POSITIONAL))
            keyword_only = True
        elif kind_node.type == "dictionary_splat_pattern":
            params.append(Param(text(kind_node).lstrip("*"), ParamKind.VAR_KEYWORD))
        elif kind_node.type == "keyword_separator":
            keyword_only = True
        elif kind_node.type == "positional_separator":
            params = [Param(p.name, ParamKind.POSITIONAL_ONLY, p.default) for p in params]
    return tuple(params)


def _function(node: Node, decorators: tuple[str, ...]) -> Function:
    return Function(
        name=text(node.child_by_field_name("name")),
        line=line(node),
        params=parameters(node.child_by_field_name("parameters")),
        decorators=decorators,
    )


@dataclass
class _ClassDraft:
    name: str
    line: int
    end_line: int
    bases: tuple[str, ...]
    methods: dict[str, tuple[Function, ...]]
    attributes: frozenset[str]
    decorators: tuple[str, ...]
    dynamic: bool
    opaque_bases: bool


def _class(node: Node, decorators: tuple[str, ...]) -> _ClassDraft:
    bases: list[str] = []
    opaque = False
    supers = node.child_by_field_name("superclasses")
    for arg in supers.named_children if supers is not None else ():
        if arg.type == "keyword_argument":
            continue
        target = arg.child_by_field_name("value") if arg.type == "subscript" else arg
        name = dotted(target)
        if name is None:
            opaque = True
        else:
            bases.append(name)
    methods: dict[str, list[Function]] = {}
    attributes: set[str] = set()
    body = node.child_by_field_name("body")
    for stmt in _flat_statements(body) if body is not None else ():
        decos: tuple[str, ...] = ()
        target = stmt
        if stmt.type == "decorated_definition":
            decos, target = _decorators(stmt)
            if target is None:
                continue
        if target.type == "function_definition":
            fn = _function(target, decos)
            methods.setdefault(fn.name, []).append(fn)
        elif target.type == "class_definition":
            attributes.add(text(target.child_by_field_name("name")))
        else:
            attributes.update(_statement_names(target))
    return _ClassDraft(
        name=text(node.child_by_field_name("name")),
        line=line(node),
        end_line=node.end_point[0] + 1,
        bases=tuple(bases),
        methods={k: tuple(v) for k, v in methods.items()},
        attributes=frozenset(attributes),
        decorators=decorators,
        dynamic="__getattr__" in methods or "__getattribute__" in methods,
        opaque_bases=opaque,
    )


def _statement_names(stmt: Node) -> Iterator[str]:
    """Names a simple statement binds (assignments, for/with targets, type aliases)."""
    if stmt.type == "expression_statement":
        for child in stmt.named_children:
            while child is not None and child.type in ("assignment", "augmented_assignment"):
                yield from _targets(child.child_by_field_name("left"))
                child = child.child_by_field_name("right")
    elif stmt.type == "for_statement":
        yield from _targets(stmt.child_by_field_name("left"))
    elif stmt.type == "with_statement":
        clause = next((c for c in stmt.named_children if c.type == "with_clause"), None)
        for item in clause.named_children if clause is not None else ():
            value = item.child_by_field_name("value")
            if value is not None and value.type == "as_pattern":
                alias = value.child_by_field_name("alias")
                yield from _targets(alias.named_children[0] if alias is not None and alias.named_children else None)
    elif stmt.type == "type_alias_statement":
        name = stmt.named_children[0] if stmt.named_children else None
        yield from _targets(name.named_children[0] if name is not None and name.named_children else name)
    elif stmt.type == "global_statement":
        yield from (text(c) for c in stmt.named_children if c.type == "identifier")


class _Builder:
    """Collects module-level bindings while walking the top-level statements."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.imports: dict[str, list[Import]] = {}
        self.functions: dict[str, list[Function]] = {}
        self.classes: dict[str, list[_ClassDraft]] = {}
        self.names: set[str] = set()
        self.stars: list[str] = []

    def statement(self, stmt: Node) -> None:
        decos: tuple[str, ...] = ()
        target = stmt
        if stmt.type == "decorated_definition":
            decos, target = _decorators(stmt)
            if target is None:
                return
        if target.type == "function_definition":
            fn = _function(target, decos)
            self.functions.setdefault(fn.name, []).append(fn)
            self.names.add(fn.name)
        elif target.type == "class_definition":
            cls = _class(target, decos)
            self.classes.setdefault(cls.name, []).append(cls)
            self.names.add(cls.name)
        elif target.type in ("import_statement", "import_from_statement"):
            for imp in imports_of(target, self.package, None, self.stars):
                self.imports.setdefault(imp.local, []).append(imp)
                self.names.add(imp.local)
        else:
            self.names.update(_statement_names(target))

    def local_imports(self, root: Node, source: bytes) -> Iterator[Import]:
        """Imports inside functions, each with the lines of its function.

        Only rows where an indented ``import``/``from`` starts are queried:
        walking every function body of a large module costs more than the
        rest of its index.
        """
        rows: list[int] = []
        row = pos = 0
        for match in _INDENTED_IMPORT.finditer(source):
            row += source.count(b"\n", pos, match.start())
            pos = match.start()
            rows.append(row)
        seen: set[int] = set()
        for row in rows:
            for node in captures("[(import_statement) (import_from_statement)] @i", root, (row, row + 1)).get("i", ()):
                scope = _enclosing_function(node)
                if scope is None or node.id in seen:
                    continue
                seen.add(node.id)
                span = (scope.start_point[0] + 1, scope.end_point[0] + 1)
                yield from imports_of(node, self.package, span, [])


_INDENTED_IMPORT = re.compile(rb"^[ \t]+(?:from|import)\b", re.M)


def _enclosing_function(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type in ("function_definition", "lambda"):
            return parent
        parent = parent.parent
    return None


def _absolute(module: Node | None, package: str) -> str:
    """The absolute dotted name of an import's module (``from ..x import y``)."""
    if module is None:
        return ""
    if module.type != "relative_import":
        return text(module)
    prefix = next((c for c in module.children if c.type == "import_prefix"), None)
    level = len(text(prefix)) if prefix is not None else 0
    rest = next((text(c) for c in module.children if c.type == "dotted_name"), "")
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    return ".".join([*base, *([rest] if rest else [])])


def imports_of(node: Node, package: str, scope: tuple[int, int] | None, stars: list[str]) -> Iterator[Import]:
    """The bindings one import statement makes."""
    first, last = line(node), node.end_point[0] + 1
    if node.type == "import_statement":
        for item in node.named_children:
            if item.type == "aliased_import":
                module = text(item.child_by_field_name("name"))
                yield Import(text(item.child_by_field_name("alias")), module, None, first, last, scope)
            elif item.type == "dotted_name":
                module = text(item)
                top = module.split(".", 1)[0]
                yield Import(top, top, None, first, last, scope, module)
        return
    module = _absolute(node.child_by_field_name("module_name"), package)
    if any(c.type == "wildcard_import" for c in node.children):
        stars.append(module)
        return
    for item in node.children_by_field_name("name"):
        if item.type == "aliased_import":
            name = text(item.child_by_field_name("name"))
            yield Import(text(item.child_by_field_name("alias")), module, name, first, last, scope)
        else:
            name = text(item)
            yield Import(name, module, name, first, last, scope)


_SELF_ATTRS = """
(assignment left: (attribute object: (identifier) @obj attribute: (identifier) @attr))
(assignment left: (pattern_list (attribute object: (identifier) @obj attribute: (identifier) @attr)))
(augmented_assignment left: (attribute object: (identifier) @obj attribute: (identifier) @attr))
"""


def assigned_attributes(root: Node, cls: ClassInfo) -> frozenset[str]:
    """``self.x = ...``/``cls.x = ...`` anywhere in the methods of ``cls``.

    Asked only when a name is not among a class's methods and class-level
    attributes: it walks method bodies, which the index never does.
    """
    found = set()
    for match in matches(_SELF_ATTRS, root, (cls.line - 1, cls.end_line)):
        obj, attr = match.get("obj"), match.get("attr")
        if obj is not None and attr is not None and text(obj) in ("self", "cls"):
            found.add(text(attr))
    return frozenset(found)
