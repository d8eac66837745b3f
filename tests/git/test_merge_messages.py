"""git's own messages about a conflict name the sides as the workbench does, not by 40-digit ids."""

from __future__ import annotations

import re

from helpers.syncs import open_analysis

from workbench.sample import RepoBuilder

FULL_ID = re.compile(r"\b[0-9a-f]{40}\b")


def test_a_modify_delete_message_says_dev_and_main(builder: RepoBuilder) -> None:
    builder.write("gone.py", "g = 1\n").write("a.py", "a = 1\n").commit("base")
    builder.branch("dev").checkout("dev").write("gone.py", "g = 2\n").commit("dev keeps it (#1)")
    builder.checkout("main").delete("gone.py").commit("main drops it (#2)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 1
    _, analysis = open_analysis(builder.path)
    entry = analysis.file("gone.py")
    assert entry is not None and entry.messages
    text = " ".join(entry.messages)
    assert not FULL_ID.search(text), text
    assert f"deleted in main ({analysis.main[:10]})" in text and f"modified in dev ({analysis.dev[:10]})" in text
