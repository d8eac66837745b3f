"""The records: which names a Python file binds and reads, where, and in which scope."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, Final, Literal

Scope = tuple[str, ...]
"""A qualified scope: ``()`` the module, ``("Layer", "forward")`` a method."""

BindingKind = Literal["import", "param", "def", "class", "assign"]
IMPORT: Final = "import"
PARAM: Final = "param"
DEF: Final = "def"
CLASS: Final = "class"
ASSIGN: Final = "assign"



@dataclass(frozen=True, slots=True)
class Binding:
    """A name bound on a line (0-based): an import, a parameter, a def, a class, an assignment."""

    name: str
    line: int
    scope: Scope
    kind: BindingKind


@dataclass(frozen=True, slots=True)
class Use:
    """A name read (or an attribute touched) on a line (0-based), from a scope."""

    name: str
    line: int
    scope: Scope


@dataclass(frozen=True)
class NameFacts:
    """Bindings and uses of the names asked about."""

    bindings: tuple[Binding, ...] = ()
    uses: tuple[Use, ...] = ()
    attributes: tuple[Use, ...] = ()
    """Attributes read (``self.name``, ``obj.name``): the name after the dot."""
    attribute_stores: tuple[Use, ...] = ()
    """Attributes assigned (``self.name = ...``)."""
    classes: frozenset[Scope] = frozenset()
    """Scopes that are class bodies (invisible from the methods inside them)."""
    star: bool = False
    """A ``from x import *``: any name may be bound, so none is known to be missing."""
    _bound: dict[str, set[Binding]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _used: dict[str, set[Use]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _attributes: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _stored: set[str] = field(default_factory=set, init=False, repr=False, compare=False)
    _on_line: dict[str, dict[int, list[Binding | Use]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Per record kind, per line: what is on it (so questions about some lines skip the rest)."""

    def __post_init__(self) -> None:
        for binding in self.bindings:
            self._bound.setdefault(binding.name, set()).add(binding)
        for use in self.uses:
            self._used.setdefault(use.name, set()).add(use)
        self._attributes.update(a.name for a in self.attributes)
        self._stored.update(a.name for a in self.attribute_stores)
        for kind in ("bindings", "uses", "attributes", "attribute_stores"):
            index: dict[int, list[Binding | Use]] = {}
            for record in getattr(self, kind):
                index.setdefault(record.line, []).append(record)
            self._on_line[kind] = index

    def on_lines(self, kind: str, lines: Collection[int]) -> list[Any]:
        """The ``kind`` records (``bindings``, ``uses``, ``attributes``, ``attribute_stores``) on
        ``lines``, looked up by line: a question per hunk costs its lines, not the whole file."""
        index = self._on_line[kind]
        if len(lines) < len(index):
            return [record for line in sorted(set(lines)) for record in index.get(line, ())]
        wanted = lines if isinstance(lines, (set, frozenset)) else set(lines)
        return [record for line in sorted(index) if line in wanted for record in index[line]]

    def bound(self, name: str) -> set[Binding]:
        return self._bound.get(name, set())

    def uses_of(self, name: str) -> set[Use]:
        return self._used.get(name, set())

    def referenced(self, name: str) -> bool:
        """Whether the name is read anywhere, as a name or as an attribute."""
        return name in self._used or name in self._attributes

    def reads_attribute(self, name: str) -> bool:
        return name in self._attributes

    def defines_attribute(self, name: str) -> bool:
        """Whether something gives objects an attribute ``name``: an assignment to it, or a class member."""
        return name in self._stored or any(b.scope in self.classes for b in self.bound(name))

    def resolve(self, name: str, scope: Scope) -> Scope | None:
        """The scope whose binding of ``name`` a use in ``scope`` reads (None: unbound).

        Python's rule, without flow: the innermost enclosing scope that binds
        the name, skipping class bodies other than the use's own.
        """
        homes = {b.scope for b in self.bound(name)}
        for depth in range(len(scope), -1, -1):
            candidate = scope[:depth]
            if candidate in self.classes and candidate != scope:
                continue
            if candidate in homes:
                return candidate
        return None

    def visible(self, home: Scope, scope: Scope) -> bool:
        """Whether a binding in ``home`` can be what a use in ``scope`` reads."""
        if scope[: len(home)] != home:
            return False
        return home == scope or home not in self.classes

