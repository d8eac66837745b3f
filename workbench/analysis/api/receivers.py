"""Which class a receiver holds, read the way a reviewer reads it.

``buf.flush_group(n)`` can only be checked against ``BufferPool`` when
something says ``buf`` is one: a parameter annotation (``buf: BufferPool``,
``Optional[pool.BufferPool]``, ``BufferPool | None``, ``"BufferPool"``), an
assignment from a constructor (``buf = BufferPool()``, ``self.buf =
BufferPool()``, annotated ``self.buf: BufferPool``), at function or module
level.  Here those declarations are found in the syntax tree (scope-aware:
the innermost function first, then the module) and, for the cheap text
triage that runs before any parsing, in the text (``receiver_types``).
Whether the dotted type really names a class is the resolver's business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from tree_sitter import Node

from workbench.analysis.python.parse import dotted

_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\Z")
_SCOPES = ("function_definition", "class_definition")
_WRAPPERS = ("Optional", "Final", "ClassVar", "Annotated")
"""Generic wrappers whose first argument is the receiver's class."""


def type_name(node: Node | None) -> str | None:
    """The dotted class an annotation names, or None (a container, a union of classes, a literal)."""
    if node is None:
        return None
    kind = node.type
    if kind == "type":
        return type_name(node.named_children[0]) if node.named_children else None
    if kind in ("identifier", "attribute"):
        return dotted(node)
    if kind == "string":
        content = "".join((c.text or b"").decode("utf-8", "replace") for c in node.named_children if c.type == "string_content")
        return content.strip() if _DOTTED.match(content.strip()) else None
    if kind == "generic_type":
        head, params = (node.named_children + [None, None])[:2]
        if head is None or (dotted(head) or "").rsplit(".", 1)[-1] not in _WRAPPERS or params is None:
            return None
        return type_name(params.named_children[0]) if params.named_children else None
    if kind == "subscript":
        head = node.child_by_field_name("value")
        inner = node.child_by_field_name("subscript")
        if head is None or (dotted(head) or "").rsplit(".", 1)[-1] not in _WRAPPERS:
            return None
        return type_name(inner)
    if kind == "binary_operator":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if right is not None and right.type == "none":
            return type_name(left)
        if left is not None and left.type == "none":
            return type_name(right)
    return None


def _constructed(value: Node | None) -> str | None:
    """``X(...)`` or ``a.X(...)``: the dotted callee (a class when the resolver says so)."""
    if value is None or value.type != "call":
        return None
    fn = value.child_by_field_name("function")
    return dotted(fn) if fn is not None and fn.type in ("identifier", "attribute") else None


def _assignments(node: Node) -> Iterator[Node]:
    """Assignments under ``node``, not inside nested functions or classes."""
    for child in node.named_children:
        if child.type in _SCOPES or child.type == "decorated_definition":
            continue
        if child.type == "assignment":
            yield child
        yield from _assignments(child)


def _declared(assignment: Node) -> str | None:
    return type_name(assignment.child_by_field_name("type")) or _constructed(assignment.child_by_field_name("right"))


def _bound_in(body: Node | None, target: str, before: int | None) -> str | None:
    """The class the last assignment to ``target`` (a name or ``self.x``) in ``body`` declares."""
    found = None
    for node in _assignments(body) if body is not None else ():
        left = node.child_by_field_name("left")
        if left is None or (before is not None and node.start_point[0] >= before):
            continue
        if left.type in ("identifier", "attribute") and dotted(left) == target:
            found = _declared(node) or found
    return found


def _parameter(fn: Node, name: str) -> tuple[bool, str | None]:
    """Whether ``fn`` takes ``name`` as a parameter, and the class its annotation names."""
    params = fn.child_by_field_name("parameters")
    for param in params.named_children if params is not None else ():
        if param.type == "identifier" and dotted(param) == name:
            return True, None
        if param.type in ("typed_parameter", "typed_default_parameter", "default_parameter"):
            first = param.child_by_field_name("name") or (param.named_children[0] if param.named_children else None)
            if first is not None and first.type == "identifier" and dotted(first) == name:
                return True, type_name(param.child_by_field_name("type"))
    return False, None


