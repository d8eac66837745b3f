"""False claims are refused, every one, and a refused decision writes nothing anywhere.

Each case is a claim a bot could make about the sample's merge commit: a commit that does not touch the
lines (or is on the wrong side, or a merge, or does not exist), a ``moved`` to a wrong line,
``superseded`` while the code is lost, ``restored`` while lines are still missing, ``policy`` without a
policy.  ``decide`` answers exit 1 with the contradiction and leaves the repository byte for byte as it
was (work tree, index, journal, record).  The true claims next to them are verified, so the checks are not
refusing everything.
"""

from __future__ import annotations

import pytest
from helpers.agent import workbench
from helpers.odd_repos import tree_digest

from workbench.sample import SampleSync

DROPPED = "commit-1692976f51"
"""training.py: dev's line from #133 that main's #233 dropped beside its own edit (no intent)."""
COLLATERAL = "commit-1f7fd85d0c"
"""gpt_layer_specs.py: dev's qk_l2_norm argument, added beside main's qk_layernorm edit (#221)."""
REMOVED = "commit-9a3c14db0e"
"""parallel_state.py: main's #222 removed the deprecated alias dev had reworded: intent."""

FALSE_CLAIMS = {
    "a commit touching other files": (COLLATERAL, "result", "intentional-removal", ["c5c7aff"]),
    "main's commit beside the line, not removing it": (COLLATERAL, "result", "intentional-removal", ["40babc8"]),
    "a commit on the side that lost the line": (DROPPED, "result", "intentional-removal", ["f2ef55c"]),
    "the sync merge itself": (DROPPED, "result", "intentional-removal", ["e7a1e04"]),
    "no such commit": (DROPPED, "result", "intentional-removal", ["deadbeef00"]),
    "no commit at all": (DROPPED, "result", "intentional-removal", []),
    "a revision, not a commit id": (DROPPED, "result", "intentional-removal", ["HEAD~1"]),
    "moved to a wrong line": (DROPPED, "result", "moved", ["megatron/training/training.py:3"]),
    "moved to another file": (DROPPED, "result", "moved", ["megatron/core/parallel_state.py:1"]),
    "superseded while the code is lost": (DROPPED, "result", "superseded", []),
    "restored while the line is still missing": (DROPPED, "result", "restored", []),
    "restored by taking the side that dropped it": (DROPPED, "main", "restored", []),
    "policy with no policy": (DROPPED, "result", "policy", []),
    "intent for a loss the take itself makes": (REMOVED, "main", "intentional-removal", ["c5c7aff"]),
}


@pytest.mark.parametrize("case", sorted(FALSE_CLAIMS))
def test_a_false_claim_is_refused_and_writes_nothing(sample_merge_commit: SampleSync, case: str) -> None:
    item, take, claim, evidence = FALSE_CLAIMS[case]
    before = tree_digest(sample_merge_commit.path)
    args = ["decide", item, "--take", take, "--claim", claim, "--reason", "because", "--json",
            "--repo", str(sample_merge_commit.path)]
    if evidence:
        args += ["--evidence", *evidence]
    ran = workbench(*args)
    assert ran.code == 1, (ran.code, ran.stderr, ran.stdout)
    answer = ran.json()
    assert answer["outcome"] == "refused"
    assert answer["claim"]["status"] == "contradicted"
    assert answer["written"] == [] and answer["record"] is None
    assert tree_digest(sample_merge_commit.path) == before


TRUE_CLAIMS = {
    "main's removal, cited": (REMOVED, "result", "intentional-removal", ["9bf380a"]),
    "dev's line put back beside main's": (DROPPED, "both", "restored", []),
    "a judgement, for a person": (COLLATERAL, "dev", "judgement", []),
}


@pytest.mark.parametrize("case", sorted(TRUE_CLAIMS))
def test_a_true_claim_is_checked_and_recorded(sample_merge_commit: SampleSync, case: str) -> None:
    item, take, claim, evidence = TRUE_CLAIMS[case]
    args = ["decide", item, "--take", take, "--claim", claim, "--reason", "because", "--json",
            "--repo", str(sample_merge_commit.path)]
    if evidence:
        args += ["--evidence", *evidence]
    ran = workbench(*args)
    assert ran.code == 0, (ran.stderr, ran.stdout)
    assert ran.json()["claim"]["status"] in ("verified", "needs_human")
    assert (sample_merge_commit.path / ".workbench" / "acks.toml").is_file()


def test_a_dry_run_checks_and_writes_nothing(sample_merge_commit: SampleSync) -> None:
    before = tree_digest(sample_merge_commit.path)
    ran = workbench("decide", DROPPED, "--take", "both", "--claim", "restored", "--reason", "r", "--dry-run", "--json",
                    "--repo", str(sample_merge_commit.path))
    assert ran.code == 0, ran.stderr
    assert ran.json()["outcome"] == "dry-run" and ran.json()["still_lost"] == {"dev": 0, "main": 0}
    assert tree_digest(sample_merge_commit.path) == before
