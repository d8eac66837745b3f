"""Which names a tree-sitter tree binds and reads, in which scopes (Python's rules, without flow).

A result that still holds conflict markers, or a hunk cut mid-statement,
is not valid Python; tree-sitter parses it anyway and marks the broken
places as ``ERROR`` nodes, so the rest of the file keeps its structure.
Tests hold the facts against pyflakes (``tests/analysis/risk/test_risk_names.py``).
"""

from __future__ import annotations

from tree_sitter import Node

from workbench.analysis.python.scope.collect import Collector, annotation_names
from workbench.analysis.python.scope.facts import ASSIGN, CLASS, DEF, IMPORT, PARAM, Scope


def _text(node: Node | None) -> str:
    return "" if node is None or node.text is None else node.text.decode("utf-8", "replace")


def _row(node: Node) -> int:
    return node.start_point[0]


_TARGET_LISTS = frozenset(
    {"pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern", "list_splat",
     "parenthesized_expression", "as_pattern_target", "expression_list"}
)
_SKIPPED = frozenset({"comment", "future_import_statement", "nonlocal_statement", "keyword_separator",
                      "positional_separator", "escape_sequence", "string_start", "string_content", "string_end"})


class TreeSitterWalker(Collector):
    """Walks a tree-sitter tree, collecting bindings and uses per scope (see ``collect.Collector``)."""

    def __init__(self, root: Node) -> None:
        super().__init__()
        self.root = root

    def walk(self) -> None:
        self.children(self.root, ())

    def visit(self, node: Node, scope: Scope) -> None:
        if node.type in _SKIPPED or not self.keep(node.start_point[0], node.end_point[0]):
            return
        handler = getattr(self, "_" + node.type, None)
        if handler is not None:
            handler(node, scope)
        else:
            self.children(node, scope)

    def children(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            self.visit(child, scope)

    def field(self, node: Node, name: str, scope: Scope) -> None:
        for child in node.children_by_field_name(name):
            self.visit(child, scope)

    def target(self, node: Node, scope: Scope) -> None:
        """An assignment target: names are bound, attributes and subscripts read."""
        if node.type == "identifier":
            self.bind(_text(node), _row(node), scope, ASSIGN)
        elif node.type == "attribute":
            self._attribute(node, scope, store=True)
        elif node.type in _TARGET_LISTS:
            for child in node.named_children:
                self.target(child, scope)
        else:
            self.visit(node, scope)

    def _identifier(self, node: Node, scope: Scope) -> None:
        self.use(_text(node), _row(node), scope)

    def _function_definition(self, node: Node, scope: Scope) -> None:
        name = _text(node.child_by_field_name("name"))
        self.bind(name, _row(node), scope, DEF)
        inner = (*scope, name)
        if not self.enters(inner):
            return
        self.parameters(node.child_by_field_name("parameters"), scope, inner)
        self.field(node, "return_type", scope)
        self.field(node, "body", inner)

    def _lambda(self, node: Node, scope: Scope) -> None:
        inner = (*scope, "<lambda>")
        if not self.enters(inner):
            return
        self.parameters(node.child_by_field_name("parameters"), scope, inner)
        self.field(node, "body", inner)

    def parameters(self, node: Node | None, outer: Scope, inner: Scope) -> None:
        for param in node.named_children if node is not None else ():
            if not self.keep(param.start_point[0], param.end_point[0]):
                continue
            if param.type in ("default_parameter", "typed_default_parameter"):
                self.parameter(param.child_by_field_name("name"), inner)
                self.field(param, "type", outer)
                self.field(param, "value", outer)
            elif param.type == "typed_parameter":
                self.parameter(param.named_children[0] if param.named_children else None, inner)
                self.field(param, "type", outer)
            else:
                self.parameter(param, inner)

    def parameter(self, node: Node | None, inner: Scope) -> None:
        if node is None:
            return
        if node.type == "identifier":
            self.bind(_text(node), _row(node), inner, PARAM)
        elif node.type in ("list_splat_pattern", "dictionary_splat_pattern", "tuple_pattern"):
            for child in node.named_children:
                self.parameter(child, inner)

    def _class_definition(self, node: Node, scope: Scope) -> None:
        name = _text(node.child_by_field_name("name"))
        self.bind(name, _row(node), scope, CLASS)
        self.field(node, "superclasses", scope)
        inner = (*scope, name)
        if not self.enters(inner):
            return
        self.classes.add(inner)
        self.field(node, "body", inner)

    def _import_statement(self, node: Node, scope: Scope) -> None:
        for name in node.children_by_field_name("name"):
            dotted, alias = _imported(name)
            self.bind(alias or dotted.split(".")[0], _row(name), scope, IMPORT)

    def _import_from_statement(self, node: Node, scope: Scope) -> None:
        if any(c.type == "wildcard_import" for c in node.named_children):
            self.star = True
        for name in node.children_by_field_name("name"):
            imported, alias = _imported(name)
            self.bind(alias or imported, _row(name), scope, IMPORT)

    def _assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        if left is not None:
            self.target(left, scope)
        self.field(node, "type", scope)
        self.field(node, "right", scope)
        right = node.child_by_field_name("right")
        exported = scope == () and left is not None and _text(left) == "__all__"
        if exported and right is not None and right.type in ("list", "tuple"):
            for item in right.named_children:
                parts = item.named_children
                if item.type == "string" and not any(c.type == "interpolation" for c in parts):
                    self.use("".join(_text(c) for c in parts if c.type == "string_content"), _row(item), scope)

    def _augmented_assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        if left is not None and left.type == "identifier":
            self.use(_text(left), _row(left), scope)
            self.bind(_text(left), _row(left), scope, ASSIGN)
        elif left is not None and left.type == "attribute":
            name = left.child_by_field_name("attribute")
            if name is not None:
                self.attribute(_text(name), _row(name), scope)
            self._attribute(left, scope, store=True)
        elif left is not None:
            self.visit(left, scope)
        self.field(node, "right", scope)

    def _for_statement(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        if left is not None:
            self.target(left, scope)
        for name in ("right", "body", "alternative"):
            self.field(node, name, scope)

    def _for_in_clause(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        if left is not None:
            self.target(left, scope)
        self.field(node, "right", scope)

    def _as_pattern(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "as_pattern_target":
                self.target(child, scope)
            else:
                self.visit(child, scope)

    def _named_expression(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            self.target(name, scope)
        self.field(node, "value", scope)

    def _global_statement(self, node: Node, scope: Scope) -> None:
        self.globals.setdefault(scope, set()).update(_text(c) for c in node.named_children)

    def _keyword_argument(self, node: Node, scope: Scope) -> None:
        self.field(node, "value", scope)

    def _attribute(self, node: Node, scope: Scope, store: bool = False) -> None:
        name = node.child_by_field_name("attribute")
        if name is not None:
            self.attribute(_text(name), _row(name), scope, store)
        self.field(node, "object", scope)

    def _type(self, node: Node, scope: Scope) -> None:
        """An annotation, including names inside string annotations (``"Config"``)."""
        self.children(node, scope)
        for string in _strings(node):
            content = "".join(_text(c) for c in string.named_children if c.type == "string_content")
            for name in annotation_names(content):
                self.use(name, _row(string), scope)

    def _string(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "interpolation":
                self.field(child, "expression", scope)


def _strings(node: Node) -> list[Node]:
    found = [node] if node.type == "string" else []
    for child in node.named_children:
        found.extend(_strings(child))
    return found


def _imported(node: Node) -> tuple[str, str | None]:
    """(dotted name, alias) of one name in an import statement."""
    if node.type == "aliased_import":
        return _text(node.child_by_field_name("name")), _text(node.child_by_field_name("alias")) or None
    return _text(node), None