def _enclosing_functions(root: Node, row: int) -> list[Node]:
    """The functions around 0-based ``row``, innermost first."""
    found: list[Node] = []
    node: Node | None = root.named_descendant_for_point_range((row, 0), (row, 0))
    while node is not None:
        if node.type == "function_definition" and node.start_point[0] <= row <= node.end_point[0]:
            found.append(node)
        node = node.parent
    return found


def declared_type(root: Node, name: str, line: int | None) -> str | None:
    """The class ``name`` holds at 1-based ``line`` (None: at module level), from its declarations."""
    if line is not None:
        for fn in _enclosing_functions(root, line - 1):
            param, annotated = _parameter(fn, name)
            local = _bound_in(fn.child_by_field_name("body"), name, line - 1)
            if local is not None or annotated is not None:
                return local or annotated
            if param:
                return None  # an untyped parameter shadows anything outside
    return _bound_in(root, name, None)


def attribute_types(root: Node, class_line: int) -> dict[str, str]:
    """The class each attribute (``x: T`` in the body, ``self.x = T(...)`` in a method) of the class at ``class_line`` holds."""
    node = root.named_descendant_for_point_range((class_line - 1, 0), (class_line - 1, 0))
    while node is not None and node.type != "class_definition":
        node = node.parent
    body = node.child_by_field_name("body") if node is not None else None
    found: dict[str, str] = {}
    if body is None:
        return found
    _collect(body, "", found)
    for method in (c for c in body.named_children if c.type in ("function_definition", "decorated_definition")):
        fn = method.child_by_field_name("definition") if method.type == "decorated_definition" else method
        body_node = fn.child_by_field_name("body") if fn is not None else None
        if body_node is not None:
            _collect(body_node, "self.", found)
    return found


def _collect(body: Node, prefix: str, found: dict[str, str]) -> None:
    """Record ``prefix + name`` assignments under ``body`` that declare a class (the last one wins)."""
    for node in _assignments(body):
        left = node.child_by_field_name("left")
        name = dotted(left) if left is not None and left.type in ("identifier", "attribute") else None
        if name is None or not name.startswith(prefix) or "." in name[len(prefix) :]:
            continue
        declared = _declared(node)
        if declared is not None:
            found[name[len(prefix) :]] = declared


_BEFORE_ANNOTATION = re.compile(rb"(?<![\w.])((?:self\.)?[A-Za-z_]\w*)[ \t]*:[ \t]*(?:(?:Optional|Final)\[)?[\"']?$")
_BEFORE_CONSTRUCTOR = re.compile(rb"(?<![\w.])((?:self\.)?[A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=[ \t]*$")
_DOTTED_AT = re.compile(rb"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_CALL_AFTER = re.compile(rb"[ \t]*\(")


def receiver_types(text: bytes, classes: Iterable[str]) -> dict[str, set[str]]:
    """Every name (or ``self.x``) the text declares as one of ``classes`` (dotted from them), scope-blind.

    The triage's superset, read from text: each occurrence of a class name
    is looked at with what precedes it on its line (``x: ``, ``x = ``).
    """
    found: dict[str, set[str]] = {}
    for name in sorted(set(classes)):
        word = name.encode()
        start = 0
        while (pos := text.find(word, start)) >= 0:
            start = pos + len(word)
            if pos and (text[pos - 1 : pos].isalnum() or text[pos - 1 : pos] in b"_."):
                continue
            match = _DOTTED_AT.match(text, pos)
            if match is None or match.group(0).split(b".", 1)[0] != word:
                continue
            prefix = text[text.rfind(b"\n", 0, pos) + 1 : pos]
            held = _BEFORE_ANNOTATION.search(prefix)
            if held is None and _CALL_AFTER.match(text, match.end()):
                held = _BEFORE_CONSTRUCTOR.search(prefix)
            if held is not None:
                found.setdefault(held.group(1).decode(), set()).add(match.group(0).decode())
    return found
