"""``decide --take suggested`` writes the engine's suggestion, the one the app's accept key takes."""

from __future__ import annotations

from pathlib import Path

from helpers.agent import git, one_file_merge, workbench

TOP = "import os\n\n\ndef keep():\n    return os.sep\n\n\n"


def _merge_in_progress(repo: Path, base: str, dev: str, main: str) -> None:
    one_file_merge(repo, "x.py", TOP + base, TOP + dev, TOP + main)


def _member(repo: Path) -> tuple[str, dict[str, object]]:
    queue = workbench("queue", "--json", "--repo", str(repo)).json()
    (found,) = [(item["id"], m) for item in queue["items"] for m in item["members"] if m["path"] == "x.py"]
    return found


ARGS = ("--claim", "judgement", "--reason", "the engine's word merge", "--json")


def test_the_suggestion_is_listed_and_written(tmp_path: Path) -> None:
    """The word merge of the three texts is main's text: queue offers `suggested`, and deciding it writes main's."""
    repo = tmp_path / "repo"
    _merge_in_progress(repo, "value = f(a, b)\n", "value = f(A, b)\n", "value = f(A, b, c)\n")
    item, member = _member(repo)
    assert "suggested" in member["takes"]  # type: ignore[operator]
    assert member["suggestion"] == {"take": "main", "rung": "one-side-is-merge", "reason": member["suggestion"]["reason"]}  # type: ignore[index]
    ran = workbench("decide", f"{item}:{member['member']}", "--take", "suggested", *ARGS, "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    assert (repo / "x.py").read_text() == TOP + "value = f(A, b, c)\n"
    staged = git(repo, "ls-files", "-s", "x.py")
    assert " 0\t" in staged  # resolved in the index


def test_no_suggestion_is_bad_input_and_changes_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _merge_in_progress(repo, "value = 1\n", "value = 2\n", "value = 3\n")
    held = (repo / "x.py").read_text()
    item, member = _member(repo)
    assert "suggested" not in member["takes"]  # type: ignore[operator]
    assert member["suggestion"] is None
    ran = workbench("decide", f"{item}:{member['member']}", "--take", "suggested", *ARGS, "--repo", str(repo))
    assert ran.code == 2 and len(ran.stderr.strip().splitlines()) == 1 and "suggests nothing" in ran.stderr
    assert (repo / "x.py").read_text() == held


LOCK = "".join(f'[[package]]\nname = "p{n}"\nversion = "1.{n}"\n\n' for n in range(8))


def test_a_lock_files_hunks_take_the_files_suggestion(tmp_path: Path) -> None:
    """A lock file gets one choice as a whole (dev's, then regenerate) and no per-hunk menu: `suggested` on
    its hunk takes that side for the file, as the app's accept key does, instead of suggesting nothing."""
    repo = tmp_path / "repo"
    dev = LOCK.replace('version = "1.3"', 'version = "2.3"')
    one_file_merge(repo, "uv.lock", LOCK, dev, LOCK.replace('version = "1.3"', 'version = "3.3"'),
                   ("dev bumps p3 (#2)", "main bumps p3 (#3)"))
    queue = workbench("queue", "--all", "--json", "--repo", str(repo)).json()
    (item, member) = [(i["id"], m) for i in queue["items"] for m in i["members"] if m["path"] == "uv.lock"][0]
    assert "suggested" in member["takes"]
    assert member["suggestion"]["take"] == "file-dev" and member["suggestion"]["regenerate"] == "uv lock"
    ran = workbench("decide", f"{item}:{member['member']}", "--take", "suggested", *ARGS, "--repo", str(repo))
    assert ran.code == 0, ran.stderr
    assert (repo / "uv.lock").read_text() == dev
    assert " 0\tuv.lock" in git(repo, "ls-files", "-s", "uv.lock")


def test_show_offers_the_suggestion_first_with_the_claim_it_checks_out_with(tmp_path: Path) -> None:
    """Where the engine suggests something for every member, ``show``'s first ready line takes it; the claim is
    checked as for any take (dev's line itself is not in main's text, so no loss claim holds: a judgement)."""
    repo = tmp_path / "repo"
    _merge_in_progress(repo, "value = f(a, b)\n", "value = f(A, b)\n", "value = f(A, b, c)\n")
    item, _member_json = _member(repo)
    commands = workbench("show", item, "--json", "--repo", str(repo)).json()["item"]["commands"]
    assert (commands[0]["take"], commands[0]["claim"], commands[0]["status"]) == ("suggested", "judgement", "needs_human")
    assert "--take suggested" in commands[0]["command"]
    assert [c["take"] for c in commands].count("suggested") == 1


def test_show_offers_no_suggestion_where_the_engine_has_none(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _merge_in_progress(repo, "value = 1\n", "value = 2\n", "value = 3\n")
    item, _member_json = _member(repo)
    commands = workbench("show", item, "--json", "--repo", str(repo)).json()["item"]["commands"]
    assert "suggested" not in [c["take"] for c in commands]
