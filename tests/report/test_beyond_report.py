"""The report on a sync whose resolution changed what git merged cleanly (the bot resolves conflicts itself)."""

from __future__ import annotations

from helpers.syncs import open_analysis

from workbench.analysis.model import Level, Resolver
from workbench.report.github import render_github
from workbench.report.make import make_report
from workbench.report.markdown import render_markdown
from workbench.sample import RepoBuilder

CLEAN = "pkg/clean.py"
CONFLICT = "pkg/conflict.py"
BODY = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(6))


def _sync(b: RepoBuilder) -> None:
    b.write(CLEAN, BODY).write(CONFLICT, "value = 0\n").commit("Initial import")
    b.branch("dev").checkout("dev")
    b.write(CLEAN, BODY.replace("return 1\n", "return dev_value(1)\n")).write(CONFLICT, "value = 1\n")
    b.commit("[dev] Dev work (#11)")
    b.checkout("main")
    b.write(CLEAN, BODY + "def restore_fused_offload(buffers):\n    return buffers.flush()\n")
    b.write(CONFLICT, "value = 2\n").commit("Main restores fused offload (#21)")
    b.checkout("dev")


def test_a_bot_resolution_is_reported_as_the_resolution_with_its_changes_beyond_git(builder: RepoBuilder) -> None:
    _sync(builder)
    assert builder.merge("main", no_commit=True) == 1
    builder.write(CONFLICT, "value = 2\n").git("checkout", "dev", "--", CLEAN)
    builder.git("add", "-A")
    builder.commit("Merge main into dev (bot resolution)")

    repo, analysis = open_analysis(builder.path, rev="HEAD")
    assert analysis.resolver is Resolver.RESOLUTION
    report = make_report(repo, analysis, fail_on=Level.HIGH)
    markdown = render_markdown(report)
    head = markdown.split("### ")[0]
    assert "-X theirs" not in head and "decided by the resolution" in head
    assert "1 edit beyond git's merge in 1 file" in head
    beyond = markdown.split("### Changes beyond git's merge")[1].split("###")[0]
    assert CLEAN in beyond and "the result is dev's file" in beyond
    assert "an edit outside git's conflicts" in markdown.split("### Worklist")[1].split("###")[0]
    assert "the resolution took main's text" in markdown  # the conflicted file, main's side kept
    assert report.gate is not None and (CLEAN, 0) in [(o.path, o.index) for o in report.gate.open]
    assert any(line.startswith(f"::error file={CLEAN}") for line in render_github(report).splitlines())


def test_a_pure_theirs_merge_keeps_its_words(builder: RepoBuilder) -> None:
    _sync(builder)
    builder.merge("main", "theirs", check=True)

    repo, analysis = open_analysis(builder.path, rev="HEAD")
    assert analysis.resolver is Resolver.THEIRS
    markdown = render_markdown(make_report(repo, analysis))
    assert "decided by -X theirs" in markdown.split("### ")[0].replace("`", "")
    assert "Changes beyond git's merge\n\nnone" in markdown
