"""What one Python module defines and imports, read from its syntax tree.

Only what the audit needs: module-level bindings, top-level functions and
classes with their methods' parameters, class attributes and every import
with the lines it covers (the records are in ``module_records.py``).  Function
bodies are never walked (``self.x = ...`` assignments are read only when a
lookup needs them, see ``assigned_attributes``), which keeps an index cheap.
Indexes are cached by blob id.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator

from tree_sitter import Node

from workbench.analysis.python.module_records import ClassInfo, Function, Import, ModuleIndex, Param, ParamKind
from workbench.analysis.python.parse import captures, dotted, line, matches, parse, text

__all__ = ["ClassInfo", "Function", "Import", "ModuleIndex", "Param", "ParamKind", "module_index", "package_of"]

INDEX_CACHE_SIZE = 4096

ROOTS = ("", "src/")
"""Where top-level packages live (a flat layout or a ``src/`` layout)."""



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
    classes = {name: tuple(variants) for name, variants in builder.classes.items()}
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


def _class(node: Node, decorators: tuple[str, ...]) -> ClassInfo:
    bases: list[str] = []
    opaque = False
    supers = node.child_by_field_name("superclasses")
    for arg in supers.named_children if supers is not None else ():
        if arg.type == "keyword_argument":
            continue
        value = arg.child_by_field_name("value") if arg.type == "subscript" else arg
        name = dotted(value)
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
            decos, inner = _decorators(stmt)
            if inner is None:
                continue
            target = inner
        if target.type == "function_definition":
            fn = _function(target, decos)
            methods.setdefault(fn.name, []).append(fn)
        elif target.type == "class_definition":
            attributes.add(text(target.child_by_field_name("name")))
        else:
            attributes.update(_statement_names(target))
    return ClassInfo(
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
            node: Node | None = child
            while node is not None and node.type in ("assignment", "augmented_assignment"):
                yield from _targets(node.child_by_field_name("left"))
                node = node.child_by_field_name("right")
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
        self.classes: dict[str, list[ClassInfo]] = {}
        self.names: set[str] = set()
        self.stars: list[str] = []

    def statement(self, stmt: Node) -> None:
        decos: tuple[str, ...] = ()
        target = stmt
        if stmt.type == "decorated_definition":
            decos, inner = _decorators(stmt)
            if inner is None:
                return
            target = inner
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


def module_name(path: str) -> str:
    """The dotted module a file defines: ``src/pkg/mod.py`` -> ``pkg.mod``, ``pkg/__init__.py`` -> ``pkg``."""
    for root in ROOTS:
        if root and path.startswith(root):
            path = path[len(root):]
            break
    stem = path[:-3] if path.endswith(".py") else path
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)
