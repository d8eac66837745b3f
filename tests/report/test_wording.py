"""Counts of one read as one (``1 file``, not ``1 files``), and a whole-file choice that deletes
the file says so, in every format."""

from __future__ import annotations

import json
import re

import pytest
from helpers.syncs import open_analysis

from workbench.cli import main
from workbench.report import FORMATS as REPORT_FORMATS
from workbench.report.hunktext import MAX_LINES, hunk_diffs
from workbench.resolve.events import FileChoice
from workbench.resolve.journal import Journal, Situation
from workbench.resolve.session import Session
from workbench.sample import RepoBuilder

FORMATS = tuple(spec.format.value for spec in REPORT_FORMATS)
ONE_OF_MANY = re.compile(r"\b1 (?:more )?(?:commits|files|hunks|lines|conflicting hunks)\b")


@pytest.fixture
def one_of_each(builder: RepoBuilder) -> RepoBuilder:
    """A merge in progress: one commit from main, one Python file changed, one modify/delete conflict."""
    builder.write("a.py", "x = 1\n").write("gone.py", "g = 1\n").commit("base")
    builder.branch("dev").checkout("dev").write("gone.py", "g = 2\n").commit("dev keeps gone.py (#1)")
    builder.checkout("main").write("a.py", "x = 2\n").delete("gone.py").commit("main drops gone.py (#2)")
    builder.checkout("dev")
    assert builder.merge("main", "theirs") == 1, "the modify/delete conflict stops the merge"
    return builder


def _report(path: str, fmt: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["report", "--repo", path, "--format", fmt]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_counts_of_one_are_singular_in_every_format(one_of_each: RepoBuilder,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in FORMATS:
        out = _report(str(one_of_each.path), fmt, capsys)
        assert not ONE_OF_MANY.search(out), (fmt, ONE_OF_MANY.search(out))
        if fmt == "json":
            summary = json.loads(out)["summary"]
            assert (summary["main_commits"], summary["files"], summary["python_lines"]) == (
                1, 1, {"added": 1, "deleted": 1, "files": 1})
        else:
            flat = out.replace("`", "").replace("\n", " ")
            assert "1 commit from main" in flat and "1 file conflicting" in flat, (fmt, out)
            assert "Python lines: +1 / -1 across 1 file (against dev)" in flat, (fmt, out)


def test_analyze_reads_counts_of_one_as_one(one_of_each: RepoBuilder, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--repo", str(one_of_each.path)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "1 commit from main, 1 file needs a look, 0 hunks" in out, out
    assert not ONE_OF_MANY.search(out), ONE_OF_MANY.search(out)


def test_a_whole_file_choice_that_deletes_the_file_is_reported_as_deleted(
    one_of_each: RepoBuilder, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, analysis = open_analysis(one_of_each.path)
    session = Session(analysis)
    journal = Journal.for_situation(repo.gitdir, Situation.of(analysis))
    journal.append(session.choose_file("gone.py", FileChoice.TAKE_MAIN))
    expected = {
        "md": "- `gone.py` whole file: deleted",
        "text": "gone.py  whole file: deleted",
        "github": "",
    }
    for fmt in FORMATS:
        out = _report(str(one_of_each.path), fmt, capsys)
        assert "kept main" not in out, fmt
        if fmt == "json":
            (decision,) = json.loads(out)["decisions"]
            assert {key: decision[key] for key in ("path", "index", "choice", "disposition", "note")} == {
                "path": "gone.py", "index": None, "choice": "take-main", "disposition": "deleted", "note": ""}
        elif expected[fmt]:
            assert expected[fmt] in out, (fmt, out)


def test_one_line_left_out_of_a_hunk_diff_is_one_line(builder: RepoBuilder) -> None:
    builder.write("a.py", "x = 0\n").commit("base")
    builder.branch("dev").checkout("dev").write("a.py", "".join(f"d{i} = {i}\n" for i in range(61))).commit("dev")
    builder.checkout("main").write("a.py", "".join(f"m{i} = {i}\n" for i in range(60))).commit("main")
    builder.checkout("dev").merge("main", "theirs", check=True)
    _repo, analysis = open_analysis(builder.path)
    (hunk,) = analysis.files[0].hunks
    body = [line for line in hunk_diffs(hunk) if line.sign in "-+"]
    assert len(body) == MAX_LINES
    assert hunk_diffs(hunk)[-1].text == "1 more line not shown"
