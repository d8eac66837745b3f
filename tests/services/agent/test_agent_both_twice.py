"""``restored`` for a take that keeps both sides: a concatenation loses no line of either side, so it holds where the
sides add different things, and is contradicted where both sides rewrote the same base line (the result would hold
two versions of the same work, one of them stale), as is every other checked claim (each holds where nothing is
lost).  ``show`` then offers ``both`` only as a judgement."""

from __future__ import annotations

from pathlib import Path

from helpers.agent import one_file_merge, workbench

TOP = "import os\n\n\ndef keep():\n    return os.sep\n\n\n"
TAIL = "\n\ndef tail():\n    return 0\n"


def _item(repo: Path) -> str:
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    (found,) = [item["id"] for item in queue["items"] if any(m["path"] == "x.py" for m in item["members"])]
    return str(found)


def _decide(repo: Path, item: str, take: str, claim: str = "restored") -> dict[str, object]:
    ran = workbench("decide", item, "--take", take, "--claim", claim, "--reason", "r", "--dry-run", "--json",
                    "--repo", str(repo))
    assert ran.code in (0, 1), ran.stderr
    return dict(ran.json())


def test_both_sides_rewrote_the_line_so_both_is_not_restored(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    one_file_merge(repo, "x.py", TOP + "value = compute(1)\n" + TAIL, TOP + "value = compute(2)\n" + TAIL,
                   TOP + "value = compute(3)\n" + TAIL)
    item = _item(repo)
    for take, claim in (("both", "restored"), ("both-main-first", "restored"), ("both", "superseded")):
        answer = _decide(repo, item, take, claim)
        assert answer["outcome"] == "refused", answer
        check = answer["claim"]
        assert isinstance(check, dict) and check["status"] == "contradicted"
        assert "two versions of the same work" in check["reason"] and "value = compute(1)" in check["reason"]
    shown = workbench("show", item, "--json", "--repo", str(repo)).json()["item"]["commands"]
    assert {(c["take"], c["claim"]) for c in shown if c["take"].startswith("both")} == {
        ("both", "judgement"), ("both-main-first", "judgement")}


def test_both_sides_added_different_lines_so_both_is_restored(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    one_file_merge(repo, "x.py", TOP + "first = 1\nlast = 9\n" + TAIL, TOP + "first = 1\ndev_adds = 2\nlast = 9\n" + TAIL,
                   TOP + "first = 1\nmain_adds = 3\nlast = 9\n" + TAIL)
    answer = _decide(repo, _item(repo), "both")
    assert answer["outcome"] == "dry-run", answer
    assert answer["claim"] == {"claim": "restored", "status": "verified", "reason": "nothing is lost on either side",
                               "evidence": []}
