"""Can a callee accept a call?  Python's own binding rules, on parameter lists.

A call whose arguments cannot be counted (``*args``/``**kwargs`` at the call
site) is checked only as far as it can be; a callee with ``*args`` or
``**kwargs`` accepts what they absorb.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from tree_sitter import Node

from workbench.analysis.python.module_index import Function, ParamKind
from workbench.analysis.python.parse import text
from workbench.wording import plural

ARITY: Final = "arity"
UNKNOWN_KEYWORD: Final = "unknown-keyword"
_POSITIONAL = (ParamKind.POSITIONAL_ONLY, ParamKind.POSITIONAL)


@dataclass(frozen=True, slots=True)
class Arguments:
    """The shape of a call's arguments."""

    positional: int
    keywords: tuple[str, ...]
    star: bool = False
    double_star: bool = False

    def describe(self) -> str:
        count = self.positional + len(self.keywords)
        what = plural(count, "argument")
        if self.keywords and self.positional:
            what += f" ({self.positional} positional, {len(self.keywords)} by keyword)"
        elif self.keywords:
            what += " by keyword"
        return what


def arguments(node: Node) -> Arguments:
    """The arguments of a call's ``arguments`` node."""
    if node.type == "generator_expression":
        return Arguments(1, ())
    positional = 0
    keywords: list[str] = []
    star = double_star = False
    for child in node.named_children:
        if child.type == "comment":
            continue
        if child.type == "keyword_argument":
            keywords.append(text(child.child_by_field_name("name")))
        elif child.type == "list_splat":
            star = True
        elif child.type == "dictionary_splat":
            double_star = True
        else:
            positional += 1
    return Arguments(positional, tuple(keywords), star, double_star)


@dataclass(frozen=True, slots=True)
class Problem:
    kind: Literal["arity", "unknown-keyword"]
    detail: str
    keyword: str | None = None


def bind(fn: Function, args: Arguments, skip_first: bool) -> Problem | None:
    """Why ``fn`` cannot take ``args`` (None: it can, or it cannot be told)."""
    params = list(fn.params)
    if skip_first:
        if not params or params[0].kind not in _POSITIONAL:
            return None
        params = params[1:]
    positional = [p for p in params if p.kind in _POSITIONAL]
    var_positional = any(p.kind is ParamKind.VAR_POSITIONAL for p in params)
    var_keyword = any(p.kind is ParamKind.VAR_KEYWORD for p in params)
    if not args.star and args.positional > len(positional) and not var_positional:
        return Problem(
            ARITY,
            f"it takes at most {plural(len(positional), 'positional argument')}, "
            f"the call passes {args.positional}",
        )
    by_name = {p.name for p in params if p.kind in (ParamKind.POSITIONAL, ParamKind.KEYWORD_ONLY)}
    for keyword in args.keywords:
        if keyword not in by_name and not var_keyword:
            return Problem(UNKNOWN_KEYWORD, f"it has no parameter `{keyword}`", keyword)
    if args.star or args.double_star:
        return None
    filled = {p.name for p in positional[: args.positional]} | set(args.keywords)
    required = [
        p for p in params
        if p.kind in (*_POSITIONAL, ParamKind.KEYWORD_ONLY) and not p.default and p.name not in filled
    ]
    if required:
        needed = sum(1 for p in params if p.kind in (*_POSITIONAL, ParamKind.KEYWORD_ONLY) and not p.default)
        names = ", ".join(p.name for p in required)
        return Problem(
            ARITY,
            f"it needs {plural(needed, 'argument')}, the call passes "
            f"{args.positional + len(args.keywords)} (missing {names})",
        )
    return None


def check_call(functions: tuple[Function, ...], args: Arguments, instance: bool) -> Problem | None:
    """A problem every definition of the callee has (overloads, conditional defs), or None."""
    problems: list[Problem] = []
    for fn in functions:
        binding = fn.binding
        if binding == "property":
            return None
        skip = binding == "class" or (binding == "plain" and instance)
        problem = bind(fn, args, skip)
        if problem is None:
            return None
        problems.append(problem)
    return problems[0] if problems else None
