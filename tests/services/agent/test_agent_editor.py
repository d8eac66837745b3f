"""The agent's editor after a take: a file whose journaled decisions the agent's editor then replaced (it wrote
the file by hand and staged it, as an agent does where no take writes a file that parses) is decided with
``--take result``: the journal's decisions the edit replaced decide nothing any more (the queue shows the member
open again), what the file holds is the decision, so nothing is written over the edit, and the gate counts the
decisions."""

from __future__ import annotations

from pathlib import Path

from helpers.agent import git, one_file_merge, workbench

from workbench.sample import SampleSync

BASE = "def f():\n    return 1\n" + "".join(f"\n\ndef pad{n}():\n    pass\n" for n in range(8)) + "\n\ndef g():\n    return 2\n"
DEV = BASE.replace("return 1", "return 10").replace("return 2", "return 20")
MAIN = BASE.replace("return 1", "return 100").replace("return 2", "return 200")


def _items(repo: Path) -> list[tuple[str, int]]:
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    return [(item["id"], m["member"]) for item in queue["items"] for m in item["members"] if m["path"] == "a.py"]


def test_the_editors_file_is_kept_not_overwritten(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    one_file_merge(repo, "a.py", BASE, DEV, MAIN, ("dev: tens (#2)", "main: hundreds (#3)"))
    (first_item, first), _second = _items(repo)
    args = ("--claim", "judgement", "--reason", "a person said so", "--json", "--repo", str(repo))
    ran = workbench("decide", f"{first_item}:{first}", "--take", "both", *args)
    assert ran.code == 0 and ran.json()["pending"] == ["a.py"], ran.stdout
    edited = MAIN.replace("return 200", "return 20")  # the editor's file: main's first conflict, dev's second
    (repo / "a.py").write_text(edited)
    git(repo, "add", "a.py")
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    assert {m["state"] for item in queue["items"] for m in item["members"]} == {"open"}  # the journal's `both` is gone
    for item, member in reversed(_items(repo)):  # the first conflict's journaled `both` is still in force
        ran = workbench("decide", f"{item}:{member}", "--take", "result", *args)
        assert ran.code == 0, ran.stdout
        assert ran.json()["written"] == [], ran.stdout
    assert (repo / "a.py").read_text() == edited
    verdict = workbench("gate", "--json", "--repo", str(repo)).json()
    assert [f["rule"] for f in verdict["blocking"]] == [], verdict["blocking"]
    assert {f["rule"] for f in verdict["for_human"]} == {"judgement"}


def test_a_decision_written_on_a_merge_commit_counts_before_it_is_committed(sample_merge_commit: SampleSync) -> None:
    """On a checked-out merge commit the result is the commit: the decision's write (left for the agent to commit)
    does not make the journal's decisions stale."""
    repo = str(sample_merge_commit.path)
    item = workbench("queue", "--json", "--repo", repo).json()["items"][0]["id"]
    ran = workbench("decide", item, "--take", "dev", "--claim", "judgement", "--reason", "r", "--json", "--repo", repo)
    assert ran.code == 0 and ran.json()["written"], ran.stdout
    listed = workbench("queue", "--all", "--json", "--repo", repo).json()["items"]
    assert [i["state"] for i in listed if i["id"] == item] == ["decided"]
