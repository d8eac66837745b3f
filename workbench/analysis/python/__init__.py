"""Python source as the analysis reads it: one tree-sitter parser (``parse.py``, trees cached by blob id),
the scopes of names (``scope/``: which names a file binds and reads, where), what a module defines and
imports (``module_index.py`` over ``module_records.py``), names used but never bound (``undefined.py``) and
who imports a module (``importers.py``).

tree-sitter rather than ``ast`` everywhere: a sync leaves half-merged text
(conflict markers, a hunk cut mid-statement) that ``ast`` refuses whole.
"""
