"""Names a dropped dev line defined that the result still uses.

When ``-X theirs`` drops an import, a parameter or an assignment of dev's
while dev's code that uses the name survives elsewhere, the result compiles
and fails at run time (the ``CudaGraphScope`` import of sync #4291).  This
is a line-level look at Python-like text: enough to turn "a line is
missing" into "a line is missing *and something still needs it*".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_FROM_IMPORT = re.compile(rb"^\s*from\s+[\w.]+\s+import\s+\(?\s*(.*?)\)?\s*(?:#.*)?$")
_IMPORT = re.compile(rb"^\s*import\s+(.*?)\s*(?:#.*)?$")
_DEF = re.compile(rb"^\s*(?:async\s+)?def\s+\w+\s*\((.*)$")
_CLASS = re.compile(rb"^\s*class\s+(\w+)")
_ASSIGN = re.compile(rb"^\s*([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_]\w*)*)\s*(?::[^=]+)?=(?!=)")
_IMPORTED_NAME = re.compile(rb"^([A-Za-z_][\w.]*)(?:\s+as\s+([A-Za-z_]\w*))?$")
_PARAM = re.compile(rb"(?:^|,)\s*\*{0,2}([A-Za-z_]\w*)\s*(?=[:=,)]|$)")
_SKIP = frozenset({b"self", b"cls", b"_"})
MIN_NAME = 3


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


def _imported(names: bytes, keep_dotted: bool) -> set[bytes]:
    out: set[bytes] = set()
    for part in names.split(b","):
        found = _IMPORTED_NAME.match(part.strip())
        if found:
            out.add(found[2] or (found[1].split(b".")[0] if keep_dotted else found[1]))
    return out


def _indent(line: bytes) -> int:
    return len(line) - len(line.lstrip())


def _uses(lines: Sequence[bytes], name: bytes) -> bool:
    word = re.compile(rb"(?<![\w.])" + re.escape(name) + rb"\b")
    return any(word.search(line) for line in lines)


def _binds(lines: Sequence[bytes], name: bytes) -> bool:
    return any(name in defined_names(line) for line in lines if name in line)


def dangling(
    dropped: Sequence[bytes],
    result: Sequence[bytes],
    start: int,
    end: int,
) -> list[bytes]:
    """Names ``dropped`` lines defined that ``result`` still uses and defines nowhere.

    ``result[start:end]`` is what the result holds in the hunk's place.  A
    name bound inside a block (a parameter, a local) must be used in the
    block that follows in the result; an import or a module-level name
    anywhere in the result.
    """
    found: list[bytes] = []
    for line in dropped:
        names = {n for n in defined_names(line) if len(n) >= MIN_NAME}
        if not names:
            continue
        is_def = line.lstrip().startswith((b"def ", b"async "))
        module_level = _indent(line) == 0 and not is_def
        stop = len(result) if module_level else _scope_end(result, end, _indent(line), is_def)
        binders = result if module_level else result[start:stop]
        for name in sorted(names - set(found)):
            if _uses(result[start:end], name) or _binds(binders, name):
                continue
            if _uses(result[end:stop], name):
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
