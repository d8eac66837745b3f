"""The decision record: one entry per member with ``by``, ``claim``, ``evidence`` and ``run``, the old fields as
they were, and every claim checked again whenever it is read, so editing the file cannot make a contradicted
claim pass the gate."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit
from helpers.agent import git, workbench

from workbench.resolve.acks import parse_acks
from workbench.sample import SampleSync

REMOVED = "commit-9a3c14db0e"
"""parallel_state.py: main's #222 (9bf380a) removed the deprecated alias dev had reworded."""
RECORD = Path(".workbench/acks.toml")


def _decide_removed(repo: Path) -> None:
    ran = workbench("decide", REMOVED, "--take", "result", "--claim", "intentional-removal", "--evidence", "9bf380a",
                    "--reason", "main removed the alias on purpose", "--repo", str(repo))
    assert ran.code == 0, ran.stderr


def _gate_on(repo: Path, item: str) -> list[dict[str, object]]:
    """The gate's findings about ``item``, with the record as committed."""
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "record")
    verdict = workbench("gate", "--json", "--repo", str(repo)).json()
    return [f for f in verdict["blocking"] + verdict["for_human"] if f["item"] == item]


def test_an_agents_entry_keeps_the_old_fields_and_adds_its_own(sample_merge_commit: SampleSync,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_RUN_ID", "4242")
    monkeypatch.setenv("GITHUB_RUN_ATTEMPT", "2")
    _decide_removed(sample_merge_commit.path)
    (entry,) = parse_acks((sample_merge_commit.path / RECORD).read_text())
    assert (entry.path, entry.decision.value, entry.reason) == ("megatron/core/parallel_state.py", "main",
                                                               "main removed the alias on purpose")
    assert len(entry.hunk) == 20 and entry.who and entry.at
    assert (entry.by, entry.claim, entry.run, entry.item, entry.take) == ("agent", "intentional-removal", "github:4242.2",
                                                                         REMOVED, "result")
    assert entry.evidence == ("9bf380ac3905f5234075c8c275c812efb21c2b47",)  # resolved to the full id


def test_the_committed_decision_passes_the_gate(sample_merge_commit: SampleSync) -> None:
    _decide_removed(sample_merge_commit.path)
    assert _gate_on(sample_merge_commit.path, REMOVED) == []


EDITS = {
    "the evidence swapped for a commit that does not remove the lines": ("evidence", ["c5c7aff"]),
    "the claim changed to restored while the lines are lost": ("claim", "restored"),
    "the claim changed to superseded": ("claim", "superseded"),
    "the claim removed from the agent's entry": ("claim", None),
    "a status written next to a false claim": ("claim", "restored", "status", "verified"),
}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_an_edited_record_cannot_turn_a_contradicted_claim_green(sample_merge_commit: SampleSync, case: str) -> None:
    repo = sample_merge_commit.path
    _decide_removed(repo)
    document = tomlkit.parse((repo / RECORD).read_text())
    entry = document["ack"][0]
    edit = EDITS[case]
    for key, value in zip(edit[::2], edit[1::2], strict=True):
        if value is None:
            del entry[key]
        else:
            entry[key] = value
    (repo / RECORD).write_text(tomlkit.dumps(document))
    found = _gate_on(repo, REMOVED)
    assert [f["rule"] for f in found] == ["contradicted-claim"], found


def test_a_hand_written_entry_for_a_refused_claim_is_contradicted(sample_merge_commit: SampleSync) -> None:
    repo = sample_merge_commit.path
    item = "commit-1692976f51"
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    (member,) = next(i for i in queue["items"] if i["id"] == item)["members"]
    refused = workbench("decide", item, "--take", "result", "--claim", "superseded", "--reason", "r", "--repo", str(repo))
    assert refused.code == 1
    (repo / RECORD).parent.mkdir(exist_ok=True)
    (repo / RECORD).write_text(
        f'[[ack]]\npath = "{member["path"]}"\nhunk = "anything"\ndecision = "main"\nreason = "trust me"\n'
        f'by = "agent"\nclaim = "superseded"\nmember = "{member["fingerprint"]}"\n'
    )
    assert "contradicted-claim" in [f["rule"] for f in _gate_on(repo, item)]
