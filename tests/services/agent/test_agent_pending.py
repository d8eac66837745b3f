"""A merge in progress whose file holds several conflicts: deciding one of them journals it and writes nothing
(the writer never writes a file with a conflict left), and the decision that settles the file's last conflict
writes it with every decision in.  Whole-file members of one item (an API failure at several call sites) are
each decided."""

from __future__ import annotations

from pathlib import Path

from helpers.agent import one_file_merge, workbench

BASE = "def f():\n    return 1\n" + "".join(f"\n\ndef pad{n}():\n    pass\n" for n in range(8)) + "\n\ndef g():\n    return 2\n"


def _merge_in_progress(repo: Path) -> None:
    one_file_merge(repo, "a.py", BASE, BASE.replace("return 1", "return 10").replace("return 2", "return 20"),
                   BASE.replace("return 1", "return 100").replace("return 2", "return 200"),
                   ("dev: tens", "main: hundreds"))


def test_one_of_two_conflicts_is_journaled_then_the_file_is_written_with_both(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _merge_in_progress(repo)
    held = (repo / "a.py").read_text()
    assert held.count("<<<<<<<") == 2
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    members = [(item["id"], m["member"]) for item in queue["items"] for m in item["members"] if m["path"] == "a.py"]
    assert len(members) == 2, queue["items"]
    (first_item, first), (second_item, second) = members
    args = ("--claim", "judgement", "--reason", "the tests say so", "--json", "--repo", str(repo))
    ran = workbench("decide", f"{first_item}:{first}", "--take", "dev", *args)
    assert ran.code == 0, ran.stderr
    answer = ran.json()
    assert (answer["outcome"], answer["written"], answer["pending"]) == ("decided", [], ["a.py"])
    assert (repo / "a.py").read_text() == held
    ran = workbench("decide", f"{second_item}:{second}", "--take", "main", *args)
    assert ran.code == 0, ran.stderr
    assert (ran.json()["written"], ran.json()["pending"]) == (["a.py"], [])
    written = (repo / "a.py").read_text()
    assert "<<<<<<<" not in written and "return 10\n" in written and "return 200\n" in written
