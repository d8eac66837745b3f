"""Whether a Python file about to be written parses: refuse only what is surely broken.

``ast`` knows only the grammar of the Python running the workbench; the
project may use a newer one (``type X = int``, PEP 695 generics, 3.12
f-strings on 3.11).  tree-sitter's Python grammar knows those, so a file
``ast`` rejects is refused only when tree-sitter finds an error too.  A file
too deep for ``ast`` (thousands of chained operators) cannot be judged and
is let through with a warning, never a crash.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass

from workbench.analysis.python.parse import parse_text


@dataclass(frozen=True, slots=True)
class PythonCheck:
    """``error``: why the file must not be written; ``warning``: what could not be checked."""

    error: str | None = None
    warning: str | None = None


def check_python(data: bytes, path: str) -> PythonCheck:
    """Parse ``data`` as Python; an error only when both ``ast`` and tree-sitter reject it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(data, filename=path)
    except SyntaxError as exc:
        if not parse_text(data).root_node.has_error:
            return PythonCheck(warning=f"this Python cannot parse it (line {exc.lineno}: {exc.msg}); a newer one can")
        return PythonCheck(error=f"line {exc.lineno}: {exc.msg}")
    except ValueError as exc:
        return PythonCheck(error=str(exc))
    except (RecursionError, MemoryError):
        return PythonCheck(warning="too deeply nested to check its syntax")
    return PythonCheck()
