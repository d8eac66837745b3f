"""A file in a newer Python grammar, rewritten so the running Python can check everything around it.

The constructs newer grammars add (PEP 695 type parameters and ``type``
aliases, PEP 696 type parameter defaults, PEP 701 f-strings, PEP 758
``except A, B:``) are located with tree-sitter, which only finds them: each
is checked on its own terms here (every expression inside it by the running
Python), then replaced by something the running Python reads the same way
(``def f[T](x)`` becomes ``def f (x)``, ``type X = V`` becomes ``X = V``, an
f-string keeps its literal text with each expression replaced by a name,
``except A, B`` gets its parentheses).  Lines keep their numbers (a removed
line break becomes a backslash continuation), so an error the running
Python then finds is reported where it is.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from workbench.analysis.python.parse import parse_text

CheckExpression = Callable[[bytes, int], str | None]
"""Why ``text`` (an expression, its first line at the file's line ``int``) is no valid expression, or None."""


@dataclass(frozen=True, slots=True)
class Rewritten:
    """The file with its newer constructs replaced, which ones it had, and the first one that is itself wrong."""

    source: bytes
    constructs: tuple[str, ...]
    problem: str | None = None


@dataclass
class _Edits:
    data: bytes
    check: CheckExpression
    first_line: int
    spans: list[tuple[int, int, bytes]] = field(default_factory=list)
    constructs: list[str] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)

    def replace(self, start: int, end: int, text: bytes, construct: str) -> None:
        """``data[start:end]`` becomes ``text``, and as many continuations as line breaks it removes."""
        breaks = self.data.count(b"\n", start, end) - text.count(b"\n")
        self.spans.append((start, end, text + b" \\\n" * max(breaks, 0)))
        if construct not in self.constructs:
            self.constructs.append(construct)

    def line(self, offset: int) -> int:
        return self.data.count(b"\n", 0, offset) + self.first_line

    def problem(self, offset: int, words: str) -> None:
        self.problems.append((offset, f"line {self.line(offset)}: {words}"))

    def expression(self, start: int, end: int, starred: bool = False) -> None:
        """Check ``data[start:end]`` as an expression (``starred``: ``*X`` allowed)."""
        text = self.data[start:end]
        found = self.check(b"(" + text + (b",\n)" if starred else b"\n)"), self.line(start))
        if found is not None:
            self.problems.append((start, found))

    def result(self) -> Rewritten:
        out, at = [], 0
        for start, end, text in sorted(self.spans):
            if start < at:
                continue  # inside a construct already replaced
            out += [self.data[at:start], text]
            at = end
        out.append(self.data[at:])
        problem = min(self.problems)[1] if self.problems else None
        return Rewritten(b"".join(out), tuple(self.constructs), problem)


def rewrite(data: bytes, check: CheckExpression, first_line: int = 1) -> Rewritten:
    """``data`` (its first line the file's ``first_line``) with every newer-grammar construct replaced."""
    edits = _Edits(data, check, first_line)
    stack = [parse_text(data).root_node]
    while stack:
        node = stack.pop()
        if node.type == "string" and _is_fstring(node):
            _fstring(edits, node)
            continue  # nested f-strings are checked with their expression
        if node.type in ("function_definition", "class_definition"):
            params = node.child_by_field_name("type_parameters")
            if params is not None:
                _type_parameters(edits, params.start_byte, f"type parameters of {_name(node)}")
        elif node.type == "type_alias_statement":
            _type_alias(edits, node)
        elif node.type == "except_clause":
            _except_group(edits, node)
        stack.extend(reversed(node.children))
    return edits.result()


def _name(node: Node) -> str:
    name = node.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text else "?"


# -- PEP 695 / 696: type parameters and type aliases ------------------------------------------


def _type_parameters(edits: _Edits, start: int, what: str) -> int | None:
    """Check the ``[...]`` at ``start`` and blank it; the offset after it (None: no closing bracket)."""
    end = _closing_bracket(edits.data, start)
    if end is None:
        edits.problem(start, f"the {what} have no closing ']'")
        return None
    _check_parameters(edits, start, end, what)
    edits.replace(start, end, b" ", "type parameters")
    return end


def _type_alias(edits: _Edits, node: Node) -> None:
    """``type X[T] = V`` becomes ``X = V`` (the value stays for the running Python to check)."""
    data = edits.data
    name = _first(node, "identifier")
    if name is None or node.children[0].type != "type":
        return
    after = name.end_byte
    while after < len(data) and data[after : after + 1] in (b" ", b"\t"):
        after += 1
    if data[after : after + 1] == b"[":
        end = _type_parameters(edits, after, f"type alias {(name.text or b'').decode('utf-8', 'replace')}")
        if end is None:
            return
        after = end
    else:
        after = name.end_byte
    edits.replace(node.start_byte, after, (name.text or b"") + b" ", "type aliases")


def _first(node: Node, kind: str) -> Node | None:
    stack = list(reversed(node.children[1:]))
    while stack:
        child = stack.pop()
        if child.type == kind:
            return child
        stack.extend(reversed(child.children))
    return None


def _closing_bracket(data: bytes, start: int) -> int | None:
    """The offset just after the ``]`` that closes the ``[`` at ``start`` (strings and comments skipped)."""
    depth, at = 0, start
    while at < len(data):
        char = data[at : at + 1]
        if char in b"([{":
            depth += 1
        elif char in b")]}":
            depth -= 1
            if depth == 0:
                return at + 1 if char == b"]" else None
        elif char == b"#":
            at = data.find(b"\n", at)
            if at < 0:
                return None
        elif char in b"'\"":
            quote = data[at : at + 3] if data[at : at + 3] in (b"'''", b'"""') else char
            at += len(quote)
            while at < len(data) and data[at : at + len(quote)] != quote:
                at += 2 if data[at : at + 1] == b"\\" else 1
            at += len(quote) - 1
        at += 1
    return None


