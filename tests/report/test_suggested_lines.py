"""Every report format says a risky hunk's suggestion, in the words the training screen and the app use."""

from __future__ import annotations

import io
from dataclasses import replace

from helpers.reports import report_for
from rich.console import Console

from workbench.analysis.kinds import Rung, Take
from workbench.analysis.model import Candidate, Level, SideShare, Suggestion
from workbench.analysis.suggest.phrases import suggestion_words
from workbench.report.document import Report, RiskyHunk
from workbench.report.github import render_github
from workbench.report.markdown import render_markdown
from workbench.report.phrases import suggested_words
from workbench.report.text import print_text
from workbench.sample import SampleSync
from workbench.sample.dropped_lines import SPECS

_REASON = "dev's lines are a later state of what main squashed"


def _suggested(bot_merge: SampleSync, pr: int | None) -> tuple[Report, RiskyHunk]:
    """The bot's report with one risky hunk, which suggests dev's lines on a squash chain (its dev commit #``pr``)."""
    report = report_for(bot_merge, {(SPECS, 0): (Level.HIGH, ("dev's qk_l2_norm line is missing",))})
    risky = report.risky[0]
    assert risky.dev_commits
    commit = replace(risky.dev_commits[0], pr=pr)
    hunk = risky.hunk
    dev = Candidate(Take.DEV, hunk.dev_text, SideShare((), ()), SideShare((), ()))
    suggestion = Suggestion(dev, Rung.SQUASH_CHAIN, "a signal's own sentence", (commit.sha,))
    risky = replace(risky, hunk=replace(hunk, suggestion=suggestion, candidates=(dev,)), dev_commits=(commit,))
    return replace(report, risky=(risky,)), risky


def test_words_name_the_take_the_rung_and_the_pr(bot_merge: SampleSync) -> None:
    _, risky = _suggested(bot_merge, 4113)
    assert suggested_words(risky) == f"suggested: dev — {_REASON} in #4113"
    _, without_pr = _suggested(bot_merge, None)
    assert suggested_words(without_pr) == f"suggested: dev — {_REASON}"
    assert suggested_words(replace(risky, hunk=replace(risky.hunk, suggestion=None))) is None


def test_every_rung_and_take_has_words() -> None:
    share = SideShare((), ())
    for take in Take:
        for rung in Rung:
            words = suggestion_words(Suggestion(Candidate(take, (), share, share), rung, ""), {})
            assert " — " in words and "{" not in words


def test_markdown_github_and_text_say_the_suggestion(bot_merge: SampleSync) -> None:
    report, _ = _suggested(bot_merge, 4113)
    line = f"suggested: dev — {_REASON} in #4113"
    assert f"- {line}" in render_markdown(report)
    assert line in render_github(report)
    out = io.StringIO()
    print_text(report, Console(file=out, width=200, color_system=None))
    assert f"  {line}" in out.getvalue().splitlines()


def test_no_suggestion_no_line(bot_merge: SampleSync) -> None:
    report, risky = _suggested(bot_merge, 4113)
    report = replace(report, risky=(replace(risky, hunk=replace(risky.hunk, suggestion=None)),))
    out = io.StringIO()
    print_text(report, Console(file=out, width=200, color_system=None))
    for rendered in (render_markdown(report), render_github(report), out.getvalue()):
        assert "suggested:" not in rendered
