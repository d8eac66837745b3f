"""One Python file of the result, seen against dev's, main's and the base's versions.

Which lines of the result each side brought in: lines whose text that side
added since the merge base, the result ranges of hunks that took that side,
and the whole file when the result *is* that side's version of a file the
other side also changed (an override, or a whole-file choice in the app).
Those are the lines whose calls are checked, and against whose tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from workbench.analysis.api.binding import TreeModules
from workbench.analysis.model import FileAnalysis, Hunk, Taken, Whose
from workbench.analysis.python.module_index import package_of
from workbench.git.types import TreeRole

SIDES: tuple[Whose, ...] = ("main", "dev")
OTHER: dict[Whose, Whose] = {"main": "dev", "dev": "main"}


@dataclass
class FileView:
    path: str
    entry: FileAnalysis | None
    blobs: dict[TreeRole, str | None]
    data: bytes
    lines: dict[TreeRole, list[bytes]]
    side_lines: dict[Whose, set[int]]
    sets: dict[TreeRole, frozenset[bytes]] = field(default_factory=dict)
    _positions: dict[Whose, dict[bytes, list[int]]] = field(default_factory=dict)

    def sides_at(self, first: int, last: int | None = None) -> list[Whose]:
        span = range(first, (last or first) + 1)
        return [side for side in SIDES if any(n in self.side_lines[side] for n in span)]

    def side_line(self, side: Whose, line: int) -> int | None:
        """The line of ``side``'s file holding the text of result line ``line`` (nearest one)."""
        positions = self._positions.get(side)
        if positions is None:
            positions = {}
            for i, text in enumerate(self.lines[side]):
                positions.setdefault(text, []).append(i + 1)
            self._positions[side] = positions
        found = positions.get(self.lines["result"][line - 1])
        if not found:
            return None
        return min(found, key=lambda n: abs(n - line))

    def in_side(self, side: Whose, line: int) -> bool:
        return self.lines["result"][line - 1] in self.sets[side]

    def hunk_at(self, line: int) -> Hunk | None:
        """The hunk whose result range holds ``line``."""
        for hunk in self.entry.hunks if self.entry is not None else ():
            if hunk.result is not None and hunk.result.start <= line <= hunk.result.end:
                return hunk
        return None


def file_view(path: str, entry: FileAnalysis | None, result: TreeModules, read: dict[TreeRole, TreeModules],
              base_blob: str | None, base_data: bytes | None, override: bool = False) -> FileView | None:
    """The view of ``path``, or None when no side brought anything into its result."""
    data = result.read(path)
    result_blob = result.blob(path)
    if data is None or result_blob is None or result_blob == base_blob:
        return None
    blobs: dict[TreeRole, str | None] = {"result": result_blob, "base": base_blob}
    texts: dict[TreeRole, bytes] = {"result": data, "base": base_data or b""}
    for side in SIDES:
        blobs[side] = read[side].blob(path)
        texts[side] = read[side].read(path) or b""
    lines = {role: text.splitlines() for role, text in texts.items()}
    sets = {role: frozenset(found) for role, found in lines.items()}
    side_lines: dict[Whose, set[int]] = {}
    for side in SIDES:
        added = sets[side] - sets["base"]
        side_lines[side] = {i + 1 for i, text in enumerate(lines["result"]) if text in added and text.strip()}
        other = OTHER[side]
        whole = result_blob == blobs[side] and blobs[other] not in (base_blob, result_blob)
        if whole or (side == "main" and override):
            side_lines[side] |= {i + 1 for i, text in enumerate(lines["result"]) if text in sets[side] and text.strip()}
    for hunk in entry.hunks if entry is not None else ():
        if hunk.result is None or hunk.result.empty:
            continue
        span = range(hunk.result.start, hunk.result.end + 1)
        if hunk.taken in (Taken.MAIN, Taken.BOTH):
            side_lines["main"].update(n for n in span if lines["result"][n - 1] in sets["main"])
        if hunk.taken in (Taken.DEV, Taken.BOTH):
            side_lines["dev"].update(n for n in span if lines["result"][n - 1] in sets["dev"])
    if not any(side_lines.values()):
        return None
    return FileView(path, entry, blobs, data, lines, side_lines, sets)


# Both start with a literal word, which ``re`` finds fast; the line start is checked afterwards.
# Possessive: the dots and the dotted name are one run, never split (a run of
# dots would otherwise be retried at every split, quadratic in its length).
_FROM = re.compile(rb"from[ \t]++(\.*+[\w.]*+)[ \t]++import[ \t]*(\(?)([^\n]*)")
_IMPORT = re.compile(rb"import[ \t]+([^\n]+)")
_NAME = re.compile(rb"[A-Za-z_]\w*")


def imported_modules(path: str, data: bytes) -> set[tuple[str, str | None, str]]:
    """(module, imported name, local name) triples of a file's imports, read from its text.

    A cheap, generous reading (comments and strings may add some): it
    decides whether a file needs parsing at all, never what is reported.
    """
    package = package_of(path)
    found: set[tuple[str, str | None, str]] = set()
    for match in _FROM.finditer(data):
        if not _starts_line(data, match.start()):
            continue
        module = _absolute_text(match[1].decode("ascii", "replace"), package)
        names = match[3]
        if match[2]:
            end = data.find(b")", match.end(3))
            names = data[match.start(3): end if end >= 0 else len(data)]
        for item in names.split(b","):
            words = _NAME.findall(item.split(b"#", 1)[0])
            if words:
                found.add((module, words[0].decode("ascii", "replace"), words[-1].decode("ascii", "replace")))
    for match in _IMPORT.finditer(data):
        if not _starts_line(data, match.start()):
            continue
        for item in match[1].split(b"#", 1)[0].split(b","):
            words = item.split()
            if words:
                module = words[0].decode("ascii", "replace")
                local = words[-1].decode("ascii", "replace") if len(words) == 3 else module.split(".", 1)[0]
                found.add((module, None, local))
    return found


def _starts_line(data: bytes, pos: int) -> bool:
    """Only blanks between the previous newline and ``pos``."""
    start = data.rfind(b"\n", 0, pos) + 1
    return not data[start:pos].strip()


def _absolute_text(module: str, package: str) -> str:
    level = len(module) - len(module.lstrip("."))
    if not level:
        return module
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    rest = module[level:]
    return ".".join([*base, *([rest] if rest else [])])
