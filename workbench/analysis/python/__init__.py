"""Python source as the analysis reads it: one tree-sitter parser (``parse.py``, trees cached by blob id)
and the scopes of names (``scope/``: which names a file binds and reads, where).

tree-sitter rather than ``ast`` everywhere: a sync leaves half-merged text
(conflict markers, a hunk cut mid-statement) that ``ast`` refuses whole.
"""
