"""Built-in sync policies, written as the TOML a repository would put in ``.workbench.toml``.

Keeping presets in the config format means one parser, one set of checks,
and a preset a maintainer can copy into their repository and edit.
"""

from __future__ import annotations

MEGATRON = '''\
# Megatron-LM's nightly main-to-dev sync (skills/nightly-sync/SKILL.md).

# Known semantic conflicts: dev's versions reference args or APIs main removed
# or renamed.  Take main's version, then audit its callers.
override_from_main = [
    "megatron/training/training.py",
    "megatron/training/initialize.py",
    "megatron/training/utils.py",
    "megatron/training/datasets/data_samplers.py",
    "megatron/core/optimizer/layer_wise_optimizer.py",
]

# Never take main's version of these.
keep_dev = [
    "pyproject.toml",
    "uv.lock",
    "docker/Dockerfile.ci.dev",
    ".github/CODEOWNERS",
]

# The Dockerfile's `uv sync` must match pyproject's dependency groups, and
# uv.lock must be consistent with both.
coupled = [
    ["pyproject.toml", "uv.lock", "docker/Dockerfile.ci.dev"],
]

# The sync's own authors: the nightly bot's merges and fix commits, and the CI
# identity that pushed the earlier syncs' fixes.  Their commits are never read
# as dev's or main's intent (a file they deleted is not "deleted by dev").
sync_bots = ["svcnvidia-nemo-ci", "claude[bot]"]

[notes]
"pyproject.toml" = "Keep dev's pyproject.toml; add the git sources main added to [tool.uv.sources] (main's code may import from them), then regenerate uv.lock with `uv lock` in the CUDA container."
"uv.lock" = "Never edit uv.lock by hand: regenerate it with `uv lock` inside the CUDA container."
".github/CODEOWNERS" = "The sync must never modify CODEOWNERS: restore dev's version verbatim (`git diff DEV -- .github/CODEOWNERS` must be empty)."
"megatron/training/**" = "On the override list: take main's version, then check every call it makes into dev's code (API audit)."
"megatron/core/optimizer/layer_wise_optimizer.py" = "On the override list (constructor signature): take main's version, then check its callers."
'''

PRESETS: dict[str, str] = {"megatron": MEGATRON}
"""Preset name -> its configuration text."""
