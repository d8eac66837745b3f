"""``recall``: a decision of an earlier sync, in the record dev's history carries, comes back for the same loss in
the next sync as a ready ``decide`` line, its claim checked against today's sync."""

from __future__ import annotations

import shlex

from helpers.agent import git, workbench

from workbench.sample import RepoBuilder, SampleSync
from workbench.sample.bot import finish_sync, start_sync

REMOVED = "commit-9a3c14db0e"


def test_the_next_sync_recalls_an_earlier_decision(sample_merge_commit: SampleSync) -> None:
    repo = sample_merge_commit.path
    decided = workbench("decide", REMOVED, "--take", "result", "--claim", "intentional-removal", "--evidence", "9bf380a",
                        "--reason", "main removed the alias", "--repo", str(repo))
    assert decided.code == 0, decided.stderr
    assert workbench("recall", "--json", "--repo", str(repo)).json()["recalled"] == []  # today's record is not earlier
    record = (repo / ".workbench" / "acks.toml").read_text()
    # The sync PR lands on dev with its record; the next night's bot merges main again and loses the same lines.
    git(repo, "checkout", "-q", "-f", "dev")
    (repo / ".workbench").mkdir(exist_ok=True)
    (repo / ".workbench" / "acks.toml").write_text(record)
    git(repo, "add", ".workbench/acks.toml")
    git(repo, "commit", "-q", "-m", "chore: nightly sync main into dev (#300)")
    b = RepoBuilder.open(repo)
    start_sync(b, "main2dev/next", dev="dev", main="main")
    finish_sync(b, "main2dev/next", main="main")
    found = workbench("recall", "--json", "--repo", str(repo)).json()["recalled"]
    (match,) = [m for m in found if m["item"] == REMOVED]
    assert (match["take"], match["claim"], match["status"], match["by"]) == ("result", "intentional-removal", "verified",
                                                                             "agent")
    argv = shlex.split(match["command"])[1:]
    assert argv[:2] == ["decide", REMOVED] and "--evidence" in argv
    ran = workbench(*argv, "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    assert REMOVED not in {i["id"] for i in workbench("queue", "--json", "--repo", str(repo)).json()["items"]}
    text = workbench("recall", "--repo", str(repo))
    assert text.code == 0 and "fit today's open items" in text.stdout
