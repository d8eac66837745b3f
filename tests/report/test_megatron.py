"""The report on Megatron-LM sync #4291 (skipped without MEGATRON_GIT, a clone with both branches)."""

from __future__ import annotations

import os

import pytest
from helpers.reports import html_sections, render_html
from helpers.syncs import open_analysis

from workbench.analysis.model import Level
from workbench.report.document import Report
from workbench.report.github import render_github
from workbench.report.make import make_report
from workbench.report.markdown import LIMIT, render_markdown
from workbench.report.phrases import SECTIONS

pytestmark = pytest.mark.skipif(not os.environ.get("MEGATRON_GIT"), reason="MEGATRON_GIT is not set")

MERGE = "66e55f9884"
SYNC_BRANCH_HEAD = "01b70a14cb"
"""The sync PR's head when it shipped (a2e673fed7's second parent): the bot's merge plus fixes."""


def _report(result: str | None = None) -> Report:
    repo, analysis = open_analysis(os.environ["MEGATRON_GIT"], rev=MERGE, result=result)
    return make_report(repo, analysis, result=repo.resolve(result) if result else None, fail_on=Level.HIGH)


def test_the_bots_merge_fits_a_pr_body_with_every_section() -> None:
    report = _report()
    markdown = render_markdown(report)
    assert len(markdown) <= LIMIT
    sections = html_sections(render_html(markdown))
    assert list(sections) == ["", *SECTIONS]
    assert "124 commits from main · 126 files conflicting" in sections[""]
    assert "megatron/core/ssm/gated_delta_net.py" in sections["High-risk hunks"]
    assert report.gate is not None and report.gate.failed
    errors = [line for line in render_github(report).splitlines() if line.startswith("::error file=")]
    assert len(errors) == len([r for r in report.risky if r.level is Level.HIGH and r.open])


def test_the_shipped_fixes_close_high_risk_hunks() -> None:
    before, after = _report().gate, _report(SYNC_BRANCH_HEAD).gate
    assert before is not None and after is not None
    was_open = {(o.path, o.index) for o in before.open}
    # The PR head also opens edit hunks (changes beyond git's merge, in files its later commits took
    # wholesale): of the merge's own open hunks, the fixes closed some and left others.
    still_open = was_open & {(o.path, o.index) for o in after.open}
    assert 0 < len(still_open) < len(was_open)
    assert ("megatron/core/ssm/gated_delta_net.py", 1) in was_open - still_open
