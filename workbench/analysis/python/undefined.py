"""Names a side's code uses that the merged file no longer binds (a dropped import).

The candidates come cheaply from text (see ``audit.py``); then every use
is checked with pyflakes, which knows Python's scoping (a parameter or a
local import of the same name is not a use of the lost one).  pyflakes
needs ``ast``, which refuses a half-merged file; for those, tree-sitter
finds the uses, and a name bound anywhere in the file counts as bound.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable

from pyflakes import checker, messages
from tree_sitter import Node

from workbench.analysis.python.parse import captures, line, text

_DEFINING_PARENTS = {
    "function_definition": "name",
    "class_definition": "name",
    "keyword_argument": "name",
    "attribute": "attribute",
    "default_parameter": "name",
    "typed_default_parameter": "name",
    "aliased_import": "alias",
}
_BINDING_PARENTS = frozenset({"parameters", "lambda_parameters", "typed_parameter", "list_splat_pattern",
                              "dictionary_splat_pattern", "as_pattern_target", "global_statement",
                              "nonlocal_statement", "dotted_name"})


def pyflakes_undefined(path: str, data: bytes) -> dict[str, list[int]] | None:
    """Every name pyflakes finds undefined, with its lines; None when ``ast`` cannot parse the file."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(data, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found: dict[str, list[int]] = {}
    for message in checker.Checker(tree, filename=path).messages:
        if isinstance(message, messages.UndefinedName):
            found.setdefault(message.message_args[0], []).append(message.lineno)
    return found


def undefined_uses(path: str, data: bytes, names: Iterable[str], root: Node) -> dict[str, list[int]]:
    """Lines where each of ``names`` is used with nothing binding it there."""
    wanted = set(names)
    if not wanted:
        return {}
    found = pyflakes_undefined(path, data)
    if found is None:
        return _tree_sitter_uses(root, wanted)
    return {name: lines for name, lines in found.items() if name in wanted}


def _tree_sitter_uses(root: Node, wanted: set[str]) -> dict[str, list[int]]:
    """Uses of ``wanted`` names in a file ``ast`` cannot read; any binding anywhere counts."""
    uses: dict[str, list[int]] = {}
    bound: set[str] = set()
    for node in captures("(identifier) @id", root).get("id", ()):
        name = text(node)
        if name not in wanted:
            continue
        if _binds(node):
            bound.add(name)
        elif not _is_field_name(node):
            uses.setdefault(name, []).append(line(node))
    return {name: lines for name, lines in uses.items() if name not in bound}


def _is_field_name(node: Node) -> bool:
    parent = node.parent
    if parent is None or parent.type not in _DEFINING_PARENTS:
        return False
    return parent.child_by_field_name(_DEFINING_PARENTS[parent.type]) == node


def _binds(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("function_definition", "class_definition", "default_parameter", "typed_default_parameter"):
        return parent.child_by_field_name("name") == node
    if parent.type in _BINDING_PARENTS:
        return parent.type != "dotted_name" or _in_import(parent)
    if parent.type == "aliased_import":
        return parent.child_by_field_name("alias") == node
    while parent is not None and parent.type in ("pattern_list", "tuple_pattern", "list_pattern"):
        node, parent = parent, parent.parent
    if parent is not None and parent.type in ("assignment", "augmented_assignment", "for_statement", "for_in_clause"):
        return parent.child_by_field_name("left") == node
    return False


def _in_import(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type in ("import_statement", "import_from_statement", "aliased_import")
