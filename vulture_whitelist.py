"""Names vulture cannot see used: Textual reads them (widget attributes, Line API hooks), Rich sets
``quiet``, and record fields kept for readers of the data (JSON, tests)."""

from workbench.git.types import ConflictEntry, ResolvedPaths  # noqa: F401

_.border_title  # noqa: B018, F821  Textual draws it
_.border_subtitle  # noqa: B018, F821
_.control  # noqa: B018, F821  Textual's message.control
_.can_replace  # noqa: B018, F821  Textual's message coalescing
_.virtual_size  # noqa: B018, F821  Textual's ScrollView
_.display  # noqa: B018, F821
_.quiet  # noqa: B018, F821  Rich's Console
_.merged_mode  # noqa: B018, F821  the mode git gave the merged path (record field)
_.newer_dev  # noqa: B018, F821

# The scope walkers dispatch on node types by name (getattr(self, '_' + node type)).
_._AnnAssign  # noqa: B018, F821
_._Assign  # noqa: B018, F821
_._Attribute  # noqa: B018, F821
_._AugAssign  # noqa: B018, F821
_._ClassDef  # noqa: B018, F821
_._ExceptHandler  # noqa: B018, F821
_._Global  # noqa: B018, F821
_._Import  # noqa: B018, F821
_._ImportFrom  # noqa: B018, F821
_._Lambda  # noqa: B018, F821
_._MatchAs  # noqa: B018, F821
_._MatchMapping  # noqa: B018, F821
_._MatchStar  # noqa: B018, F821
_._Name  # noqa: B018, F821
_._as_pattern  # noqa: B018, F821
_._assignment  # noqa: B018, F821
_._augmented_assignment  # noqa: B018, F821
_._class_definition  # noqa: B018, F821
_._for_in_clause  # noqa: B018, F821
_._for_statement  # noqa: B018, F821
_._function_definition  # noqa: B018, F821
_._global_statement  # noqa: B018, F821
_._identifier  # noqa: B018, F821
_._import_from_statement  # noqa: B018, F821
_._import_statement  # noqa: B018, F821
_._keyword_argument  # noqa: B018, F821
_._lambda  # noqa: B018, F821
_._named_expression  # noqa: B018, F821
_._string  # noqa: B018, F821
_._type  # noqa: B018, F821

# resolve.journal's own test for journal state; the CLI's warm path asks sync._keeps_journals instead (no
# import of the journal's model).  Left for the resolve owner to keep or delete.
