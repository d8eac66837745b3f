"""Names that tie a dropped dev line to the code the result kept.

When ``-X theirs`` drops an import, a parameter or an assignment of dev's
while dev's code that uses the name survives elsewhere, the result compiles
and fails at run time (an import a real sync broke): the
name *dangles*.  The other way round, when the dropped line was the only
use of a name the result still binds (a new parameter, an import), that
name is now *orphaned*: dev's change survives half-done.

Both questions are answered from parsed Python (``pyscope``): which names
dev's file binds and reads on the dropped lines, in which scope, and
whether the result reads or binds them where that scope can see.  Only
``.py`` files are looked at; other text has no reliable notion of a name.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from workbench.analysis.model import FileAnalysis, Hunk, Taken
from workbench.analysis.python.scope import (
    ASSIGN,
    BUILTINS,
    CLASS,
    DEF,
    NameFacts,
    PythonFile,
    Question,
    Scope,
)
from workbench.analysis.xdiff import joined, split_lines

MIN_NAME = 3
"""Shorter names (``x``, ``i``) are everywhere; they prove nothing."""
_SKIP = frozenset({"self", "cls"})


def _worth(name: str) -> bool:
    return len(name) >= MIN_NAME and name not in _SKIP and not name.startswith("__")


def dangling(dropped: Collection[int], dev: NameFacts, result: NameFacts) -> list[str]:
    """Names bound on ``dropped`` lines of dev's file that the result reads with nothing binding them.

    A use counts only where the dropped binding was visible: anywhere for a
    module-level name, inside the function for a parameter or a local.  An
    attribute the dropped lines gave objects (a dataclass field, a class
    member, ``self.name = ...``) dangles when the result still reads
    ``.name`` and nothing in the file gives it any more.
    """
    found: set[str] = set()
    for binding in dev.on_lines("bindings", dropped):
        name = binding.name
        if name in found or not _worth(name):
            continue
        if binding.scope in dev.classes:
            if _attribute_dangles(name, result):
                found.add(name)
            continue
        if result.star or name in BUILTINS:
            continue
        for use in result.uses_of(name):
            if dev.visible(binding.scope, use.scope) and result.resolve(name, use.scope) is None:
                found.add(name)
                break
    for store in dev.on_lines("attribute_stores", dropped):
        if _worth(store.name) and _attribute_dangles(store.name, result):
            found.add(store.name)
    return sorted(found)


def _attribute_dangles(name: str, result: NameFacts) -> bool:
    return result.reads_attribute(name) and not result.defines_attribute(name)


def orphaned(dropped: Collection[int], dev: NameFacts, result: NameFacts) -> list[str]:
    """Names the ``dropped`` lines read that the result still binds there but never reads any more.

    Only bindings that exist for their readers count: an import, a
    parameter, a function's local, or a private helper (``_name``, a
    function or method the file keeps to itself, called as ``self._name``
    too).  A public function, class or constant may be used from other files.
    """
    found: set[str] = set()
    for use in dev.on_lines("uses", dropped):
        name = use.name
        if name in found or not _worth(name):
            continue
        home = dev.resolve(name, use.scope)
        if home is None or not _binds_for_readers(result, name, home):
            continue
        if not any(result.resolve(name, other.scope) == home for other in result.uses_of(name)):
            found.add(name)
    for ref in dev.on_lines("attributes", dropped):
        name = ref.name
        if name in found or not _private(name):
            continue
        if any(b.kind == DEF for b in result.bound(name)) and not result.referenced(name):
            found.add(name)
    return sorted(found)


def _binds_for_readers(facts: NameFacts, name: str, home: Scope) -> bool:
    """Whether ``facts`` bind ``name`` in ``home`` in a way that exists only to be read (see ``orphaned``)."""
    return any(b.scope == home and _for_readers(b.kind, name, home, facts) for b in facts.bound(name))


def _private(name: str) -> bool:
    return _worth(name) and name.startswith("_")


def _for_readers(kind: str, name: str, scope: Scope, facts: NameFacts) -> bool:
    if kind in (DEF, CLASS):
        return _private(name)
    return kind != ASSIGN or (scope != () and scope not in facts.classes)


class FileNames:
    """Dev's side and the result of one ``.py`` file, parsed once for the lines all its hunks ask about.

    Dev's file is walked on the dropped lines, then along the scopes their
    names live in; the result only where those names can be seen from.
    """

    def __init__(self, entry: FileAnalysis, asked: Iterable[Collection[int]]) -> None:
        self._entry = entry
        self._lines = {n for lines in asked for n in lines}
        self._facts_cache: tuple[NameFacts, NameFacts] | None = None

    def _facts(self) -> tuple[NameFacts, NameFacts] | None:
        entry = self._entry
        if entry.merge is None or entry.result_bytes is None or not self._lines:
            return None
        if self._facts_cache is None:
            lines = self._lines
            dev_file = PythonFile(joined(entry.merge.ours))
            dev = _dev_facts(dev_file, lines)
            self._facts_cache = dev, _result_facts(main_taken(entry), dev, self._lines)
        return self._facts_cache

    def clause(self, dropped: Collection[int], pending: bool) -> str:
        """What the result still needs from the ``dropped`` dev lines, as a clause ('' when nothing)."""
        facts = self._facts()
        if facts is None:
            return ""
        dev, result = facts
        lines, define = ("this line", "defines") if len(dropped) == 1 else ("these lines", "define")
        names = dangling(dropped, dev, result)
        if names:
            shown = _show(names)
            if pending:
                return f"the result would still use {shown}, which only {lines} {define}"
            return f"the result still uses {shown}, which only {lines} defined"
        names = orphaned(dropped, dev, result)
        if names:
            shown, it = _show(names), "it" if len(names) == 1 else "them"
            if pending:
                return f"the result would still define {shown} but nothing would use {it}"
            return f"the result still defines {shown} but nothing uses {it} any more"
        return ""


def _dev_facts(dev: PythonFile, lines: Collection[int]) -> NameFacts:
    """What the dropped lines bind and read, and where dev binds the names they read."""
    on_lines = dev.facts(lines=lines)
    chains: dict[Scope, set[str]] = {}
    for use in on_lines.uses:
        if use.line in lines and _worth(use.name) and use.name not in BUILTINS:
            chains.setdefault(use.scope, set()).add(use.name)
    chain = [Question(names, within=scope, nested=False) for scope, names in chains.items()]
    return dev.facts_for([Question(lines=lines), *chain])


def _result_facts(result: bytes, dev: NameFacts, lines: Collection[int]) -> NameFacts:
    """The result's facts for the names ``dangling`` and ``orphaned`` can ask about, where they can be seen.

    A name the result's text never mentions can neither dangle there nor
    be orphaned there, so a file whose dropped lines name nothing the
    result mentions is not parsed at all.
    """
    wanted: dict[Scope | None, set[str]] = {}
    result_words = words(result)

    def want(scope: Scope | None, name: str) -> None:
        if _worth(name) and mentions(result, result_words, name):
            wanted.setdefault(scope or None, set()).add(name)

    for binding in dev.bindings:
        if binding.line in lines:
            want(None if binding.scope in dev.classes else binding.scope, binding.name)
    for use in dev.uses:
        home = dev.resolve(use.name, use.scope) if use.line in lines else None
        if home is not None and _binds_for_readers(dev, use.name, home):
            want(home, use.name)
    for ref in dev.attribute_stores:
        if ref.line in lines:
            want(None, ref.name)
    for ref in dev.attributes:
        if ref.line in lines and _private(ref.name):
            want(None, ref.name)
    if not wanted:
        return NameFacts()
    return PythonFile(result).facts_for([Question(names, within=scope) for scope, names in wanted.items()])


_WORD = re.compile(rb"[A-Za-z0-9_]+")


def words(text: bytes) -> set[bytes]:
    """The ASCII words of ``text``: a name is mentioned as a whole word when it is one of them."""
    return set(_WORD.findall(text))


def mentions(text: bytes, text_words: set[bytes], name: str) -> bool:
    """``_mentions`` answered from ``words(text)`` (one scan for any number of names) when it can be."""
    return name.encode() in text_words if name.isascii() else _mentions(text, name)


def _mentions(text: bytes, name: str) -> bool:
    """Whether ``name`` occurs in ``text`` as a whole word."""
    word = name.encode()
    start = text.find(word)
    while start >= 0:
        end = start + len(word)
        before = text[start - 1 : start] if start else b""
        after = text[end : end + 1]
        if not (before.isalnum() or before == b"_") and not (after.isalnum() or after == b"_"):
            return True
        start = text.find(word, end)
    return False


def _show(names: list[str]) -> str:
    return ", ".join(names[:3])


def main_taken(entry: FileAnalysis) -> bytes:
    """The result with every still-conflicted hunk taken from main: what the names are checked against."""
    data = entry.result_bytes or b""
    pending = [h for h in entry.hunks if h.taken is Taken.UNRESOLVED and h.result is not None]
    if not pending:
        return data
    lines = split_lines(data)
    for hunk in sorted(pending, key=_start, reverse=True):
        assert hunk.result is not None
        lines[hunk.result.start - 1 : hunk.result.end] = list(hunk.main_text)
    return b"".join(lines)


def _start(hunk: Hunk) -> int:
    return hunk.result.start if hunk.result is not None else 0
