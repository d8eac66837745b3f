"""What the audit knows about one module: frozen records built by ``module_index.py``."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class ParamKind(str, Enum):
    POSITIONAL_ONLY = "positional-only"
    POSITIONAL = "positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_POSITIONAL = "var-positional"
    VAR_KEYWORD = "var-keyword"


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: ParamKind
    default: bool = False

    def __str__(self) -> str:
        if self.kind is ParamKind.VAR_POSITIONAL:
            return f"*{self.name}"
        if self.kind is ParamKind.VAR_KEYWORD:
            return f"**{self.name}"
        return f"{self.name}=…" if self.default else self.name


@dataclass(frozen=True, slots=True)
class Function:
    """A ``def``: its name, where it starts, its parameters and decorators."""

    name: str
    line: int
    params: tuple[Param, ...]
    decorators: tuple[str, ...] = ()

    @property
    def binding(self) -> str:
        """How calls bind it: ``static``, ``class``, ``property`` or ``plain``."""
        for deco in self.decorators:
            last = deco.rsplit(".", 1)[-1]
            if last == "staticmethod":
                return "static"
            if last == "classmethod":
                return "class"
            if last in ("property", "cached_property") or last.endswith(".setter"):
                return "property"
        return "plain"

    def signature(self) -> str:
        """``name(a, b=…, *args, c, **kw)``, as a reviewer reads it."""
        parts: list[str] = []
        starred = False
        for i, param in enumerate(self.params):
            if param.kind is ParamKind.KEYWORD_ONLY and not starred:
                parts.append("*")
            starred = starred or param.kind in (ParamKind.KEYWORD_ONLY, ParamKind.VAR_POSITIONAL)
            parts.append(str(param))
            after = self.params[i + 1] if i + 1 < len(self.params) else None
            if param.kind is ParamKind.POSITIONAL_ONLY and (after is None or after.kind is not ParamKind.POSITIONAL_ONLY):
                parts.append("/")
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class Import:
    """One name an import statement binds."""

    local: str
    module: str
    """Absolute dotted module (relative imports resolved against the file's package)."""
    name: str | None
    """The imported attribute for ``from M import name``; None for ``import M``."""
    line: int
    end_line: int
    scope: tuple[int, int] | None = None
    """Lines of the enclosing function for an import inside one; None at module level."""
    full: str = ""
    """The whole dotted name imported (``a.b.c`` for ``import a.b.c``, which binds only ``a``)."""

    @property
    def targets(self) -> tuple[str, ...]:
        """Modules this import may load: ``M`` and, for ``from M import x``, ``M.x``."""
        return (self.full or self.module,) + ((f"{self.module}.{self.name}",) if self.name else ())


@dataclass(frozen=True)
class ClassInfo:
    """A class: its bases (as written), methods, and every attribute it assigns."""

    name: str
    line: int
    end_line: int
    bases: tuple[str, ...]
    methods: dict[str, tuple[Function, ...]]
    attributes: frozenset[str]
    """Names assigned in the class body (``self.x = ...`` in methods: ``index.assigned_attributes``)."""
    decorators: tuple[str, ...] = ()
    dynamic: bool = False
    """Defines ``__getattr__``/``__getattribute__``: any attribute may exist."""
    opaque_bases: bool = False
    """A base is not a plain (dotted) name, e.g. ``namedtuple(...)``: unknowable."""

    @property
    def is_dataclass_like(self) -> bool:
        """Constructors generated from fields: no ``__init__`` to check calls against."""
        return any(d.rsplit(".", 1)[-1].split("(")[0] in ("dataclass", "define", "attrs", "frozen") for d in self.decorators)


@dataclass(frozen=True)
class ModuleIndex:
    """The bindings of one module (one blob)."""

    path: str
    imports: dict[str, tuple[Import, ...]]
    local_imports: tuple[Import, ...]
    functions: dict[str, tuple[Function, ...]]
    classes: dict[str, tuple[ClassInfo, ...]]
    names: frozenset[str]
    """Every name bound at module level (imports, defs, classes, assignments)."""
    stars: tuple[str, ...] = ()
    """Modules imported with ``*``."""
    dynamic: bool = False
    """Defines a module-level ``__getattr__``: any attribute may exist."""
    all_imports: tuple[Import, ...] = field(default=(), repr=False)

    def class_at(self, row_line: int) -> ClassInfo | None:
        """The innermost top-level class whose body holds ``row_line``."""
        for variants in self.classes.values():
            for cls in variants:
                if cls.line <= row_line <= cls.end_line:
                    return cls
        return None

    def binding(self, name: str, at_line: int) -> tuple[Import, ...]:
        """The imports that bind ``name`` at ``at_line`` (function-local ones first)."""
        local = tuple(
            imp for imp in self.local_imports
            if imp.local == name and imp.scope is not None and imp.scope[0] <= at_line <= imp.scope[1]
        )
        return local or self.imports.get(name, ())
