"""The sync policy: its rules (``rules.py``), globs, built-in presets and the uv-sources check.

What the policy says about one sync is the ``apply_policy`` stage
(``analysis/stages/apply_policy.py``); this package only reads and matches.  Nothing is imported here: the cache's warm path reads
``presets.py`` without loading the analysis model that ``rules.py`` needs.
"""

