"""Whether a Python file about to be written compiles: the running Python decides.

``compile`` (the parser and the compiler's own checks: ``return`` outside a
function, arguments after ``**kwargs``, a missing indent) is the judge.
Only a newer grammar may overrule it, and only where the file uses a
construct that grammar adds (type parameters and their defaults, ``type``
aliases, PEP 701 f-strings, ``except A, B:``): ``python_newer.py`` checks
each such construct on its own and replaces it, and the running Python must
then compile all the rest.  tree-sitter only finds the constructs; that it
parses a file proves nothing (it accepts every error above).  A file too
deep to check is let through with a warning the user sees.
"""

from __future__ import annotations

import ast
import warnings
from dataclasses import dataclass

from workbench.resolve.python_newer import rewrite

NESTING = 8
"""f-strings inside f-strings checked this deep (an expression is checked by the same rules as the file)."""


@dataclass(frozen=True, slots=True)
class PythonCheck:
    """``error``: why the file must not be written; ``warning``: what could not be checked;
    ``newer``: the newer-grammar constructs the running Python needed help with."""

    error: str | None = None
    warning: str | None = None
    newer: tuple[str, ...] = ()


def check_python(data: bytes, path: str) -> PythonCheck:
    """Compile ``data`` with the running Python, newer-grammar constructs checked apart (see the module)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _check(data, path)
    except (RecursionError, MemoryError):
        return PythonCheck(warning="too deeply nested to check its syntax with this Python")


def _check(data: bytes, path: str) -> PythonCheck:
    try:
        compile(data, path, "exec", dont_inherit=True)
        return PythonCheck()
    except SyntaxError as exc:
        first = exc
    except ValueError as exc:  # a NUL byte (3.11 raises ValueError, 3.12 SyntaxError)
        return PythonCheck(error=str(exc))
    found = rewrite(data, lambda text, line: _expression(text, line, 1))
    if found.problem is not None:
        return PythonCheck(error=found.problem, newer=found.constructs)
    if not found.constructs:
        return PythonCheck(error=_words(first))
    try:
        compile(found.source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as exc:
        return PythonCheck(error=_words(exc), newer=found.constructs)
    return PythonCheck(newer=found.constructs)


def _expression(text: bytes, line: int, depth: int) -> str | None:
    """Why ``text`` (a parenthesized expression whose first line is the file's ``line``) does not parse, or None."""
    try:
        ast.parse(text, mode="eval")
        return None
    except SyntaxError as exc:
        first = exc
    except ValueError as exc:
        return f"line {line}: {exc}"
    if depth < NESTING:
        found = rewrite(text, lambda inner, at: _expression(inner, at, depth + 1), line)
        if found.problem is not None:
            return found.problem
        if found.constructs:
            try:
                ast.parse(found.source, mode="eval")
                return None
            except SyntaxError as exc:
                first = exc
    return _words(first, line - 1, text.count(b"\n"))


def _words(exc: BaseException, shift: int = 0, last: int | None = None) -> str:
    """``line N: what``, N in the file: ``shift`` lines before the checked text's first (an error at the
    closing parenthesis a check added is on the expression's ``last`` line)."""
    if not isinstance(exc, SyntaxError):
        return str(exc)
    line = exc.lineno or 1
    return f"line {(min(line, last) if last else line) + shift}: {exc.msg}"
