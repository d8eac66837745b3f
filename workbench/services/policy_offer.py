"""Which built-in policy preset a repository looks made for, when it has no policy of its own.

A repository "looks like" a preset's when the literal paths on the preset's
override-from-main list exist in dev's tree, all but a quarter of them: the
preset's own file list is the evidence, never a path written here.  A module ``x.py`` that became a package ``x/`` still counts,
and one file moved or removed does not hide the offer.  Without a policy,
files such a preset keeps from dev (``pyproject.toml``, ``uv.lock``,
CODEOWNERS) are scored as ordinary files, so front ends offer the preset.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.analysis.model import SyncAnalysis
from workbench.analysis.policy.presets import PRESETS
from workbench.analysis.policy.rules import preset
from workbench.git.repo import GitRepo

_GLOB = set("*?[")


@dataclass(frozen=True, slots=True)
class PresetFit:
    """A preset the repository fits, and the files that say so."""

    name: str
    evidence: tuple[str, ...]
    keep_dev: tuple[str, ...]
    """What the preset keeps from dev (for the sentence that says what is scored without it)."""


def fitting_preset(repo: GitRepo, analysis: SyncAnalysis) -> PresetFit | None:
    """The first preset most of whose override-list files exist in dev, when no policy is configured."""
    if analysis.policy is not None:
        return None
    for name in sorted(PRESETS):
        policy = preset(name)
        literal = tuple(rule.pattern for rule in policy.override_from_main if not _GLOB & set(rule.pattern))
        found = tuple(path for path in literal if _present(repo, analysis.dev, path))
        if literal and len(found) >= len(literal) - len(literal) // 4:
            keep = tuple(rule.pattern for rule in policy.keep_dev if not _GLOB & set(rule.pattern))
            return PresetFit(name, found, keep)
    return None


def _present(repo: GitRepo, commit: str, path: str) -> bool:
    """Whether ``path`` is in ``commit``'s tree, a module counting as present when it became a package."""
    if repo.tree_entry(commit, path) is not None:
        return True
    return path.endswith(".py") and repo.tree_entry(commit, path.removesuffix(".py") + "/__init__.py") is not None
