"""Sync repositories built with the sample scenarios, for the report tests.

The bot's finished ``-X theirs`` merge, the same merge left in progress,
and a merge resolved to dev's side, each built once per session.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from report_tools import SampleSync

from workbench.sample import api, chains, drops, policy, structure
from workbench.sample.bot import finish_sync, start_sync, sync_branch_name, unmerged
from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import build

RECIPES = (
    chains.squash_chain_main_ahead,
    drops.dev_line_dropped,
    drops.intentional_removal,
    policy.policy_files,
    api.renamed_callee,
    structure.structural_conflicts,
)


def _built(path: Path) -> tuple[RepoBuilder, str, str, str]:
    b = RepoBuilder.init(path)
    built = build(b, RECIPES)
    return b, built.dev, built.main, sync_branch_name(b)


@pytest.fixture(scope="session")
def bot_merge(tmp_path_factory: pytest.TempPathFactory) -> SampleSync:
    """The bot's sync: ``-X theirs``, remaining conflicts favouring main, committed."""
    b, dev, main, branch = _built(tmp_path_factory.mktemp("bot") / "repo")
    if start_sync(b, branch):
        finish_sync(b, branch)
    return SampleSync(b.path, dev, main, b.rev("HEAD"), b)


@pytest.fixture(scope="session")
def in_progress(tmp_path_factory: pytest.TempPathFactory) -> SampleSync:
    """The bot's ``-X theirs`` merge stopped on modify/delete conflicts (MERGE_HEAD set)."""
    b, dev, main, branch = _built(tmp_path_factory.mktemp("progress") / "repo")
    assert start_sync(b, branch), "the structural scenario leaves conflicts"
    return SampleSync(b.path, dev, main, None, b)


@pytest.fixture(scope="session")
def dev_merge(tmp_path_factory: pytest.TempPathFactory) -> SampleSync:
    """The same sync resolved the other way: ``-X ours`` and dev's side of every leftover."""
    b, dev, main, branch = _built(tmp_path_factory.mktemp("ours") / "repo")
    b.checkout(dev)
    b.git("checkout", "-q", "-b", branch)
    if b.merge(main, "ours") != 0:
        for path, stages in sorted(unmerged(b).items()):
            if 2 in stages:
                b.git("checkout", "--ours", "--", path)
                b.git("add", "--", path)
            else:
                b.git("rm", "-q", "--", path)
        b.commit("Merge main into dev keeping dev's side")
    return SampleSync(b.path, dev, main, b.rev("HEAD"), b)


