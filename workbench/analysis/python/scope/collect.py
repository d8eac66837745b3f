"""What both walkers accumulate, and which parts of a file they enter.

A walk is told which lines matter (``Keep``) and, optionally, which scope
(``within``): it then enters only the classes and functions on the way to
that scope, and inside it unless told not to (``nested``), so a question
about one function's parameter does not read the rest of a 3,000-line file.
"""

from __future__ import annotations

import ast
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable

from workbench.analysis.python.scope.facts import Binding, BindingKind, NameFacts, Scope, Use

Keep = Callable[[int, int], bool]
"""Whether any line of interest falls in 0-based lines ``[first, last]``."""


class Collector(ABC):
    """The facts one walker gathers over one or more walks of a file."""

    def __init__(self) -> None:
        self.keep: Keep = lambda _first, _last: True
        self.within: Scope | None = None
        self.nested = True
        self.bindings: list[Binding] = []
        self.uses: list[Use] = []
        self.attributes: list[Use] = []
        self.attribute_stores: list[Use] = []
        self.classes: set[Scope] = set()
        self.globals: dict[Scope, set[str]] = {}
        self.star = False

    @abstractmethod
    def walk(self) -> None:
        """Collect, from the whole file, what the last ``aim`` asked for."""

    def aim(self, keep: Keep, within: Scope | None, nested: bool = True) -> None:
        """Set what the next walk collects; facts of earlier walks are kept."""
        self.keep, self.within, self.nested = keep, within, nested

    def enters(self, inner: Scope) -> bool:
        """Whether the walk goes into the class or function whose scope is ``inner``."""
        within = self.within
        if within is None:
            return True
        if not self.nested and len(inner) > len(within):
            return False
        depth = min(len(inner), len(within))
        return inner[:depth] == within[:depth]

    def bind(self, name: str, line: int, scope: Scope, kind: BindingKind) -> None:
        if name in self.globals.get(scope, ()):
            scope = ()
        self.bindings.append(Binding(name, line, scope, kind))

    def use(self, name: str, line: int, scope: Scope) -> None:
        self.uses.append(Use(name, line, scope))

    def attribute(self, name: str, line: int, scope: Scope, store: bool = False) -> None:
        (self.attribute_stores if store else self.attributes).append(Use(name, line, scope))

    def facts(self) -> NameFacts:
        return NameFacts(
            tuple(self.bindings),
            tuple(self.uses),
            tuple(self.attributes),
            tuple(self.attribute_stores),
            frozenset(self.classes),
            self.star,
        )


def annotation_names(text: str) -> list[str]:
    """The names a string annotation (``"Config | None"``) reads."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [node.id for node in ast.walk(tree) if isinstance(node, ast.Name)]