def _check_parameters(edits: _Edits, start: int, end: int, what: str) -> None:
    """PEP 695/696 type parameters: ``T``, ``T: bound``, ``*Ts``, ``**P``, each with an optional ``= default``."""
    text = edits.data[start:end].decode("utf-8", "surrogateescape")
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError):
        edits.problem(start, f"the {what} do not parse")
        return
    starts = [0]
    for line in io.StringIO(text):
        starts.append(starts[-1] + len(line))

    def offset(position: tuple[int, int]) -> int:
        row, col = position
        return start + len(text[: starts[row - 1] + col].encode("utf-8", "surrogateescape"))

    params: list[list[tokenize.TokenInfo]] = [[]]
    depth = 0
    for token in tokens[1:-1]:  # inside the outer brackets
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        if depth == 0 and token.type == tokenize.OP and token.string == ",":
            params.append([])
        else:
            params[-1].append(token)
    if not params[-1] and len(params) > 1:
        params.pop()  # a trailing comma
    names: set[str] = set()
    seen_default = False
    for param in params:
        if not param:
            edits.problem(start, f"the {what} list an empty type parameter")
            return
        stars = param[0].string if param[0].type == tokenize.OP and param[0].string in ("*", "**") else ""
        rest = param[1:] if stars else param
        if not rest or rest[0].type != tokenize.NAME:
            edits.problem(offset(param[0].start), f"a type parameter of the {what} has no name")
            return
        name = rest[0].string
        if name in names:
            edits.problem(offset(rest[0].start), f"duplicate type parameter '{name}'")
        names.add(name)
        parts = _split_top(rest[1:])
        if parts is None:
            edits.problem(offset(rest[0].start), f"type parameter '{name}' does not parse")
            return
        bound, default = parts
        if bound is not None:
            if stars:
                edits.problem(offset(rest[0].start), f"type parameter '{name}' cannot have a bound ({stars}{name})")
            elif not bound:
                edits.problem(offset(rest[0].start), f"type parameter '{name}' has an empty bound")
            else:
                edits.expression(offset(bound[0].start), offset(bound[-1].end))
        if default is not None:
            if not default:
                edits.problem(offset(rest[0].start), f"type parameter '{name}' has an empty default")
            else:
                edits.expression(offset(default[0].start), offset(default[-1].end), starred=stars == "*")
            seen_default = True
        elif seen_default:
            edits.problem(offset(rest[0].start), f"non-default type parameter '{name}' follows default type parameter")


Tokens = list[tokenize.TokenInfo]


def _split_top(tokens: Tokens) -> tuple[Tokens | None, Tokens | None] | None:
    """``: bound`` and ``= default`` after a type parameter's name (None: something else is there)."""
    bound: Tokens | None = None
    default: Tokens | None = None
    current: Tokens | None = None
    depth = 0
    for token in tokens:
        top = depth == 0 and token.type == tokenize.OP
        if top and token.string == ":" and bound is None and default is None and current is None:
            bound = current = []
        elif top and token.string == "=" and default is None:
            default = current = []
        elif current is None:
            return None
        else:
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            current.append(token)
    return bound, default


# -- PEP 701: f-strings ----------------------------------------------------------------------------


def _is_fstring(node: Node) -> bool:
    start = node.children[0] if node.children else None
    return start is not None and start.type == "string_start" and b"f" in (start.text or b"").lower()


_FIELD_END = frozenset({"=", "type_conversion", "format_specifier", "}"})


def _fstring(edits: _Edits, node: Node) -> None:
    """Each replacement field's expression checked on its own, and replaced by ``_`` (the literal text stays)."""
    pieces: list[bytes] = []
    at = node.start_byte
    for start, end in _fields(edits, node):
        pieces += [edits.data[at:start], b"_"]
        at = end
    pieces.append(edits.data[at : node.end_byte])
    edits.replace(node.start_byte, node.end_byte, b"".join(pieces), "f-strings")


def _fields(edits: _Edits, node: Node) -> list[tuple[int, int]]:
    """The expression spans of ``node``'s replacement fields (format specifications' own fields included)."""
    spans: list[tuple[int, int]] = []
    for child in node.children:
        if child.type in ("interpolation", "format_expression"):
            opening = child.children[0] if child.children else None
            if opening is None or opening.type != "{":
                continue
            ender = next((c for c in child.children[1:] if c.type in _FIELD_END), None)
            end = ender.start_byte if ender is not None else child.end_byte
            inside = [c for c in child.children[1:] if c.end_byte <= end and c.type != "comment" and not c.is_missing]
            if not inside:
                edits.problem(opening.start_byte, "f-string: valid expression required before '}'")
            else:
                edits.expression(opening.end_byte, end)
            spans.append((opening.end_byte, end))
            if ender is not None:
                spec = next((c for c in child.children if c.type == "format_specifier"), None)
                if spec is not None:
                    spans.extend(_fields(edits, spec))
    return spans


# -- PEP 758: except A, B: ------------------------------------------------------------------------


def _except_group(edits: _Edits, node: Node) -> None:
    """``except A, B:`` without ``as`` becomes ``except (A, B):``."""
    children = node.children
    if not any(c.type == "," for c in children) or any(c.type in ("as_pattern", "as") for c in children):
        return
    values = [c for c in children if c.type not in ("except", "*", ",", ":", "block", "comment")]
    if not values:
        return
    first, last = values[0], values[-1]
    edits.replace(first.start_byte, last.end_byte, b"(" + edits.data[first.start_byte : last.end_byte] + b")",
                  "except without parentheses")
