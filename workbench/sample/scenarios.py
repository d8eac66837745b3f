"""Named sync scenarios and the demo sample, each a real repository with ground truth.

Every scenario builds ``dev`` and ``main`` from one merge base so that
``git merge main -X theirs`` on dev reproduces one known pathology.
:func:`build_sample_sync` puts all of them into one repository, in the state a
maintainer meets: plain branches, the bot's merge stopped in progress, or the
bot's finished merge commit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Literal, get_args

from workbench.sample import api, background, chains, dropped_lines, policy, structure
from workbench.sample.bot import finish_sync, start_sync, sync_branch_name
from workbench.sample.builder import RepoBuilder
from workbench.sample.recipe import RecipeFn, build
from workbench.sample.truth import SampleSync, Scenario

SampleState = Literal["branches", "in-progress", "merge-commit"]

RECIPES: dict[str, RecipeFn] = {
    "squash-chain-dev-ahead": chains.squash_chain_dev_ahead,
    "squash-chain-main-ahead": chains.squash_chain_main_ahead,
    "dev-line-dropped": dropped_lines.dev_line_dropped,
    "intentional-removal": dropped_lines.intentional_removal,
    "policy-files": policy.policy_files,
    "renamed-callee": api.renamed_callee,
    "structural": structure.structural_conflicts,
}
"""Each pathology by name, in the order the demo sample builds them."""


def build_scenario(name: str, path: str | Path) -> Scenario:
    """Build one named scenario alone in a new repository at ``path`` (HEAD on dev)."""
    b = RepoBuilder.init(path)
    built = build(b, (RECIPES[name],))
    b.checkout("dev")
    return Scenario(name, b.path, built.dev, built.main, built.base, built.files)


def squash_chain_dev_ahead(path: str | Path) -> Scenario:
    """Dev refined a feature after main squashed its first PR (high risk)."""
    return build_scenario("squash-chain-dev-ahead", path)


def squash_chain_main_ahead(path: str | Path) -> Scenario:
    """Main squashed dev's feature and improved it (main is right)."""
    return build_scenario("squash-chain-main-ahead", path)


def dev_line_dropped(path: str | Path) -> Scenario:
    """A dev-only line next to main's edit falls to -X theirs."""
    return build_scenario("dev-line-dropped", path)


def intentional_removal(path: str | Path) -> Scenario:
    """Main removed code on purpose; its commit is the evidence."""
    return build_scenario("intentional-removal", path)


def policy_files(path: str | Path) -> Scenario:
    """Keep-dev policy files and an override-from-main file, changed on both sides."""
    return build_scenario("policy-files", path)


def renamed_callee(path: str | Path) -> Scenario:
    """Main's caller kept, dev's renamed callee kept: an API mismatch."""
    return build_scenario("renamed-callee", path)


def structural_conflicts(path: str | Path) -> Scenario:
    """Modify/delete, add/add, binary, CRLF, no trailing newline, rename."""
    return build_scenario("structural", path)


def build_sample_sync(path: str | Path, state: SampleState = "merge-commit") -> SampleSync:
    """Every scenario plus routine history in one repository, in the given ``state``.

    ``branches`` leaves dev checked out; ``in-progress`` leaves the bot's
    ``-X theirs`` merge stopped on its modify/delete conflicts on the sync
    branch; ``merge-commit`` finishes it the way the bot does.  Same shas every run.
    """
    if state not in get_args(SampleState):
        raise ValueError(f"unknown sample state {state!r}")
    b = RepoBuilder.init(path)
    built = build(b, (background.routine_history, *RECIPES.values()))
    sample = SampleSync("sample-sync", b.path, built.dev, built.main, built.base, built.files)
    if state == "branches":
        b.checkout("dev")
        return sample
    branch = sync_branch_name(b)
    if not start_sync(b, branch):
        raise RuntimeError("the sample's -X theirs merge was expected to stop on conflicts")
    if state == "in-progress":
        return replace(sample, state=state, sync_branch=branch)
    return replace(sample, state=state, sync_branch=branch, merge=finish_sync(b, branch))
