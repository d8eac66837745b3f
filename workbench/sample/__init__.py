"""Real git repositories for tests, the demo and benchmarks, with their ground truth.

``RepoBuilder`` makes commits with the git binary, isolated and deterministic;
``scenarios`` builds named main-to-dev sync pathologies and the demo sample;
``large`` builds a big synthetic sync for benchmarks.
"""

from __future__ import annotations

from workbench.sample.builder import Author, GitCommandError, RepoBuilder
from workbench.sample.large import LargeSync, build_large_sync
from workbench.sample.scenarios import (
    RECIPES,
    build_sample_sync,
    build_scenario,
    dev_line_dropped,
    intentional_removal,
    policy_files,
    renamed_callee,
    squash_chain_dev_ahead,
    squash_chain_main_ahead,
    structural_conflicts,
)
from workbench.sample.truth import (
    Conflict,
    FileTruth,
    Pathology,
    Risk,
    SampleSync,
    Scenario,
    Verdict,
)

__all__ = [
    "RECIPES",
    "Author",
    "Conflict",
    "FileTruth",
    "GitCommandError",
    "LargeSync",
    "Pathology",
    "RepoBuilder",
    "Risk",
    "SampleSync",
    "Scenario",
    "Verdict",
    "build_large_sync",
    "build_sample_sync",
    "build_scenario",
    "dev_line_dropped",
    "intentional_removal",
    "policy_files",
    "renamed_callee",
    "squash_chain_dev_ahead",
    "squash_chain_main_ahead",
    "structural_conflicts",
]
