"""Names vulture cannot see used: Textual reads them (widget attributes, Line API hooks), Rich sets
``quiet``, pickle reads ``dispatch_table``, and the scope walk calls its handlers by node type."""

_.border_title  # noqa: B018, F821  Textual draws it
_.border_subtitle  # noqa: B018, F821
_.control  # noqa: B018, F821  Textual's message.control
_.can_replace  # noqa: B018, F821  Textual's message coalescing
_.virtual_size  # noqa: B018, F821  Textual's ScrollView
_.quiet  # noqa: B018, F821  Rich's Console
_.dispatch_table  # noqa: B018, F821  pickle.Pickler reads it
_.thread  # noqa: B018, F821  a parameter of ViewHost.run_worker (a protocol: Textual's run_worker takes it)
_.terminal_size  # noqa: B018, F821  a parameter of test_snapshots' SnapCompare (a protocol: snap_compare takes it)

# The scope walk dispatches on tree-sitter node types by name (getattr(self, '_' + node type)).
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
