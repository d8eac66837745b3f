"""Every signal on the sample scenarios, checked against their ground truth."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.signals import kinds, only_file, signal
from helpers.syncs import analyze_preview

from workbench.analysis.model import Level, SyncAnalysis
from workbench.sample import Risk, Scenario, build_scenario

_LEVEL = {Risk.HIGH: Level.HIGH, Risk.MEDIUM: Level.MEDIUM, Risk.LOW: Level.LOW}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Scenario, SyncAnalysis]]:
    """The four squash-chain and line-loss scenarios, each built and analysed once."""
    out = {}
    for name in ("squash-chain-dev-ahead", "squash-chain-main-ahead", "dev-line-dropped", "intentional-removal"):
        scenario = build_scenario(name, Path(tmp_path_factory.mktemp(name)) / "repo")
        out[name] = (scenario, analyze_preview(scenario.path, scenario.dev, scenario.main))
    return out


@pytest.mark.parametrize(
    "name", ["squash-chain-dev-ahead", "squash-chain-main-ahead", "dev-line-dropped", "intentional-removal"]
)
def test_file_level_matches_the_ground_truth(built: dict[str, tuple[Scenario, SyncAnalysis]], name: str) -> None:
    scenario, analysis = built[name]
    (truth,) = scenario.files
    entry = only_file(analysis, truth.path)
    assert entry.level is _LEVEL[truth.risk]
    assert entry.risk == max(h.risk for h in entry.hunks)


def test_squash_chain_dev_ahead_names_the_squash_and_the_dropped_follow_ups(
    built: dict[str, tuple[Scenario, SyncAnalysis]],
) -> None:
    scenario, analysis = built["squash-chain-dev-ahead"]
    (truth,) = scenario.files
    hunks = only_file(analysis, truth.path).hunks
    assert all(h.level is Level.HIGH for h in hunks)
    named = set()
    for hunk in hunks:
        squash = signal(hunk, "squash-counterpart")
        assert squash.message.startswith("-X theirs took main's text from #201 (a squash of dev #101); dev's #10")
        assert truth.carriers[0] in squash.commits
        older = signal(hunk, "older-dev-state")
        assert "as dev's #10" in older.message and older.weight > 0
        named |= set(squash.commits) & set(truth.dropped_commits)
    assert named == set(truth.dropped_commits)


def test_squash_chain_main_ahead_says_main_is_newer(built: dict[str, tuple[Scenario, SyncAnalysis]]) -> None:
    scenario, analysis = built["squash-chain-main-ahead"]
    (truth,) = scenario.files
    (hunk,) = only_file(analysis, truth.path).hunks
    ahead = signal(hunk, "main-ahead")
    assert ahead.weight < 0
    assert "#211 is a squash of dev #111" in ahead.message
    assert "squash-counterpart" not in kinds(hunk)
    assert hunk.level is Level.LOW


def test_dev_only_line_dropped_names_the_line_and_its_commit(
    built: dict[str, tuple[Scenario, SyncAnalysis]],
) -> None:
    scenario, analysis = built["dev-line-dropped"]
    (truth,) = scenario.files
    (hunk,) = only_file(analysis, truth.path).hunks
    dropped = signal(hunk, "dev-only-lines-dropped")
    assert dropped.commits == truth.dropped_commits
    assert "#121" in dropped.message and truth.lost_lines[0].strip() in dropped.message
    assert "beside main's change" in dropped.message
    assert "qk_l2_norm but nothing uses it any more" in dropped.message
    assert hunk.level is Level.HIGH


def test_intentional_removal_names_the_deleting_commit(built: dict[str, tuple[Scenario, SyncAnalysis]]) -> None:
    scenario, analysis = built["intentional-removal"]
    (truth,) = scenario.files
    (hunk,) = only_file(analysis, truth.path).hunks
    removed = signal(hunk, "main-removed-intentionally")
    assert removed.commits == (truth.evidence,)
    assert removed.message.startswith("main's #222 deleted this code on purpose")
    assert removed.weight < 0
    assert "dev-only-lines-dropped" in kinds(hunk)
    assert hunk.level is Level.LOW


def test_messages_are_plain_sentences(built: dict[str, tuple[Scenario, SyncAnalysis]]) -> None:
    for _, analysis in built.values():
        for entry in analysis.files:
            for hunk in entry.hunks:
                for found in hunk.signals:
                    assert found.message and "\n" not in found.message
                    assert "b'" not in found.message and "b\"" not in found.message
                    assert all(len(sha) == 40 for sha in found.commits)
