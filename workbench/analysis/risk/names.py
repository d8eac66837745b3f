"""Names that tie a dropped dev line to the code the result kept.

When ``-X theirs`` drops an import, a parameter or an assignment of dev's
while dev's code that uses the name survives elsewhere, the result compiles
and fails at run time (the ``CudaGraphScope`` import of sync #4291): the
name *dangles*.  The other way round, when the dropped line was the only
use of a name dev defined in a part that merged cleanly (a new parameter,
an import), that name is now *orphaned*: dev's change survives half-done.
This is a line-level look at Python-like text, enough to turn "a line is
missing" into "a line is missing and the rest of the file shows it".
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence

_FROM_IMPORT = re.compile(rb"^\s*from\s+[\w.]+\s+import\s+\(?\s*(.*?)\)?\s*(?:#.*)?$")
_IMPORT = re.compile(rb"^\s*import\s+(.*?)\s*(?:#.*)?$")
_DEF = re.compile(rb"^\s*(?:async\s+)?def\s+\w+\s*\((.*)$")
_CLASS = re.compile(rb"^\s*class\s+(\w+)")
_ASSIGN = re.compile(rb"^\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)(?:\s*:[^=]+)?\s=(?!=)")
"""An assignment statement; ``key=value`` without spaces is a keyword argument, not a binding."""
_IMPORTED_NAME = re.compile(rb"^([A-Za-z_][\w.]*)(?:\s+as\s+([A-Za-z_]\w*))?$")
_PARAM = re.compile(rb"(?:^|,)\s*\*{0,2}([A-Za-z_]\w*)\s*(?=[:=,)]|$)")
_USED = re.compile(rb"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*=(?!=))")
_STRINGS = re.compile(rb""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|#.*""")
_SKIP = frozenset({b"self", b"cls", b"_"} | {k.encode() for k in keyword.kwlist})
MIN_NAME = 3
"""Shorter names (``x``, ``i``) are everywhere; they prove nothing."""


def defined_names(line: bytes) -> set[bytes]:
    """Names the line binds: imports, ``def`` parameters, a class, assignment targets."""
    if found := _FROM_IMPORT.match(line):
        return _imported(found[1], keep_dotted=False)
    if found := _IMPORT.match(line):
        return _imported(found[1], keep_dotted=True)
    if found := _DEF.match(line):
        return {m for m in _PARAM.findall(found[1]) if m not in _SKIP}
    if found := _CLASS.match(line):
        return {found[1]}
    if found := _ASSIGN.match(line):
        return {name.strip() for name in found[1].split(b",")} - _SKIP
    return set()


def used_names(line: bytes) -> set[bytes]:
    """Names the line reads (not attributes, keywords, strings, comments, or ``key=`` targets)."""
    return {n for n in _USED.findall(_STRINGS.sub(b" ", line)) if n not in _SKIP and len(n) >= MIN_NAME}


def _imported(names: bytes, keep_dotted: bool) -> set[bytes]:
    out: set[bytes] = set()
    for part in names.split(b","):
        found = _IMPORTED_NAME.match(part.strip())
        if found:
            out.add(found[2] or (found[1].split(b".")[0] if keep_dotted else found[1]))
    return out


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip())


def _word(name: bytes) -> re.Pattern[bytes]:
    return re.compile(rb"(?<![\w.])" + re.escape(name) + rb"\b")


def _lines_with(text: bytes, name: bytes) -> list[bytes]:
    """The lines of ``text`` where ``name`` occurs as a word (not as an attribute)."""
    found = []
    for match in _word(name).finditer(text):
        start = text.rfind(b"\n", 0, match.start()) + 1
        end = text.find(b"\n", match.end())
        found.append(text[start : len(text) if end < 0 else end])
    return found


def dangling(dropped: Sequence[bytes], result: Sequence[bytes], start: int, end: int) -> list[bytes]:
    """Names ``dropped`` lines defined that ``result`` still uses and defines nowhere.

    ``result[start:end]`` is what the result holds in the hunk's place.  A
    name bound inside a block (a parameter, a local) must be used in the
    rest of that block; an import or a module-level name anywhere after it.
    """
    found: list[bytes] = []
    for line in dropped:
        names = {n for n in defined_names(line) if len(n) >= MIN_NAME} - set(found)
        if not names:
            continue
        is_def = line.lstrip().startswith((b"def ", b"async "))
        module_level = _indent(line) == 0 and not is_def
        stop = len(result) if module_level else _scope_end(result, end, _indent(line), is_def)
        here = b"".join(result[start:end])
        after = b"".join(result[end:stop])
        binders = b"".join(result if module_level else result[start:stop])
        for name in sorted(names):
            if _lines_with(here, name) or any(name in defined_names(x) for x in _lines_with(binders, name)):
                continue
            if _lines_with(after, name):
                found.append(name)
    return found


def orphaned(dropped: Sequence[bytes], result: Sequence[bytes], start: int, end: int) -> list[bytes]:
    """Names the dropped lines used that the result still defines but never uses any more."""
    candidates = sorted({n for line in dropped for n in used_names(line)})
    if not candidates:
        return []
    text = b"".join(result)
    found = []
    for name in candidates:
        hits = _lines_with(text, name)
        if hits and all(name in defined_names(line) for line in hits):
            found.append(name)
    return found


def _scope_end(result: Sequence[bytes], end: int, indent: int, is_def: bool) -> int:
    """Where the block a name was bound in ends: the first line indented less than it."""
    limit = indent + 1 if is_def else indent
    stop = end
    while stop < len(result):
        line = result[stop]
        if line.strip() and _indent(line) < limit:
            break
        stop += 1
    return stop
