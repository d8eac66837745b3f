"""A top-level definition's interface, read from text without parsing.

The audit only needs to look at code that uses something whose interface
differs between the caller's side and the result: a function's signature,
a class's bases and the names and signatures of its members.  Reading that
surface from bytes (the ``def``/``class`` headers, not the bodies) decides
it for every import of every file a sync touches; only files that use a
changed interface are parsed.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import OrderedDict
from dataclasses import dataclass

_TOP = re.compile(rb"^[^ \t\r\n#)\]}]", re.M)
"""A line that starts a new top-level statement (not a continuation or a comment)."""
_BINDING = re.compile(rb"^(?:(?:async[ \t]+)?(def|class)[ \t]+(\w+)|(\w+)[ \t]*(?::[^=\n]*)?=(?!=))", re.M)
_DEFINITION = re.compile(rb"^(?:async[ \t]+)?(def|class)\b", re.M)
_MEMBER_NAME = re.compile(rb"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
_NAME = re.compile(rb"[A-Za-z_]\w*")
_OPEN, _CLOSE = b"([{", b")]}"
CACHE_SIZE = 2048


class Surface:
    """A definition's interface: its header (with decorators) and, for a class, its members'.

    A class's members are looked up on demand: one pass over the body finds
    where each member starts, and only the headers asked for are read.
    Two surfaces are equal when their headers are (bodies are not compared).
    """

    __slots__ = ("header", "_body", "_starts", "_found")

    def __init__(self, header: bytes, body: bytes | None = None) -> None:
        self.header = header
        self._body = body
        self._starts: dict[str, list[int]] | None = None
        self._found: dict[str, tuple[bytes, ...]] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Surface) and (self.header, self.is_class) == (other.header, other.is_class)

    def __hash__(self) -> int:
        return hash(self.header)

    def __repr__(self) -> str:
        return f"Surface({self.header!r})"

    @property
    def is_class(self) -> bool:
        return self._body is not None

    @property
    def generated_init(self) -> bool:
        """A dataclass-like class: its constructor comes from fields, not from a header."""
        return bool(re.search(rb"^@\w*\.?(?:dataclass|define|attrs|frozen)\b", self.header, re.M))

    def member(self, name: str) -> tuple[bytes, ...]:
        """Headers (with decorators) of the members named ``name``; a bare name for an attribute."""
        if self._body is None:
            return ()
        if name not in self._found:
            self._found[name] = tuple(_member_header(self._body, start) for start in self._member_starts().get(name, ()))
        return self._found[name]

    def _member_starts(self) -> dict[str, list[int]]:
        if self._starts is None:
            self._starts = {}
            body = self._body or b""
            first = re.search(rb"^([ \t]+)[^ \t\r\n#]", body, re.M)
            if first is not None:
                pattern = re.compile(
                    rb"^" + re.escape(first.group(1)) + rb"(?:(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)|(\w+)[ \t]*[:=])", re.M
                )
                for match in pattern.finditer(body):
                    name = (match.group(1) or match.group(2)).decode("ascii", "replace")
                    self._starts.setdefault(name, []).append(match.start())
        return self._starts


def _member_header(body: bytes, start: int) -> bytes:
    """A member's decorators and header (an attribute: its name up to ``=`` or ``:``)."""
    line_end = body.find(b"\n", start)
    line = body[start: line_end if line_end >= 0 else len(body)]
    stripped = line.lstrip()
    if not _MEMBER_NAME.match(stripped):
        return _NAME.match(stripped).group()  # type: ignore[union-attr]
    indent = line[: len(line) - len(stripped)]
    begin = start
    while begin > 0:
        prev = body.rfind(b"\n", 0, begin - 1) + 1
        if not body.startswith(indent + b"@", prev):
            break
        begin = prev
    decorators = [d.strip() for d in body[begin:start].splitlines() if d.strip()]
    header = body[start:_header_end(body, start)].strip()
    return b"\n".join([*decorators, header])


@dataclass
class _Layout:
    """Where each top-level statement starts, and where each name is bound at column 0."""

    data: bytes
    tops: list[int]
    bindings: dict[str, list[int]]
    surfaces: dict[str, tuple[Surface, ...] | None]


_LAYOUTS: OrderedDict[str, _Layout] = OrderedDict()


def interface(blob: str, data: bytes, name: str) -> tuple[Surface, ...] | None:
    """The interface of every top-level binding of ``name`` in ``data`` (blob ``blob``), or None.

    None means "not bound at column 0" (an import, a binding inside an
    ``if``): the caller then has to resolve it properly.
    """
    layout = _layout(blob, data)
    if name not in layout.surfaces:
        starts = layout.bindings.get(name)
        layout.surfaces[name] = tuple(_surface(layout, start) for start in starts) if starts else None
    return layout.surfaces[name]


def _layout(blob: str, data: bytes) -> _Layout:
    found = _LAYOUTS.get(blob)
    if found is not None:
        _LAYOUTS.move_to_end(blob)
        return found
    bindings: dict[str, list[int]] = {}
    for match in _BINDING.finditer(data):
        name = (match.group(2) or match.group(3)).decode("ascii", "replace")
        bindings.setdefault(name, []).append(match.start())
    layout = _Layout(data, [m.start() for m in _TOP.finditer(data)], bindings, {})
    _LAYOUTS[blob] = layout
    if len(_LAYOUTS) > CACHE_SIZE:
        _LAYOUTS.popitem(last=False)
    return layout


def _surface(layout: _Layout, start: int) -> Surface:
    """A def's decorators and header; a class's header plus its members' headers and names."""
    data = layout.data
    following = bisect_right(layout.tops, start)
    end = layout.tops[following] if following < len(layout.tops) else len(data)
    begin = _decorators_start(data, start)
    block = data[begin:end]
    found = _DEFINITION.search(block, start - begin)
    if found is None or found.start() != start - begin:
        return Surface(block.split(b"\n", 1)[0])
    header = _header_end(block, found.start())
    if found.group(1) == b"def":
        return Surface(block[:header])
    return Surface(block[:header], block[header:])


def _decorators_start(data: bytes, pos: int) -> int:
    """Where the decorators above the definition at ``pos`` begin."""
    while pos > 0:
        prev = data.rfind(b"\n", 0, pos - 1) + 1
        if not data.startswith(b"@", prev):
            break
        pos = prev
    return pos


def _header_end(text: bytes, start: int) -> int:
    """Just past the colon that ends the header starting at ``start`` (brackets and strings skipped)."""
    newline = text.find(b"\n", start)
    line = text[start: newline if newline >= 0 else len(text)]
    if b'"' not in line and b"'" not in line and all(line.count(o) == line.count(c) for o, c in _PAIRS):
        code = line.split(b"#", 1)[0].rstrip()
        if code.endswith(b":"):
            return start + len(code)
    return _scan(text, start)


_PAIRS = ((b"(", b")"), (b"[", b"]"), (b"{", b"}"))


def _scan(text: bytes, start: int) -> int:
    """The general case: a header over several lines, or with strings or comments in it."""
    depth = 0
    i = max(start, 0)
    quote: int | None = None
    while i < len(text):
        c = text[i]
        if quote is not None:
            if c == 0x5C:  # backslash
                i += 1
            elif c == quote:
                quote = None
        elif c in (0x22, 0x27):
            quote = c
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c == 0x3A and depth <= 0:  # ':'
            return i + 1
        i += 1
    return len(text)


def top_level_names(blob: str, data: bytes) -> frozenset[str]:
    """Names bound at column 0 by ``def``, ``class`` or an assignment."""
    return frozenset(_layout(blob, data).bindings)
