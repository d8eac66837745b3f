"""Which names a Python file binds and uses, where, and in which scope.

A dropped line matters more when the code the result kept still needs a
name only that line bound (a dangling name), or when it was the last use of
a name the result still binds (an orphaned one).  Telling that apart needs
Python's own structure: a black/isort import spreads one statement over
many lines, a parameter list can too, and a name bound in one function is
not visible in another.  The records
(``facts.py``) come from one tree-sitter walk (``ts_walk.py``); ``source.py`` limits it to
the lines a question is about.
"""

from __future__ import annotations

from workbench.analysis.python.builtin_names import BUILTINS
from workbench.analysis.python.scope.facts import (
    ASSIGN,
    CLASS,
    DEF,
    IMPORT,
    PARAM,
    Binding,
    NameFacts,
    Scope,
    Use,
)
from workbench.analysis.python.scope.source import PythonFile, Question, python_facts

__all__ = [
    "ASSIGN",
    "BUILTINS",
    "CLASS",
    "DEF",
    "IMPORT",
    "PARAM",
    "Binding",
    "NameFacts",
    "PythonFile",
    "Question",
    "Scope",
    "Use",
    "python_facts",
]
