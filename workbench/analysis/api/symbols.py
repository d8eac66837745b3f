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


@dataclass(frozen=True)
class Surface:
    """A definition's interface: its header (with decorators) and, for a class, its members'."""

    header: bytes
    members: tuple[tuple[str, bytes], ...] | None = None

    @property
    def generated_init(self) -> bool:
        """A dataclass-like class: its constructor comes from fields, not from a header."""
        return bool(re.search(rb"^@\w*\.?(?:dataclass|define|attrs|frozen)\b", self.header, re.M))

    def member(self, name: str) -> tuple[bytes, ...]:
        return tuple(text for member, text in self.members or () if member == name)


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
    return Surface(block[:header], tuple(_members(block[header:])))


def _decorators_start(data: bytes, pos: int) -> int:
    """Where the decorators above the definition at ``pos`` begin."""
    while pos > 0:
        prev = data.rfind(b"\n", 0, pos - 1) + 1
        if not data.startswith(b"@", prev):
            break
        pos = prev
    return pos


def _members(body: bytes) -> list[tuple[str, bytes]]:
    """(name, header) of the defs and attributes at the first indentation level of a class body."""
    first = re.search(rb"^([ \t]+)[^ \t\r\n#]", body, re.M)
    if first is None:
        return []
    found: list[tuple[str, bytes]] = []
    decorators: list[bytes] = []
    for line in re.finditer(rb"^" + re.escape(first.group(1)) + rb"([^ \t\r\n#][^\n]*)", body, re.M):
        text = line.group(1)
        if text.startswith(b"@"):
            decorators.append(text.rstrip())
            continue
        named = _MEMBER_NAME.match(text)
        if named:
            header = body[line.start(1):_header_end(body, line.start(1))]
            found.append((named.group(1).decode("ascii", "replace"), b"\n".join([*decorators, header])))
        else:
            name = _NAME.match(text)
            if name:
                found.append((name.group().decode("ascii", "replace"), name.group()))
        decorators = []
    return found


def _header_end(text: bytes, start: int) -> int:
    """Just past the colon that ends the header starting at ``start`` (brackets and strings skipped)."""
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
