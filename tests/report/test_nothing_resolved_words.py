"""A merge in progress with nothing resolved yet is not summarised as "decided by the resolution"."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main
from workbench.sample import RepoBuilder


@pytest.fixture
def stopped(builder: RepoBuilder) -> RepoBuilder:
    """``git merge main`` (no -X theirs) stopped on one content conflict; nobody has touched it."""
    builder.write("a.py", "x = 1\ny = 1\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.py", "x = 2\ny = 1\n").commit("dev (#1)")
    builder.checkout("main").write("a.py", "x = 3\ny = 1\n").commit("main (#2)")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    return builder


@pytest.mark.parametrize("fmt", ["md", "text", "github"])
def test_the_summary_says_the_hunk_is_still_conflicted(stopped: RepoBuilder, fmt: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--repo", str(stopped.path), "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "decided by the resolution" not in out
    assert "1 conflicting hunk, none decided yet (1 still conflicted)" in out


def test_the_json_summary_counts_the_unresolved(stopped: RepoBuilder, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--repo", str(stopped.path), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert (summary["hunks"], summary["unresolved_hunks"], summary["theirs_hunks"]) == (1, 1, 0)


def test_partly_resolved_counts_both(builder: RepoBuilder, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [f"v{i} = {i}\n" for i in range(12)]
    builder.write("a.py", "".join(lines)).commit("base")
    builder.branch("dev").checkout("dev")
    builder.write("a.py", "".join(lines).replace("v1 = 1", "v1 = 10").replace("v9 = 9", "v9 = 90")).commit("dev")
    builder.checkout("main")
    builder.write("a.py", "".join(lines).replace("v1 = 1", "v1 = 100").replace("v9 = 9", "v9 = 900")).commit("main")
    builder.checkout("dev")
    assert builder.merge("main") == 1
    text = (builder.path / "a.py").read_text()
    first_block = text[text.index("<<<<<<<"):text.index("\n", text.index(">>>>>>>")) + 1]
    (builder.path / "a.py").write_text(text.replace(first_block, "v1 = 10\n", 1))
    assert main(["report", "--repo", str(builder.path), "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "2 conflicting hunks: 1 decided by the resolution (0 with main's text), 1 still conflicted" in out
