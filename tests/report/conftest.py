"""The demo sample sync in the states the report meets, shared for the session.

The report only reads, so tests share the session's built samples instead
of copying them; ``dev_merge`` is the same sync resolved to dev's side.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from workbench.sample import RepoBuilder, SampleSync, build_sample_sync
from workbench.sample.bot import sync_branch_name, unmerged

Template = Callable[[str], SampleSync]


@pytest.fixture(scope="session")
def bot_merge(sample_template: Template) -> SampleSync:
    """The bot's sync: ``-X theirs``, leftover conflicts favouring main, committed."""
    return sample_template("merge-commit")


@pytest.fixture(scope="session")
def in_progress(sample_template: Template) -> SampleSync:
    """The bot's ``-X theirs`` merge stopped on modify/delete conflicts (MERGE_HEAD set)."""
    return sample_template("in-progress")


@pytest.fixture(scope="session")
def dev_merge(tmp_path_factory: pytest.TempPathFactory) -> SampleSync:
    """The same sync resolved the other way: ``-X ours`` and dev's side of every leftover."""
    sample = build_sample_sync(tmp_path_factory.mktemp("ours") / "repo", "branches")
    b = RepoBuilder.open(sample.path)
    b.git("checkout", "-q", "-b", sync_branch_name(b))
    if b.merge(sample.main, "ours") != 0:
        for path, stages in sorted(unmerged(b).items()):
            if 2 in stages:
                b.git("checkout", "--ours", "--", path)
                b.git("add", "--", path)
            else:
                b.git("rm", "-q", "--", path)
        b.commit("Merge main into dev keeping dev's side")
    return SampleSync(sample.name, sample.path, sample.dev, sample.main, sample.base, sample.files,
                      state="merge-commit", merge=b.rev("HEAD"))
