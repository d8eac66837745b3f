"""Name facts from an ``ast`` tree: exact, for text that is valid Python."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from workbench.analysis.risk.pyscope.collect import Collector, annotation_names
from workbench.analysis.risk.pyscope.facts import ASSIGN, CLASS, DEF, IMPORT, PARAM, Scope

_LEAVES = (ast.expr_context, ast.operator, ast.cmpop, ast.unaryop, ast.boolop, ast.Constant)
"""Nodes that hold no name: contexts, operators, literals."""
_HANDLERS: dict[type, Callable[..., None] | None] = {}
"""Each node type's handler (``_Name`` for ``ast.Name``), looked up once."""


class AstWalker(Collector):
    """Walks an ``ast`` tree, entering only nodes that span a line of interest."""

    def __init__(self, module: ast.Module) -> None:
        super().__init__()
        self.module = module

    def walk(self) -> None:
        self.body(self.module.body, ())

    def body(self, statements: Iterable[ast.AST], scope: Scope) -> None:
        for node in statements:
            self.visit(node, scope)

    def visit(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, _LEAVES):
            return
        line = getattr(node, "lineno", None)
        if line is not None and not self.keep(line - 1, (getattr(node, "end_lineno", None) or line) - 1):
            return
        kind = type(node)
        if kind not in _HANDLERS:
            _HANDLERS[kind] = getattr(AstWalker, "_" + kind.__name__, None)
        handler = _HANDLERS[kind]
        if handler is not None:
            handler(self, node, scope)
        else:
            self.children(node, scope)

    def children(self, node: ast.AST, scope: Scope) -> None:
        for child in ast.iter_child_nodes(node):
            self.visit(child, scope)

    def annotation(self, node: ast.expr | None, scope: Scope) -> None:
        """An annotation, including names inside string annotations (``"Config"``)."""
        if node is None:
            return
        self.visit(node, scope)
        for part in ast.walk(node):
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                for name in annotation_names(part.value):
                    self.use(name, part.lineno - 1, scope)

    def _FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        self.bind(node.name, node.lineno - 1, scope, DEF)
        for decorator in node.decorator_list:
            self.visit(decorator, scope)
        inner = (*scope, node.name)
        if not self.enters(inner):
            return
        self.parameters(node.args, scope, inner)
        self.annotation(node.returns, scope)
        self.body(node.body, inner)

    _AsyncFunctionDef = _FunctionDef

    def _Lambda(self, node: ast.Lambda, scope: Scope) -> None:
        inner = (*scope, "<lambda>")
        if not self.enters(inner):
            return
        self.parameters(node.args, scope, inner)
        self.visit(node.body, inner)

    def parameters(self, args: ast.arguments, outer: Scope, inner: Scope) -> None:
        for default in [*args.defaults, *args.kw_defaults]:
            if default is not None:
                self.visit(default, outer)
        every = [*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg]
        for arg in every:
            if arg is not None and self.keep(arg.lineno - 1, (arg.end_lineno or arg.lineno) - 1):
                self.bind(arg.arg, arg.lineno - 1, inner, PARAM)
                self.annotation(arg.annotation, outer)

    def _ClassDef(self, node: ast.ClassDef, scope: Scope) -> None:
        self.bind(node.name, node.lineno - 1, scope, CLASS)
        for outer in [*node.decorator_list, *node.bases, *node.keywords]:
            self.visit(outer, scope)
        inner = (*scope, node.name)
        if not self.enters(inner):
            return
        self.classes.add(inner)
        self.body(node.body, inner)

    def _Import(self, node: ast.Import, scope: Scope) -> None:
        for alias in node.names:
            self.bind(alias.asname or alias.name.split(".")[0], alias.lineno - 1, scope, IMPORT)

    def _ImportFrom(self, node: ast.ImportFrom, scope: Scope) -> None:
        if node.module == "__future__":
            return
        for alias in node.names:
            if alias.name == "*":
                self.star = True
            else:
                self.bind(alias.asname or alias.name, alias.lineno - 1, scope, IMPORT)

    def _Name(self, node: ast.Name, scope: Scope) -> None:
        if isinstance(node.ctx, ast.Store):
            self.bind(node.id, node.lineno - 1, scope, ASSIGN)
        else:
            self.use(node.id, node.lineno - 1, scope)

    def _Attribute(self, node: ast.Attribute, scope: Scope) -> None:
        line = (node.end_lineno or node.lineno) - 1
        self.attribute(node.attr, line, scope, store=isinstance(node.ctx, ast.Store))
        self.visit(node.value, scope)

    def _AugAssign(self, node: ast.AugAssign, scope: Scope) -> None:
        target = node.target
        if isinstance(target, ast.Name):
            self.use(target.id, target.lineno - 1, scope)
        elif isinstance(target, ast.Attribute):
            self.attribute(target.attr, (target.end_lineno or target.lineno) - 1, scope)
        self.children(node, scope)

    def _AnnAssign(self, node: ast.AnnAssign, scope: Scope) -> None:
        self.visit(node.target, scope)
        self.annotation(node.annotation, scope)
        if node.value is not None:
            self.visit(node.value, scope)

    def _Assign(self, node: ast.Assign, scope: Scope) -> None:
        """``__all__ = ["name", ...]`` at module level uses those names (a re-export)."""
        self.children(node, scope)
        exported = scope == () and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        if exported and isinstance(node.value, (ast.List, ast.Tuple)):
            for item in node.value.elts:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    self.use(item.value, item.lineno - 1, scope)

    def _Global(self, node: ast.Global, scope: Scope) -> None:
        self.globals.setdefault(scope, set()).update(node.names)

    def _ExceptHandler(self, node: ast.ExceptHandler, scope: Scope) -> None:
        if node.name:
            self.bind(node.name, node.lineno - 1, scope, ASSIGN)
        self.children(node, scope)

    def _MatchAs(self, node: ast.MatchAs, scope: Scope) -> None:
        if node.name:
            self.bind(node.name, node.lineno - 1, scope, ASSIGN)
        self.children(node, scope)

    def _MatchStar(self, node: ast.MatchStar, scope: Scope) -> None:
        if node.name:
            self.bind(node.name, node.lineno - 1, scope, ASSIGN)

    def _MatchMapping(self, node: ast.MatchMapping, scope: Scope) -> None:
        if node.rest:
            self.bind(node.rest, node.lineno - 1, scope, ASSIGN)
        self.children(node, scope)
