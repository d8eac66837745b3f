"""The sync policy: its rules (``rules.py``), globs, built-in presets and the uv-sources check.

What the policy says about one sync is the ``apply_policy`` stage
(``analysis/stages/apply_policy.py``); this package only reads and matches.
"""

from __future__ import annotations

from workbench.analysis.policy.rules import (
    COUPLED,
    KEEP_DEV,
    OVERRIDE_FROM_MAIN,
    Policy,
    Rule,
    load_policy,
    parse_policy,
    preset,
)

__all__ = ["COUPLED", "KEEP_DEV", "OVERRIDE_FROM_MAIN", "Policy", "Rule", "load_policy", "parse_policy", "preset"]
